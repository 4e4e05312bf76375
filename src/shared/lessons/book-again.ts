/**
 * "Book again": the way back to a tutor's page for the same lesson as one that took place, the
 * same length and subject, at the same weekday and wall-clock time in the student's zone, in the
 * first week from now on. The booking box preselects each only when the tutor still offers it.
 */
import { Temporal } from 'temporal-polyfill';
import { tutorPath } from '../routes';

/** The first start after `now` that falls whole weeks after `start`, at its wall-clock time in `timeZone`. */
export function sameTimeNextWeek(start: number, now: number, timeZone: string): number {
  const first = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(timeZone);
  // Counted in the zone's calendar, so a change of clocks in between keeps the lesson's local time.
  const weeks = Math.max(1, Math.ceil((now - start) / (7 * 24 * 60 * 60 * 1000)));
  let next = first.add({ weeks });
  while (next.epochMilliseconds <= now) next = next.add({ weeks: 1 });
  return next.epochMilliseconds;
}

export function bookAgainPath(
  lesson: { tutorId: string; minutes: number; subject: string; start: string },
  now: number,
  timeZone: string,
): string {
  const start = sameTimeNextWeek(Date.parse(lesson.start), now, timeZone);
  const query = new URLSearchParams({
    minutes: String(lesson.minutes),
    subject: lesson.subject,
    start: new Date(start).toISOString(),
  });
  return `${tutorPath(lesson.tutorId)}?${query}`;
}
