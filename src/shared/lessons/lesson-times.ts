/**
 * Lesson times in a given IANA zone: the calendar arithmetic (Temporal; no offset is computed by
 * hand), and the labels the server's mails use, in English. Pages show times in their reader's
 * locale instead (src/client/lib/time-labels.ts); both come from ../time-labels.ts.
 */
import { Temporal } from 'temporal-polyfill';
import { timeLabels } from '../time-labels';

const inEnglish = timeLabels('en-US');

/** "09:00": the 24-hour clock time of an instant in a zone. */
export const clockLabel = inEnglish.clock;

/** "Tuesday, December 1, 2026". */
export const dayLabel = inEnglish.day;

/** "Tue, Dec 1". */
export const shortDayLabel = inEnglish.shortDay;

/** "Tuesday, December 1, 2026, 09:00": an instant in one zone. */
export const instantLabel = inEnglish.instant;

/** "Tuesday, December 1, 2026, 09:00–10:00": a lesson's time in one zone. */
export const lessonTimeLabel = inEnglish.lessonTime;

/** The local date of an instant in a zone, "YYYY-MM-DD". */
export function localDate(at: number, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(timeZone).toPlainDate().toString();
}

/** The instant a local date begins in a zone (its first instant, even on a day that skips midnight). */
export function startOfLocalDay(date: string, timeZone: string): number {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).epochMilliseconds;
}

/** The local date `days` after `date`, "YYYY-MM-DD". */
export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/** The Monday of the week a local date belongs to, "YYYY-MM-DD". */
export function mondayOf(date: string): string {
  const day = Temporal.PlainDate.from(date);
  return day.subtract({ days: day.dayOfWeek - 1 }).toString();
}
