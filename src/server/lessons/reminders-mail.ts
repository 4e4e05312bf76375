/**
 * The reminder mail one person of a lesson gets, worded in their own zone as the other lesson mails
 * are: when it starts, with whom, in what subject, and the link to its room.
 */
import { PRODUCT_NAME } from '../../shared/constants';
import {
  addDays,
  clockLabel,
  lessonTimeLabel,
  localDate,
  shortDayLabel,
} from '../../shared/lessons/lesson-times';
import { paths, roomPath } from '../../shared/routes';
import { timeZoneName } from '../../shared/time-zone-name';
import { escapeHtml } from '../mail/html';
import { layout } from '../mail/mail-templates';
import type { OutgoingMail } from '../mail/mailer';
import type { MailLesson, MailPerson, MailSettings } from './lesson-mail';
import type { ReminderKind } from './reminders-rules';

/**
 * "today at 10:00", "tomorrow at 10:00", "on Tue, Dec 1 at 10:00": the day said from where the
 * reader is when the mail is written, in their zone, so a reminder sent at 23:30 for a lesson at
 * 00:30 says "tomorrow".
 */
export function startsWhen(start: number, now: number, zone: string): string {
  const day = localDate(start, zone);
  const today = localDate(now, zone);
  const clock = clockLabel(start, zone);
  if (day === today) return `today at ${clock}`;
  if (day === addDays(today, 1)) return `tomorrow at ${clock}`;
  return `on ${shortDayLabel(start, zone)} at ${clock}`;
}

export function reminderMail(
  kind: ReminderKind,
  lesson: MailLesson,
  reader: MailPerson,
  settings: MailSettings,
  now: number,
): OutgoingMail {
  // A reader who never saved a zone reads UTC, named as such, as in the other lesson mails.
  const zone = reader.timeZone ?? 'UTC';
  const other = reader.id === lesson.tutor.id ? lesson.student : lesson.tutor;
  const start = lesson.start.getTime();
  const when = startsWhen(start, now, zone);
  const subject = `Reminder: ${lesson.subject} with ${other.displayName} ${when}`;
  const roomUrl = `${settings.appUrl}${roomPath(lesson.id)}`;
  const profileUrl = `${settings.appUrl}${paths.profile}`;
  const lines = [
    `Your ${lesson.subject} lesson with ${other.displayName} starts ${kind === 'hour' ? 'soon' : when}: ${lessonTimeLabel(start, lesson.end.getTime(), zone)} ${timeZoneName(zone, start)}.`,
    `The lesson takes place in its room, open from 10 minutes before the start: ${roomUrl}`,
    `You can turn lesson reminders off on your profile: ${profileUrl}`,
  ];
  const greeting = `Hi ${reader.displayName},`;
  return {
    to: reader.email,
    subject: `${subject} (${PRODUCT_NAME})`,
    text: `${greeting}\n\n${lines.join('\n\n')}\n`,
    html: layout(subject, [greeting, ...lines].map(escapeHtml), {
      label: 'Open the lesson room',
      url: roomUrl,
    }),
  };
}
