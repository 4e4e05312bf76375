/**
 * What a lesson's changes say by mail, to each of its people in their own zone; a confirmed
 * lesson's mails carry its calendar invitation (./lesson-invitation.ts). A weekly series booked or
 * answered as a whole has its own one mail (./series-mail.ts). A child's paying parent reads them
 * too, in words said to be about the child (./parent-mail.ts).
 */

import { PRODUCT_NAME } from '../../shared/constants';
import type { Language } from '../../shared/languages';
import { paths, roomPath } from '../../shared/routes';
import { escapeHtml } from '../mail/html';
import { type MailWords, mailLanguage, mailWords } from '../mail/mail-language';
import { greetingOf, layout, type MailContent } from '../mail/mail-templates';
import type { OutgoingMail } from '../mail/mailer';
import { lessonInvitation, type MailLesson, type MailPerson, type MailSettings } from './lesson-invitation';
import { isParentReader, parentCopy, parentWording } from './parent-mail';

export type { MailLesson, MailPerson, MailSettings };

export type LessonEvent =
  | 'requested'
  | 'confirmed'
  | 'declined'
  | 'expired'
  | 'cancelled'
  | 'rescheduled'
  | 'request-moved'
  /** The tutor proposed a new time: told to the student. */
  | 'proposed'
  /** The student declined the tutor's proposed time: told to the tutor. */
  | 'proposal-declined';

/** What a mail may say beyond the lesson itself. */
export interface MailExtra {
  reason?: string | null;
  cancelledBy?: string | null;
  /** Cancelled because the other person's account was suspended. */
  suspended?: boolean;
  /** Cancelled by an admin who refunded it. */
  refunded?: boolean;
  /** Cancelled or moved by an admin, for the reason given. */
  byTeam?: boolean;
  /** Cancelled by the student inside the lesson's window: the fee they were charged. */
  lateFee?: { amountCents: number; currency: string };
  /** Moved to the time the tutor proposed, on the student's acceptance. */
  proposalAccepted?: boolean;
  previousStart?: Date;
  /** The time the tutor proposed (for `proposed` and `proposal-declined`). */
  proposed?: { start: Date; end: Date; note: string };
  /** Who booked it (for `requested` and `confirmed` at booking): a child's parent is told when the child did. */
  bookedBy?: string | null;
}

/** The zone a reader's times are written in: theirs, else UTC, named either way. */
export const zoneOf = (reader: MailPerson) => reader.timeZone ?? 'UTC';

/** The language a reader's mails are in: theirs, else the school's default. */
export const languageOf = (reader: MailPerson, settings: MailSettings): Language =>
  mailLanguage(reader.language, settings.defaultLanguage);

/**
 * "Monday, March 2, 2026, 10:00–11:00 Eastern Time (New York)": a mail is read away from the
 * site, so the zone is said in words, never as an IANA id.
 */
export const lessonWhen = (words: MailWords, start: Date, end: Date, zone: string) =>
  `${words.times.lessonTime(start.getTime(), end.getTime(), zone)} ${words.zone(zone, start.getTime())}`;

function describe(lesson: MailLesson, reader: MailPerson, words: MailWords) {
  const zone = zoneOf(reader);
  const other = reader.id === lesson.tutor.id ? lesson.student : lesson.tutor;
  return {
    when: lessonWhen(words, lesson.start, lesson.end, zone),
    other: other.displayName,
    price: words.amount(lesson.priceCents, lesson.currency),
  };
}

/**
 * What the tutor is told of the money of lessons they take on: what they will earn, after the
 * school's commission, written with the currency's minor digits as their wallet writes it; only
 * the price when nothing is held for them (payments off, or free), as the student is told.
 */
