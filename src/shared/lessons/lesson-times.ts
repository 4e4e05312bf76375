/**
 * Lesson times as people read them, in a given IANA zone: the same words in the browser and in
 * mails. Intl does the formatting and Temporal the calendar arithmetic; no offset is computed by
 * hand.
 */
import { Temporal } from 'temporal-polyfill';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', { timeZone, ...options });
    formatters.set(key, found);
  }
  return found;
}

/** "09:00": the 24-hour clock time of an instant in a zone. */
export function clockLabel(at: number, timeZone: string): string {
  return formatter(timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

/** "Tuesday, December 1, 2026". */
export function dayLabel(at: number, timeZone: string): string {
  return formatter(timeZone, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(at);
}

/** "Tue, Dec 1". */
export function shortDayLabel(at: number, timeZone: string): string {
  return formatter(timeZone, { weekday: 'short', month: 'short', day: 'numeric' }).format(at);
}

/** "Dec 1". */
export function monthDayLabel(at: number, timeZone: string): string {
  return formatter(timeZone, { month: 'short', day: 'numeric' }).format(at);
}

/** "Tuesday, December 1, 2026, 09:00": an instant in one zone. */
export function instantLabel(at: number, timeZone: string): string {
  return `${dayLabel(at, timeZone)}, ${clockLabel(at, timeZone)}`;
}

/** "Tuesday, December 1, 2026, 09:00–10:00": a lesson's time in one zone. */
export function lessonTimeLabel(start: number, end: number, timeZone: string): string {
  return `${dayLabel(start, timeZone)}, ${clockLabel(start, timeZone)}–${clockLabel(end, timeZone)}`;
}

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

/** Dollars and cents, "$37.50", or "$40" when whole. */
export function priceLabel(amountCents: number, currency = 'USD'): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: amountCents % 100 === 0 ? 0 : 2,
  }).format(amountCents / 100);
}
