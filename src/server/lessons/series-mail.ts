/**
 * The one mail each of a weekly series' people gets when it is booked or answered as a whole:
 * every week in the reader's zone, the weeks skipped, and for a confirmed series one invitation
 * with all its weeks.
 */

import { formatAmount } from '../../shared/amounts';
import { PRODUCT_NAME } from '../../shared/constants';
import { instantLabel, lessonTimeLabel } from '../../shared/lessons/lesson-times';
import { paths } from '../../shared/routes';
import { timeZoneName } from '../../shared/time-zone-name';
import { escapeHtml } from '../mail/html';
import { layout } from '../mail/mail-templates';
import type { OutgoingMail } from '../mail/mailer';
import { invitationOf, type MailLesson, type MailPerson, type MailSettings } from './lesson-invitation';
import { tutorMoneyLine, zoneOf } from './lesson-mail';

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
): OutgoingMail {
  const [first] = lessons;
  if (!first) throw new Error('a series mail needs at least one lesson');
  const zone = zoneOf(reader);
  const isTutor = reader.id === first.tutor.id;
  const other = isTutor ? first.student.displayName : first.tutor.displayName;
  const what = `weekly ${first.subject} lessons`;
  const count = `${lessons.length} ${lessons.length === 1 ? 'lesson' : 'lessons'}`;
  const total = formatAmount(
    lessons.reduce((sum, lesson) => sum + lesson.priceCents, 0),
    first.currency,
  );
  const weeks = lessons.map(
    (lesson) =>
      `- ${lessonTimeLabel(lesson.start.getTime(), lesson.end.getTime(), zone)} ${timeZoneName(zone, lesson.start.getTime())}`,
  );
  const skippedLines = skipped.length
    ? [
        `Not booked, as the time was not free: ${skipped
          .map((start) => instantLabelIn(start, zone))
          .join('; ')}.`,
      ]
    : [];
  const said = (): { subject: string; lines: string[] } => {
    switch (event) {
      case 'requested':
        return {
          subject: `New weekly lesson request from ${other}`,
          lines: [
            `${other} would like ${what} with you, ${count} for ${total} in all:`,
            weeks.join('\n'),
            ...skippedLines,
            ...(first.note ? [`Their note: ${first.note}`] : []),
            'Accept or decline them all at once on your schedule. The request expires in 48 hours, or when a lesson would start if that is sooner.',
          ],
        };
      case 'confirmed':
        return {
          subject: `Weekly lessons confirmed: ${first.subject} with ${other}`,
          lines: [
            `Your ${what} with ${other} are confirmed, ${count}:`,
            weeks.join('\n'),
            ...skippedLines,
            isTutor ? tutorMoneyLine(lessons, true) : `The price is ${total} in all.`,
            'The invitation attached to this mail adds them all to your calendar.',
          ],
        };
      case 'declined':
        return {
          subject: `Weekly lesson request declined: ${first.subject} with ${other}`,
          lines: [
            isTutor
              ? `You declined ${other}'s request for ${what}:`
              : `${other} cannot take your request for ${what}. Anything held from your wallet for them is back in your wallet.`,
            weeks.join('\n'),
          ],
        };
    }
  };
  const { subject, lines } = said();
  const scheduleUrl = `${settings.appUrl}${paths.schedule}`;
  const greeting = `Hi ${reader.displayName},`;
  return {
    to: reader.email,
    subject: `${subject} (${PRODUCT_NAME})`,
    text: `${greeting}\n\n${lines.join('\n\n')}\n\nYour schedule: ${scheduleUrl}\n`,
    html: layout(
      subject,
      [greeting, ...lines].map((line) => escapeHtml(line).replaceAll('\n', '<br>')),
      { label: 'Open my schedule', url: scheduleUrl },
    ),
    ...(event === 'confirmed'
      ? { calendar: { method: 'REQUEST' as const, content: invitationOf(lessons, 'REQUEST', settings) } }
      : {}),
  };
}

const instantLabelIn = (at: Date, zone: string) =>
  `${instantLabel(at.getTime(), zone)} ${timeZoneName(zone, at.getTime())}`;
