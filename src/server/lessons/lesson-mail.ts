/**
 * What a lesson's changes say by mail, to each of its people in their own zone; a confirmed
 * lesson's mails carry its calendar invitation (./lesson-invitation.ts). A weekly series booked or
 * answered as a whole has its own one mail (./series-mail.ts).
 */

import { formatAmount } from '../../shared/amounts';
import { PRODUCT_NAME } from '../../shared/constants';
import { lessonTimeLabel } from '../../shared/lessons/lesson-times';
import { paths, roomPath } from '../../shared/routes';
import { timeZoneName } from '../../shared/time-zone-name';
import { escapeHtml } from '../mail/html';
import { layout, type MailContent } from '../mail/mail-templates';
import type { OutgoingMail } from '../mail/mailer';
import { lessonInvitation, type MailLesson, type MailPerson, type MailSettings } from './lesson-invitation';

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
}

/** The zone a reader's times are written in: theirs, else UTC, named either way. */
export const zoneOf = (reader: MailPerson) => reader.timeZone ?? 'UTC';

function describe(lesson: MailLesson, reader: MailPerson) {
  const zone = zoneOf(reader);
  const other = reader.id === lesson.tutor.id ? lesson.student : lesson.tutor;
  return {
    // "Monday, March 2, 2026, 10:00–11:00 Eastern Time (New York)": a mail is read away from the
    // site, so the zone is said in words, never as an IANA id.
    when: `${lessonTimeLabel(lesson.start.getTime(), lesson.end.getTime(), zone)} ${timeZoneName(zone, lesson.start.getTime())}`,
    other: other.displayName,
    price: formatAmount(lesson.priceCents, lesson.currency),
  };
}

/**
 * What the tutor is told of the money of lessons they take on: what they will earn, after the
 * school's commission, written with the currency's minor digits as their wallet writes it; only
 * the price when nothing is held for them (payments off, or free), as the student is told.
 */
export function tutorMoneyLine(lessons: MailLesson[], inAll: boolean): string {
  const currency = lessons[0]?.currency ?? 'USD';
  const all = inAll ? ' in all' : '';
  const priceCents = lessons.reduce((sum, lesson) => sum + lesson.priceCents, 0);
  const earnings = lessons.flatMap((lesson) => (lesson.tutorEarnings ? [lesson.tutorEarnings] : []));
  if (earnings.length < lessons.length) return `The price is ${formatAmount(priceCents, currency)}${all}.`;
  const earned = earnings.reduce((sum, share) => sum + share.amountCents, 0);
  if (earned === priceCents)
    return `You will earn ${formatAmount(earned, currency, { minor: 'always' })}${all}.`;
  const percents = new Set(earnings.map((share) => share.commissionPercent));
  const percent = percents.size === 1 ? `${[...percents][0]}% ` : '';
  return `You will earn ${formatAmount(earned, currency, { minor: 'always' })}${all}: the price of ${formatAmount(priceCents, currency, { minor: 'always' })} less the school's ${percent}commission.`;
}

/** What a late cancellation's fee means to each of the lesson's people. */
function lateFeeLine(fee: { amountCents: number; currency: string }, isTutor: boolean) {
  const amount = formatAmount(fee.amountCents, fee.currency);
  return isTutor
    ? `It was cancelled inside your cancellation window, so the student paid a late cancellation fee of ${amount}; it is added to your earnings, less the commission.`
    : `It was cancelled inside the tutor's cancellation window, so a late cancellation fee of ${amount} was charged; the rest of the price is back in your wallet.`;
}

