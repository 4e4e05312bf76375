/**
 * The mails of a group class, each in its reader's language and zone: a student's seat (with an
 * invitation to its sessions), a seat that came free, leaving, being removed, and the class called
 * off; the tutor hears who joined and left. A student's invitation has an event per seat, each
 * keeping its lesson's UID, as the calendar feed does.
 */
import { paths } from '../../shared/routes';
import { invitationOf, type MailPerson, type MailSettings } from '../lessons/lesson-invitation';
import { languageOf, lessonWhen, subjectLine, zoneOf } from '../lessons/lesson-mail';
import { escapeHtml } from '../mail/html';
import { mailWords } from '../mail/mail-language';
import { greetingOf, layout } from '../mail/mail-templates';
import type { OutgoingMail } from '../mail/mailer';

export type ClassEvent =
  | 'enrolled'
  | 'promoted'
  | 'seat-free'
  | 'joined'
  | 'left'
  | 'student-left'
  | 'removed'
  | 'cancelled'
  | 'too-few';

export interface MailClass {
  id: string;
  title: string;
  subject: string;
  minStudents: number;
  priceCents: number;
  currency: string;
  tutor: MailPerson;
}

/** A student's seat in one session: its lesson's id keeps the event's UID. */
export interface MailSeat {
  lessonId: string;
  start: Date;
  end: Date;
  sequence: number;
}

export interface ClassMailFacts {
  /** The seats the mail is about (a student's), or the class's sessions (to the tutor). */
  seats: MailSeat[];
  /** The other person named: the student who joined or left (to the tutor). */
  student?: MailPerson;
  reason?: string | null;
  /** What a student who left late was charged. */
  fee?: number;
  /** What a student must have to take a free seat. */
  total?: number;
}

export function classMail(
  event: ClassEvent,
  cls: MailClass,
  reader: MailPerson,
  facts: ClassMailFacts,
  settings: MailSettings,
): OutgoingMail {
  const language = languageOf(reader, settings);
  const words = mailWords(language);
  const { t } = words;
  const zone = zoneOf(reader);
  const title = cls.title;
  const tutor = cls.tutor.displayName;
  const student = facts.student?.displayName ?? '';
  const list = facts.seats.map((seat) => `- ${lessonWhen(words, seat.start, seat.end, zone)}`).join('\n');
  const money = (cents: number) => words.amount(cents, cls.currency);
  const reason = facts.reason ? [t(/*i18n*/ 'The reason given: {reason}', { reason: facts.reason })] : [];
  const said = (): { subject: string; lines: string[] } => {
    switch (event) {
      case 'enrolled':
      case 'promoted':
        return {
          subject: t(/*i18n*/ 'You are enrolled: {title}', { title }),
          lines: [
            event === 'promoted'
              ? t(
                  /*i18n*/ 'A seat came free in {title} with {tutor}, and you had the first place on its waitlist: you are enrolled.',
                  { title, tutor },
                )
              : t(/*i18n*/ 'You are enrolled in {title} with {tutor}.', { title, tutor }),
            list,
            t(
              /*i18n*/ '{price} is held from your wallet for each session and paid to the tutor once it took place.',
              {
                price: money(cls.priceCents),
              },
            ),
            t(/*i18n*/ 'The invitation attached to this mail adds the sessions to your calendar.'),
          ],
        };
      case 'seat-free':
        return {
          subject: t(/*i18n*/ 'A seat is free in {title}', { title }),
          lines: [
            t(
              /*i18n*/ 'A seat came free in {title} with {tutor}, but your balance does not cover the {total} its sessions cost, so it went to the next student. You keep your place on the waitlist.',
              {
                title,
                tutor,
                total: money(facts.total ?? 0),
              },
            ),
          ],
        };
      case 'joined':
        return {
          subject: t(/*i18n*/ '{student} enrolled in {title}', { student, title }),
          lines: [t(/*i18n*/ '{student} enrolled in your class {title}.', { student, title })],
        };
      case 'left':
        return {
          subject: t(/*i18n*/ 'You left {title}', { title }),
          lines: [
            t(/*i18n*/ 'You left {title} with {tutor}. These sessions are off your schedule:', {
              title,
              tutor,
            }),
            list,
            facts.fee
              ? t(
                  /*i18n*/ 'You left inside the cancellation window of the next session, so its fee of {fee} was kept; the rest is back in your wallet.',
                  {
                    fee: money(facts.fee),
                  },
                )
              : t(/*i18n*/ 'Everything held for them is back in your wallet.'),
          ],
        };
      case 'student-left':
        return {
          subject: t(/*i18n*/ '{student} left {title}', { student, title }),
          lines: [t(/*i18n*/ '{student} left your class {title}.', { student, title })],
        };
      case 'removed':
        return {
          subject: t(/*i18n*/ 'You were removed from {title}', { title }),
          lines: [
            t(
              /*i18n*/ 'The school removed you from {title} with {tutor}. Everything held for its sessions is back in your wallet.',
              {
                title,
                tutor,
              },
            ),
            ...reason,
            list,
          ],
        };
      case 'cancelled':
      case 'too-few':
        return {
          subject: t(/*i18n*/ 'Class cancelled: {title}', { title }),
          lines: [
            event === 'too-few'
              ? t(
                  /*i18n*/ '{title} with {tutor} is cancelled: it did not reach its minimum of {count} students a day before its first session.',
                  {
                    title,
                    tutor,
                    count: cls.minStudents,
                  },
                )
              : t(/*i18n*/ '{title} with {tutor} is cancelled.', { title, tutor }),
            ...(event === 'cancelled' ? reason : []),
            ...(facts.seats.length > 0
              ? [
                  list,
                  t(
                    /*i18n*/ 'Nothing is owed for these sessions: anything held for them is back in the wallet.',
                  ),
                ]
              : []),
          ],
        };
    }
  };
  const { subject, lines } = said();
  const url = `${settings.appUrl}${paths.classes}/${cls.id}`;
  const greeting = greetingOf(language, reader.displayName);
  const invite = reader.id !== cls.tutor.id && facts.seats.length > 0;
  const method = event === 'enrolled' || event === 'promoted' ? 'REQUEST' : 'CANCEL';
  const withInvitation =
    invite && (method === 'REQUEST' || ['left', 'removed', 'cancelled', 'too-few'].includes(event));
  return {
    to: reader.email,
    subject: subjectLine(words, subject),
    text: `${greeting}\n\n${lines.join('\n\n')}\n\n${t(/*i18n*/ 'The class: {url}', { url })}\n`,
    html: layout(
      language,
      subject,
      [greeting, ...lines].map((line) => escapeHtml(line).replaceAll('\n', '<br>')),
      { label: t(/*i18n*/ 'Open the class'), url },
    ),
    ...(withInvitation
      ? {
          calendar: {
            method,
            content: invitationOf(
              facts.seats.map((seat) => ({
                id: seat.lessonId,
                subject: title,
                note: '',
                start: seat.start,
                end: seat.end,
                priceCents: cls.priceCents,
                currency: cls.currency,
                sequence: seat.sequence,
                tutor: cls.tutor,
                student: reader,
              })),
              method,
              settings,
              language,
            ),
          },
        }
      : {}),
  };
}