export function tutorMoneyLine(lessons: MailLesson[], inAll: boolean, words = mailWords('en')): string {
  const { t, amount } = words;
  const currency = lessons[0]?.currency ?? 'USD';
  const priceCents = lessons.reduce((sum, lesson) => sum + lesson.priceCents, 0);
  const earnings = lessons.flatMap((lesson) => (lesson.tutorEarnings ? [lesson.tutorEarnings] : []));
  if (earnings.length < lessons.length) {
    const price = amount(priceCents, currency);
    return inAll
      ? t(/*i18n*/ 'The price is {price} in all.', { price })
      : t(/*i18n*/ 'The price is {price}.', { price });
  }
  const earnedCents = earnings.reduce((sum, share) => sum + share.amountCents, 0);
  const earned = amount(earnedCents, currency, { minor: 'always' });
  if (earnedCents === priceCents)
    return inAll
      ? t(/*i18n*/ 'You will earn {earned} in all.', { earned })
      : t(/*i18n*/ 'You will earn {earned}.', { earned });
  const price = amount(priceCents, currency, { minor: 'always' });
  const percents = new Set(earnings.map((share) => share.commissionPercent));
  const [percent] = percents.size === 1 ? [...percents] : [];
  if (percent === undefined)
    return inAll
      ? t(/*i18n*/ "You will earn {earned} in all: the price of {price} less the school's commission.", {
          earned,
          price,
        })
      : t(/*i18n*/ "You will earn {earned}: the price of {price} less the school's commission.", {
          earned,
          price,
        });
  return inAll
    ? t(
        /*i18n*/ "You will earn {earned} in all: the price of {price} less the school's {percent}% commission.",
        {
          earned,
          price,
          percent,
        },
      )
    : t(/*i18n*/ "You will earn {earned}: the price of {price} less the school's {percent}% commission.", {
        earned,
        price,
        percent,
      });
}

/** What a late cancellation's fee means to each of the lesson's people. */
function lateFeeLine(fee: { amountCents: number; currency: string }, isTutor: boolean, words: MailWords) {
  const amount = words.amount(fee.amountCents, fee.currency);
  return isTutor
    ? words.t(
        /*i18n*/ 'It was cancelled inside your cancellation window, so the student paid a late cancellation fee of {amount}; it is added to your earnings, less the commission.',
        { amount },
      )
    : words.t(
        /*i18n*/ "It was cancelled inside the tutor's cancellation window, so a late cancellation fee of {amount} was charged; the rest of the price is back in your wallet.",
        { amount },
      );
}