/** The subject line and first paragraph of each event, for one reader. */
function wording(
  event: LessonEvent,
  lesson: MailLesson,
  reader: MailPerson,
  extra: MailExtra,
): { subject: string; lines: string[] } {
  const { when, other, price } = describe(lesson, reader);
  const isTutor = reader.id === lesson.tutor.id;
  const what = `${lesson.subject} lesson`;
  switch (event) {
    case 'requested':
      return {
        subject: `New lesson request from ${other}`,
        lines: [
          `${other} would like a ${lesson.subject} lesson with you on ${when}, for ${price}.`,
          ...(lesson.note ? [`Their note: ${lesson.note}`] : []),
          'Accept or decline it on your schedule. The request expires in 48 hours, or when the lesson would start if that is sooner.',
        ],
      };
    case 'confirmed':
      return {
        subject: `Lesson confirmed: ${what} with ${other}`,
        lines: [
          `Your ${what} with ${other} is confirmed for ${when}.`,
          isTutor ? tutorMoneyLine([lesson], false) : `The price is ${price}.`,
          'The invitation attached to this mail adds it to your calendar.',
        ],
      };
    case 'declined':
      return {
        subject: `Lesson request declined: ${what} with ${other}`,
        lines: [
          isTutor
            ? `You declined ${other}'s request for ${when}.`
            : `${other} cannot take your lesson request for ${when}. Please choose another time on their page.`,
        ],
      };
    case 'expired':
      return {
        subject: `Lesson request expired: ${what} with ${other}`,
        lines: [
          isTutor
            ? `${other}'s request for ${when} expired without an answer.`
            : `${other} did not answer your lesson request for ${when} in time, so it has expired. You can book another time on their page.`,
        ],
      };
    case 'cancelled': {
      if (extra.suspended)
        return {
          subject: `Lesson cancelled: ${what} with ${other}`,
          lines: [
            `Your ${what} with ${other} on ${when} is cancelled: ${other}'s account is no longer active on ${PRODUCT_NAME}.`,
            // The one who is left is told what is true for them: a tutor has a free hour again,
            // a student needs another tutor (this one can no longer be booked).
            isTutor ? 'The time is free again in your schedule.' : 'You can find another tutor on the site.',
          ],
        };
      if (extra.byTeam)
        return {
          subject: `Lesson cancelled: ${what} with ${other}`,
          lines: [
            `Your ${what} with ${other} on ${when} was cancelled by the ${PRODUCT_NAME} team.`,
            ...(extra.reason ? [`Reason given: ${extra.reason}`] : []),
            isTutor
              ? 'The time is free again in your schedule.'
              : `Anything held from your wallet for it is back in your wallet. You can book another time on ${other}'s page.`,
          ],
        };
      if (extra.refunded)
        return {
          subject: `Lesson cancelled: ${what} with ${other}`,
          lines: [
            `Your ${what} with ${other} on ${when} was cancelled by the ${PRODUCT_NAME} team, and its price was refunded to the student's wallet.`,
            ...(extra.reason ? [`Reason given: ${extra.reason}`] : []),
          ],
        };
      const byReader = extra.cancelledBy === reader.id;
      return {
        subject: `Lesson cancelled: ${what} with ${other}`,
        lines: [
          byReader
            ? `You cancelled your ${what} with ${other} on ${when}.`
            : `${other} cancelled your ${what} on ${when}.`,
          ...(extra.reason ? [`Reason given: ${extra.reason}`] : []),
          ...(extra.lateFee ? [lateFeeLine(extra.lateFee, isTutor)] : []),
        ],
      };
    }
    case 'rescheduled':
    case 'request-moved': {
      const before = extra.previousStart
        ? ` (it was ${lessonTimeLabel(
            extra.previousStart.getTime(),
            extra.previousStart.getTime() + (lesson.end.getTime() - lesson.start.getTime()),
            zoneOf(reader),
          )})`
        : '';
      const lessonWord = event === 'request-moved' ? 'lesson request' : what;
      const invitation =
        event === 'rescheduled' ? ['The invitation attached to this mail updates your calendar.'] : [];
      if (extra.byTeam)
        return {
          subject: `Lesson moved: ${what} with ${other}`,
          lines: [
            `The ${PRODUCT_NAME} team moved your ${lessonWord} with ${other} to ${when}${before}.`,
            ...(extra.reason ? [`Reason given: ${extra.reason}`] : []),
            ...invitation,
          ],
        };
      if (extra.proposalAccepted)
        return {
          subject: `Lesson moved: ${what} with ${other}`,
          lines: [
            isTutor
              ? `${other} accepted the time you proposed: your ${lessonWord} is now on ${when}${before}.`
              : `You accepted ${other}'s proposed time: your ${lessonWord} is now on ${when}${before}.`,
            ...invitation,
          ],
        };
      return {
        subject: `Lesson moved: ${what} with ${other}`,
        lines: [
          isTutor
            ? `${other} moved their ${event === 'request-moved' ? 'lesson request' : what} to ${when}${before}.`
            : `Your ${event === 'request-moved' ? 'lesson request' : what} with ${other} is now on ${when}${before}.`,
          ...invitation,
        ],
      };
    }
    case 'proposed':
    case 'proposal-declined': {
      const proposed = extra.proposed;
      const zone = zoneOf(reader);
      const newWhen = proposed
        ? `${lessonTimeLabel(proposed.start.getTime(), proposed.end.getTime(), zone)} ${timeZoneName(zone, proposed.start.getTime())}`
        : 'another time';
      if (event === 'proposed')
        return {
          subject: `New time proposed: ${what} with ${other}`,
          lines: [
            `${other} proposes moving your ${what} on ${when} to ${newWhen}.`,
            ...(proposed?.note ? [`Their note: ${proposed.note}`] : []),
            'Accept or decline it on your schedule. Until you accept, the lesson stays at its current time; an unanswered proposal lapses when the lesson starts.',
          ],
        };
      return {
        subject: `Proposed time declined: ${what} with ${other}`,
        lines: [`${other} declined the time you proposed (${newWhen}). Your ${what} stays on ${when}.`],
      };
    }
  }
}

/**
 * The mail one participant gets for an event; with `invitation`, the lesson's calendar invitation
 * rides along.
 */
export function lessonMail(
  event: LessonEvent,
  lesson: MailLesson,
  reader: MailPerson,
  settings: MailSettings,
  extra: MailExtra & { invitation?: 'REQUEST' | 'CANCEL' } = {},
): OutgoingMail {
  const { subject, lines: said } = wording(event, lesson, reader, extra);
  // A confirmed lesson's mails say where it takes place: its room, open from 10 minutes before.
  const lines =
    event === 'confirmed' || event === 'rescheduled'
      ? [
          ...said,
          `The lesson takes place in its room, open from 10 minutes before the start: ${settings.appUrl}${roomPath(lesson.id)}`,
        ]
      : said;
  const scheduleUrl = `${settings.appUrl}${paths.schedule}`;
  const greeting = `Hi ${reader.displayName},`;
  const content: MailContent = {
    subject: `${subject} (${PRODUCT_NAME})`,
    text: `${greeting}\n\n${lines.join('\n\n')}\n\nYour schedule: ${scheduleUrl}\n`,
    html: layout(subject, [greeting, ...lines].map(escapeHtml), {
      label: 'Open my schedule',
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
            content: lessonInvitation(lesson, extra.invitation, settings),
          },
        }
      : {}),
  };
}
