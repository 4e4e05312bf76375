/**
 * How a conversation's lines read, in this browser's time zone: a booking change (a line the app
 * wrote, with no sender) says what happened to which lesson and when, and every line's time is
 * as short as it can be while still clear (a clock time today, a weekday this week, a date before).
 */
import { t } from '@lingui/core/macro';
import { localDate, mondayOf } from '../../../shared/lessons/lesson-times';
import { paths } from '../../../shared/routes';
import { translated } from '../../lib/i18n';
import type { MessageView } from '../../lib/live';
import { clockLabel, lessonTimeLabel, shortDayLabel, weekdayLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';

type LessonEvent = NonNullable<MessageView['event']>;

const DAY = 24 * 60 * 60 * 1000;

/** "Lesson confirmed: Algebra, Tuesday, December 1, 2026, 09:00–10:00". */
export function eventText(event: LessonEvent, timeZone = browserTimeZone()): string {
  const when = lessonTimeLabel(Date.parse(event.start), Date.parse(event.end), timeZone);
  const subject = translated(event.subject);
  switch (event.event) {
    case 'requested':
      return t`Lesson requested: ${subject}, ${when}`;
    case 'confirmed':
      return t`Lesson confirmed: ${subject}, ${when}`;
    case 'declined':
      return t`Lesson request declined: ${subject}, ${when}`;
    case 'cancelled':
      return t`Lesson cancelled: ${subject}, ${when}`;
    case 'rescheduled':
      return t`Lesson moved: ${subject}, ${when}`;
    case 'expired':
      return t`Lesson request expired: ${subject}, ${when}`;
  }
}

/** What a line says in the inbox and in the thread. */
export const lineText = (message: MessageView) => (message.event ? eventText(message.event) : message.text);

/** "09:41" today, "Tue" within the week, "Mon, Nov 30" before. */
export function sentLabel(iso: string, now = Date.now(), timeZone = browserTimeZone()): string {
  const at = Date.parse(iso);
  if (localDate(at, timeZone) === localDate(now, timeZone)) return clockLabel(at, timeZone);
  return now - at < 6 * DAY ? weekdayLabel(at, timeZone) : shortDayLabel(at, timeZone);
}

/** The full date and time of a line, for its tooltip and for screen readers. */
export function sentTitle(iso: string, timeZone = browserTimeZone()): string {
  const at = Date.parse(iso);
  const day = shortDayLabel(at, timeZone);
  const time = clockLabel(at, timeZone);
  return t`${day}, ${time}`;
}

/** The /schedule week that holds a lesson. */
export function scheduleWeekOf(start: string, timeZone = browserTimeZone()): string {
  return `${paths.schedule}?week=${mondayOf(localDate(Date.parse(start), timeZone))}`;
}