/** The subject line and first paragraph of each event, for one reader. */
function wording(
  event: LessonEvent,
  lesson: MailLesson,
  reader: MailPerson,
  extra: MailExtra,
  words: MailWords,
): { subject: string; lines: string[] } {
  const { t } = words;
  const { when, other, price } = describe(lesson, reader, words);
  const isTutor = reader.id === lesson.tutor.id;
  const subject = lesson.subject;
  const product = PRODUCT_NAME;
  const reasonLines = extra.reason ? [t(/*i18n*/ 'Reason given: {reason}', { reason: extra.reason })] : [];
  // What only a parent is told: their child's own request, and their child's own cancellation.
  const parentOnly =
    isParentReader(lesson, reader) &&
    parentWording(event, lesson, extra, words, {
      when,
      other,
      price,
      more: [...reasonLines, ...(extra.lateFee ? [lateFeeLine(extra.lateFee, false, words)] : [])],
    });
  if (parentOnly) return parentOnly;
  const cancelledSubject = t(/*i18n*/ 'Lesson cancelled: {subject} lesson with {other}', { subject, other });
  const movedSubject = t(/*i18n*/ 'Lesson moved: {subject} lesson with {other}', { subject, other });
  switch (event) {
    case 'requested':
      return {
        subject: t(/*i18n*/ 'New lesson request from {other}', { other }),
        lines: [
          t(/*i18n*/ '{other} would like a {subject} lesson with you on {when}, for {price}.', {
            other,
            subject,
            when,
            price,
          }),
          ...(lesson.note ? [t(/*i18n*/ 'Their note: {note}', { note: lesson.note })] : []),
          t(
            /*i18n*/ 'Accept or decline it on your schedule. The request expires in 48 hours, or when the lesson would start if that is sooner.',
          ),
        ],
      };
    case 'confirmed':
      return {
        subject: t(/*i18n*/ 'Lesson confirmed: {subject} lesson with {other}', { subject, other }),
        lines: [
          t(/*i18n*/ 'Your {subject} lesson with {other} is confirmed for {when}.', { subject, other, when }),
          isTutor ? tutorMoneyLine([lesson], false, words) : t(/*i18n*/ 'The price is {price}.', { price }),
          t(/*i18n*/ 'The invitation attached to this mail adds it to your calendar.'),
        ],
      };
    case 'declined':
      return {
        subject: t(/*i18n*/ 'Lesson request declined: {subject} lesson with {other}', { subject, other }),
        lines: [
          isTutor
            ? t(/*i18n*/ "You declined {other}'s request for {when}.", { other, when })
            : t(
                /*i18n*/ '{other} cannot take your lesson request for {when}. Please choose another time on their page.',
                { other, when },
              ),
        ],
      };
    case 'expired':
      return {
        subject: t(/*i18n*/ 'Lesson request expired: {subject} lesson with {other}', { subject, other }),
        lines: [
          isTutor
            ? t(/*i18n*/ "{other}'s request for {when} expired without an answer.", { other, when })
            : t(
                /*i18n*/ '{other} did not answer your lesson request for {when} in time, so it has expired. You can book another time on their page.',
                { other, when },
              ),
        ],
      };
    case 'cancelled': {
      if (extra.suspended)
        return {
          subject: cancelledSubject,
          lines: [
            t(
              /*i18n*/ "Your {subject} lesson with {other} on {when} is cancelled: {other}'s account is no longer active on {product}.",
              { subject, other, when, product },
            ),
            // The one who is left is told what is true for them: a tutor has a free hour again,
            // a student needs another tutor (this one can no longer be booked).
            isTutor
              ? t(/*i18n*/ 'The time is free again in your schedule.')
              : t(/*i18n*/ 'You can find another tutor on the site.'),
          ],
        };
      if (extra.byTeam)
        return {
          subject: cancelledSubject,
          lines: [
            t(/*i18n*/ 'Your {subject} lesson with {other} on {when} was cancelled by the {product} team.', {
              subject,
              other,
              when,
              product,
            }),
            ...reasonLines,
            isTutor
              ? t(/*i18n*/ 'The time is free again in your schedule.')
              : t(
                  /*i18n*/ "Anything held from your wallet for it is back in your wallet. You can book another time on {other}'s page.",
                  { other },
                ),
          ],
        };
      if (extra.refunded)
        return {
          subject: cancelledSubject,
          lines: [
            t(
              /*i18n*/ "Your {subject} lesson with {other} on {when} was cancelled by the {product} team, and its price was refunded to the student's wallet.",
              { subject, other, when, product },
            ),
            ...reasonLines,
          ],
        };
      const byReader = extra.cancelledBy === reader.id;
      return {
        subject: cancelledSubject,
        lines: [
          byReader
            ? t(/*i18n*/ 'You cancelled your {subject} lesson with {other} on {when}.', {
                subject,
                other,
                when,
              })
            : t(/*i18n*/ '{other} cancelled your {subject} lesson on {when}.', { subject, other, when }),
          ...reasonLines,
          ...(extra.lateFee ? [lateFeeLine(extra.lateFee, isTutor, words)] : []),
        ],
      };
    }
    case 'rescheduled':
    case 'request-moved': {
      const previous = extra.previousStart
        ? words.times.lessonTime(
            extra.previousStart.getTime(),
            extra.previousStart.getTime() + (lesson.end.getTime() - lesson.start.getTime()),
            zoneOf(reader),
          )
        : null;
      // "… to {when} (it was {previous})": the new time, with the old one when it is known.
      const newWhen = previous ? t(/*i18n*/ '{when} (it was {previous})', { when, previous }) : when;
      const request = event === 'request-moved';
      const invitation =
        event === 'rescheduled'
          ? [t(/*i18n*/ 'The invitation attached to this mail updates your calendar.')]
          : [];
      if (extra.byTeam)
        return {
          subject: movedSubject,
          lines: [
            request
              ? t(/*i18n*/ 'The {product} team moved your lesson request with {other} to {when}.', {
                  product,
                  other,
                  when: newWhen,
                })
              : t(/*i18n*/ 'The {product} team moved your {subject} lesson with {other} to {when}.', {
                  product,
                  subject,
                  other,
                  when: newWhen,
                }),
            ...reasonLines,
            ...invitation,
          ],
        };
      if (extra.proposalAccepted) {
        const line = isTutor
          ? request
            ? t(/*i18n*/ '{other} accepted the time you proposed: your lesson request is now on {when}.', {
                other,
                when: newWhen,
              })
            : t(/*i18n*/ '{other} accepted the time you proposed: your {subject} lesson is now on {when}.', {
                other,
                subject,
                when: newWhen,
              })
          : request
            ? t(/*i18n*/ "You accepted {other}'s proposed time: your lesson request is now on {when}.", {
                other,
                when: newWhen,
              })
            : t(/*i18n*/ "You accepted {other}'s proposed time: your {subject} lesson is now on {when}.", {
                other,
                subject,
                when: newWhen,
              });
        return { subject: movedSubject, lines: [line, ...invitation] };
      }
      const line = isTutor
        ? request
          ? t(/*i18n*/ '{other} moved their lesson request to {when}.', { other, when: newWhen })
          : t(/*i18n*/ '{other} moved their {subject} lesson to {when}.', { other, subject, when: newWhen })
        : request
          ? t(/*i18n*/ 'Your lesson request with {other} is now on {when}.', { other, when: newWhen })
          : t(/*i18n*/ 'Your {subject} lesson with {other} is now on {when}.', {
              subject,
              other,
              when: newWhen,
            });
      return { subject: movedSubject, lines: [line, ...invitation] };
    }
    case 'proposed':
    case 'proposal-declined': {
      const proposed = extra.proposed;
      const zone = zoneOf(reader);
      const newWhen = proposed
        ? lessonWhen(words, proposed.start, proposed.end, zone)
        : t(/*i18n*/ 'another time');
      if (event === 'proposed')
        return {
          subject: t(/*i18n*/ 'New time proposed: {subject} lesson with {other}', { subject, other }),
          lines: [
            t(/*i18n*/ '{other} proposes moving your {subject} lesson on {when} to {newWhen}.', {
              other,
              subject,
              when,
              newWhen,
            }),
            ...(proposed?.note ? [t(/*i18n*/ 'Their note: {note}', { note: proposed.note })] : []),
            t(
              /*i18n*/ 'Accept or decline it on your schedule. Until you accept, the lesson stays at its current time; an unanswered proposal lapses when the lesson starts.',
            ),
          ],
        };
      return {
        subject: t(/*i18n*/ 'Proposed time declined: {subject} lesson with {other}', { subject, other }),
        lines: [
          t(
            /*i18n*/ '{other} declined the time you proposed ({newWhen}). Your {subject} lesson stays on {when}.',
            {
              other,
              newWhen,
              subject,
              when,
            },
          ),
        ],
      };
    }
  }
}

