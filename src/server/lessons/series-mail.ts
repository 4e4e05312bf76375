/**
 * The one mail each of a weekly series' people gets when it is booked or answered as a whole:
 * every week in the reader's zone, the weeks skipped, and for a confirmed series one invitation
 * with all its weeks. A child's parent reads the student's wording, said to be about their child,
 * and is told of a request only when the child made it (./lesson-mail.ts, `forParent`).
 */

import { paths } from '../../shared/routes';
import { escapeHtml } from '../mail/html';
import { mailWords } from '../mail/mail-language';
import { greetingOf, layout } from '../mail/mail-templates';
import type { OutgoingMail } from '../mail/mailer';
import { invitationOf, type MailLesson, type MailPerson, type MailSettings } from './lesson-invitation';
import { languageOf, lessonWhen, subjectLine, tutorMoneyLine, zoneOf } from './lesson-mail';
import { forParent, isParentReader } from './parent-mail';

/** What happened to a weekly series as a whole: booked (at once or as a request), or answered. */
export type SeriesEvent = 'requested' | 'confirmed' | 'declined';

/**
 * The one mail a reader gets for a weekly series booked or answered: every week listed in their
 * zone, the weeks that were skipped, and for a confirmed series one invitation with all its weeks.
 */
export function seriesMail(
  event: SeriesEvent,
  lessons: MailLesson[],
  reader: MailPerson,
  settings: MailSettings,
  skipped: Date[] = [],
  /** Who booked it: a parent's copy says when their child did. */
  bookedBy: string | null = null,
): OutgoingMail {
  const [first] = lessons;
  if (!first) throw new Error('a series mail needs at least one lesson');
  const language = languageOf(reader, settings);
  const words = mailWords(language);
  const { t } = words;
  const zone = zoneOf(reader);
  const isTutor = reader.id === first.tutor.id;
  const parent = isParentReader(first, reader);
  const child = first.student.displayName;
  const other = isTutor ? first.student.displayName : first.tutor.displayName;
  const subject = first.subject;
  const count = lessons.length;
  const total = words.amount(
    lessons.reduce((sum, lesson) => sum + lesson.priceCents, 0),
    first.currency,
  );
  const weeks = lessons.map((lesson) => `- ${lessonWhen(words, lesson.start, lesson.end, zone)}`);
  const skippedLines = skipped.length
    ? [
        t(/*i18n*/ 'Not booked, as the time was not free: {times}.', {
          times: skipped
            .map(
              (start) => `${words.times.instant(start.getTime(), zone)} ${words.zone(zone, start.getTime())}`,
            )
            .join('; '),
        }),
      ]
    : [];
  const said = (): { subject: string; lines: string[] } => {
    switch (event) {
      case 'requested':
        if (parent)
          return {
            subject: t(/*i18n*/ '{child} booked weekly lessons with {other}', { child, other }),
            lines: [
              t(
                /*i18n*/ '{child} booked weekly {subject} lessons with {other}, {count, plural, one {# lesson} other {# lessons}} for {total} in all:',
                { child, other, subject, count, total },
              ),
              weeks.join('\n'),
              ...skippedLines,
              t(/*i18n*/ '{other} will accept or decline the request: you will get a mail either way.', {
                other,
              }),
            ],
          };
        return {
          subject: t(/*i18n*/ 'New weekly lesson request from {other}', { other }),
          lines: [
            t(
              /*i18n*/ '{other} would like weekly {subject} lessons with you, {count, plural, one {# lesson} other {# lessons}} for {total} in all:',
              { other, subject, count, total },
            ),
            weeks.join('\n'),
            ...skippedLines,
            ...(first.note ? [t(/*i18n*/ 'Their note: {note}', { note: first.note })] : []),
            t(
              /*i18n*/ 'Accept or decline them all at once on your schedule. The request expires in 48 hours, or when a lesson would start if that is sooner.',
            ),
          ],
        };
      case 'confirmed':
        return {
          subject: t(/*i18n*/ 'Weekly lessons confirmed: {subject} with {other}', { subject, other }),
          lines: [
            t(
              /*i18n*/ 'Your weekly {subject} lessons with {other} are confirmed, {count, plural, one {# lesson} other {# lessons}}:',
              { subject, other, count },
            ),
            weeks.join('\n'),
            ...skippedLines,
            isTutor
              ? tutorMoneyLine(lessons, true, words)
              : t(/*i18n*/ 'The price is {price} in all.', { price: total }),
            t(/*i18n*/ 'The invitation attached to this mail adds them all to your calendar.'),
          ],
        };
      case 'declined':
        return {
          subject: t(/*i18n*/ 'Weekly lesson request declined: {subject} with {other}', { subject, other }),
          lines: [
            isTutor
              ? t(/*i18n*/ "You declined {other}'s request for weekly {subject} lessons:", { other, subject })
              : t(
                  /*i18n*/ '{other} cannot take your request for weekly {subject} lessons. Anything held from your wallet for them is back in your wallet.',
                  { other, subject },
                ),
            weeks.join('\n'),
          ],
        };
    }
  };
  const worded = said();
  const { subject: title, lines } =
    parent && event !== 'requested'
      ? forParent(
          words,
          first,
          worded.subject,
          worded.lines,
          event === 'confirmed' && bookedBy === first.student.id,
        )
      : worded;
  const scheduleUrl = `${settings.appUrl}${paths.schedule}`;
  const greeting = greetingOf(language, reader.displayName);
  return {
    to: reader.email,
    subject: subjectLine(words, title),
    text: `${greeting}\n\n${lines.join('\n\n')}\n\n${t(/*i18n*/ 'Your schedule: {url}', { url: scheduleUrl })}\n`,
    html: layout(
      language,
      title,
      [greeting, ...lines].map((line) => escapeHtml(line).replaceAll('\n', '<br>')),
      { label: t(/*i18n*/ 'Open my schedule'), url: scheduleUrl },
    ),
    ...(event === 'confirmed'
      ? {
          calendar: {
            method: 'REQUEST' as const,
            content: invitationOf(lessons, 'REQUEST', settings, language, reader),
          },
        }
      : {}),
  };
}
