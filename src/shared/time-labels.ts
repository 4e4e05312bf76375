/**
 * Dates and times as people read them, in a given IANA zone: the locale decides the order and the
 * words of a date ("Tuesday, December 1, 2026", "Dienstag, 1. Dezember 2026"), and the clock is
 * always the 24-hour one ("09:00", "17:30"). The clock is not left to the locale because a free
 * time is named by its HH:MM start wherever it is shown (booking, schedule, availability, mails),
 * and one page saying "5:30 PM" beside another saying "17:30" is the confusion this avoids.
 * Intl only (no Temporal), so any page may use it.
 */

export interface TimeLabels {
  /** "09:00". */
  clock(at: number, timeZone: string): string;
  /** "Tuesday, December 1, 2026". */
  day(at: number, timeZone: string): string;
  /** "Tue, Dec 1". */
  shortDay(at: number, timeZone: string): string;
  /** "Tue". */
  weekday(at: number, timeZone: string): string;
  /** "Dec 1". */
  monthDay(at: number, timeZone: string): string;
  /** "December 1, 2026". */
  date(at: number, timeZone: string): string;
  /** "December 2026". */
  month(at: number, timeZone: string): string;
  /** "Dec 1, 2026, 09:00": a moment in a list, such as a log's. */
  dateTime(at: number, timeZone: string): string;
  /** "Tuesday, December 1, 2026, 09:00". */
  instant(at: number, timeZone: string): string;
  /** "Tuesday, December 1, 2026, 09:00–10:00": a lesson's time. */
  lessonTime(start: number, end: number, timeZone: string): string;
}

const CLOCK: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/**
 * The labels in `locale`, or in the locale `locale()` answers when each label is made (a page's
 * language, set at start-up after its modules are loaded).
 */
export function timeLabels(locale: string | (() => string)): TimeLabels {
  const formatters = new Map<string, Intl.DateTimeFormat>();
  const format = (at: number, timeZone: string, options: Intl.DateTimeFormatOptions) => {
    const inLocale = typeof locale === 'string' ? locale : locale();
    const key = `${inLocale}|${timeZone}|${JSON.stringify(options)}`;
    let found = formatters.get(key);
    if (!found) {
      found = new Intl.DateTimeFormat(inLocale, { timeZone, ...options });
      formatters.set(key, found);
    }
    return found.format(at);
  };
  const clock = (at: number, timeZone: string) => format(at, timeZone, CLOCK);
  const day = (at: number, timeZone: string) =>
    format(at, timeZone, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
  return {
    clock,
    day,
    shortDay: (at, timeZone) => format(at, timeZone, { weekday: 'short', month: 'short', day: 'numeric' }),
    weekday: (at, timeZone) => format(at, timeZone, { weekday: 'short' }),
    monthDay: (at, timeZone) => format(at, timeZone, { month: 'short', day: 'numeric' }),
    date: (at, timeZone) => format(at, timeZone, { year: 'numeric', month: 'long', day: 'numeric' }),
    month: (at, timeZone) => format(at, timeZone, { year: 'numeric', month: 'long' }),
    dateTime: (at, timeZone) =>
      format(at, timeZone, { year: 'numeric', month: 'short', day: 'numeric', ...CLOCK }),
    instant: (at, timeZone) => `${day(at, timeZone)}, ${clock(at, timeZone)}`,
    lessonTime: (start, end, timeZone) =>
      `${day(start, timeZone)}, ${clock(start, timeZone)}–${clock(end, timeZone)}`,
  };
}
