/**
 * Dates and times on every page, in the page's language (it decides the order and the words) on the 24-hour clock the whole site uses: the one way a page shows a
 * moment. Each takes the zone to show it in (the person's own: zoneOf on the server, or
 * browserTimeZone()).
 */
import { formatLocale } from '../../shared/format-locale';
import { timeLabels } from '../../shared/time-labels';

const inReadersLocale = timeLabels(formatLocale);

export const clockLabel = inReadersLocale.clock;
export const dayLabel = inReadersLocale.day;
export const shortDayLabel = inReadersLocale.shortDay;
export const weekdayLabel = inReadersLocale.weekday;
export const monthDayLabel = inReadersLocale.monthDay;
export const dateLabel = inReadersLocale.date;
export const monthLabel = inReadersLocale.month;
export const dateTimeLabel = inReadersLocale.dateTime;
export const instantLabel = inReadersLocale.instant;
export const lessonTimeLabel = inReadersLocale.lessonTime;

/** "December 1, 2026": a calendar date ("YYYY-MM-DD") as words, the same in every zone. */
export const calendarDateLabel = (date: string) => dateLabel(Date.parse(`${date}T12:00:00Z`), 'UTC');

/** "Tuesday, December 1, 2026": a calendar date with its weekday, the same in every zone. */
export const calendarDayLabel = (date: string) => dayLabel(Date.parse(`${date}T12:00:00Z`), 'UTC');