/** "New lesson request from Ada (Tutorlane)": a mail's subject line, with the product named. */
export const subjectLine = (words: MailWords, subject: string) =>
  words.t(/*i18n*/ '{subject} ({product})', { subject, product: PRODUCT_NAME });

/**
 * The mail one participant gets for an event, in their language; with `invitation`, the lesson's
 * calendar invitation rides along.
 */
export function lessonMail(
  event: LessonEvent,
  lesson: MailLesson,
  reader: MailPerson,
  settings: MailSettings,
  extra: MailExtra & { invitation?: 'REQUEST' | 'CANCEL' } = {},
): OutgoingMail {
  const language = languageOf(reader, settings);
  const words = mailWords(language);
  const { t } = words;
  const worded = wording(event, lesson, reader, extra, words);
  const { subject, lines: said } = parentCopy(words, lesson, reader, event, extra.bookedBy, worded);

  // A confirmed lesson's mails say where it takes place: its room, open from 10 minutes before.
  const lines =
    event === 'confirmed' || event === 'rescheduled'
      ? [
          ...said,
          t(/*i18n*/ 'The lesson takes place in its room, open from 10 minutes before the start: {url}', {
            url: `${settings.appUrl}${roomPath(lesson.id)}`,
          }),
        ]
      : said;
  const scheduleUrl = `${settings.appUrl}${paths.schedule}`;
  const greeting = greetingOf(language, reader.displayName);
  const content: MailContent = {
    subject: subjectLine(words, subject),
    text: `${greeting}\n\n${lines.join('\n\n')}\n\n${t(/*i18n*/ 'Your schedule: {url}', { url: scheduleUrl })}\n`,
    html: layout(language, subject, [greeting, ...lines].map(escapeHtml), {
      label: t(/*i18n*/ 'Open my schedule'),
      url: scheduleUrl,
    }),
  };
  return {
    to: reader.email,
    ...content,
    ...(extra.invitation
      ? {
          calendar: {
            method: extra.invitation,
            content: lessonInvitation(lesson, extra.invitation, settings, language, reader),
          },
        }
      : {}),
  };
}
