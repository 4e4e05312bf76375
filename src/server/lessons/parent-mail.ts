/**
 * What a child's paying parent reads in a lesson's mails. The parent reads the
 * student's wording, with a subject naming the child and a first line saying why it reaches them;
 * and words of their own for what only they are told: the request their child made, and the
 * lesson their child cancelled.
 */
import type { MailWords } from '../mail/mail-language';
import type { MailLesson, MailPerson } from './lesson-invitation';

/** Whether the reader is the lesson's student's parent rather than one of its two people. */
export const isParentReader = (lesson: Pick<MailLesson, 'tutor' | 'student'>, reader: MailPerson) =>
  reader.id !== lesson.tutor.id && reader.id !== lesson.student.id;

/**
 * What a parent's copy of a lesson mail adds: its subject names the child, and its first line says
 * why the parent reads it (the child booked it, or they are the child's parent).
 */
export function forParent(
  words: MailWords,
  lesson: Pick<MailLesson, 'student'>,
  subject: string,
  lines: string[],
  childBooked: boolean,
) {
  const child = lesson.student.displayName;
  return {
    subject: words.t(/*i18n*/ 'For {child}: {subject}', { child, subject }),
    lines: [
      childBooked
        ? words.t(/*i18n*/ '{child} booked this, paid from your wallet.', { child })
        : words.t(/*i18n*/ "You get this mail as {child}'s parent.", { child }),
      ...lines,
    ],
  };
}

/**
 * The words of a mail as its reader reads them: a parent's copy names the child and says why it
 * reaches them (a request told to a parent, worded for them, says who booked it already).
 */
export function parentCopy(
  words: MailWords,
  lesson: Pick<MailLesson, 'tutor' | 'student'>,
  reader: MailPerson,
  event: string,
  bookedBy: string | null | undefined,
  said: { subject: string; lines: string[] },
) {
  if (!isParentReader(lesson, reader) || event === 'requested') return said;
  const childBooked = bookedBy === lesson.student.id && event === 'confirmed';
  return forParent(words, lesson, said.subject, said.lines, childBooked);
}

/**
 * The parent's own wording of an event, or null where they read the student's: a request (told to
 * them only when their child made it) and a cancellation by the child. `more` is what follows the
 * first line (the reason given, a late fee).
 */
export function parentWording(
  event: string,
  lesson: MailLesson,
  extra: { cancelledBy?: string | null | undefined },
  words: MailWords,
  said: { when: string; other: string; price: string; more: string[] },
): { subject: string; lines: string[] } | null {
  const { t } = words;
  const { when, other, price } = said;
  const child = lesson.student.displayName;
  const subject = lesson.subject;
  if (event === 'requested')
    return {
      subject: t(/*i18n*/ '{child} booked a lesson with {other}', { child, other }),
      lines: [
        t(/*i18n*/ '{child} booked a {subject} lesson with {other} on {when}, for {price}.', {
          child,
          subject,
          other,
          when,
          price,
        }),
        t(/*i18n*/ '{other} will accept or decline the request: you will get a mail either way.', { other }),
      ],
    };
  if (event === 'cancelled' && extra.cancelledBy === lesson.student.id)
    return {
      subject: t(/*i18n*/ 'Lesson cancelled: {subject} lesson with {other}', { subject, other }),
      lines: [
        t(/*i18n*/ '{child} cancelled their {subject} lesson with {other} on {when}.', {
          child,
          subject,
          other,
          when,
        }),
        ...said.more,
      ],
    };
  return null;
}
