/**
 * A tutor's availability and the lesson times it offers: plain functions, the same on the server
 * (which decides) and in the browser (which previews). Availability is kept in the tutor's IANA
 * time zone: weekly windows per weekday and date overrides keyed by the tutor's local date. The
 * tutor is available at every instant whose wall-clock time in that zone falls inside a window,
 * so on a spring-forward night the missing hour is simply not there and on a fall-back night the
 * repeated hour is there twice. All zone arithmetic goes through Temporal.
 */
import { Temporal } from 'temporal-polyfill';

/** "09:00"; an end of "24:00" means midnight at the end of the day. */
export type ClockTime = string;

export interface TimeWindow {
  start: ClockTime;
  end: ClockTime;
}

export interface WeeklyWindow extends TimeWindow {
  /** 0 = Sunday ... 6 = Saturday. */
  weekday: number;
}

export interface DateOverride {
  /** The tutor's local date, "YYYY-MM-DD". */
  date: string;
  /** They replace that day's weekly windows; none is a day off. */
  windows: TimeWindow[];
}

export interface Availability {
  timeZone: string;
  weekly: WeeklyWindow[];
  overrides: DateOverride[];
}

export interface BookingSettings {
  /** The lesson lengths offered, in minutes. */
  lessonMinutes: number[];
  /** Slots start at a window's start, then every this many minutes of elapsed time. */
  slotStepMinutes: number;
  minimumNoticeHours: number;
  bookingHorizonDays: number;
  /** Kept free before and after every lesson. */
  bufferMinutes: number;
  instantBooking: boolean;
}

/** A half-open interval of instants, in epoch milliseconds: lessons that touch do not overlap. */
export interface Interval {
  start: number;
  end: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Minutes since midnight of a clock time; "24:00" is 1440. */
export function clockMinutes(time: ClockTime): number {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) throw new Error(`Not a clock time: ${time}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

/** Overlapping or touching intervals merged into one, sorted by start. */
export function mergeIntervals(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else merged.push({ ...interval });
  }
  return merged;
}

/** The windows of one local date: its override's, or its weekday's. */
function windowsOn(availability: Availability, date: Temporal.PlainDate): TimeWindow[] {
  const override = availability.overrides.find((entry) => entry.date === date.toString());
  if (override) return override.windows;
  const weekday = date.dayOfWeek % 7; // Temporal: Monday 1 ... Sunday 7
  return availability.weekly.filter((window) => window.weekday === weekday);
}

/**
 * The instants of one local date whose wall-clock time falls in [fromMinute, toMinute) of that
 * date. The day is cut at the zone's transitions; within a piece the offset is constant, so its
 * wall clock runs with elapsed time and the window maps to one interval of that piece.
 */
function instantsOfWindow(
  date: Temporal.PlainDate,
  timeZone: string,
  fromMinute: number,
  toMinute: number,
): Interval[] {
  const dayStart = date.toZonedDateTime({ timeZone });
  const dayEnd = date.add({ days: 1 }).toZonedDateTime({ timeZone });
  const intervals: Interval[] = [];
  let piece = dayStart;
  while (Temporal.ZonedDateTime.compare(piece, dayEnd) < 0) {
    const transition = piece.getTimeZoneTransition('next');
    const pieceEnd =
      transition && Temporal.ZonedDateTime.compare(transition, dayEnd) < 0 ? transition : dayEnd;
    // The wall clock at the piece's start, in minutes since this date's midnight (a fall-back
    // piece starts with minutes already seen; a spring-forward piece skips some).
    const localStart = Math.round(
      piece.toPlainDateTime().since(date.toPlainDateTime(), { largestUnit: 'minutes' }).total('minutes'),
    );
    const length = (pieceEnd.epochMilliseconds - piece.epochMilliseconds) / MINUTE;
    const from = Math.max(fromMinute, localStart);
    const to = Math.min(toMinute, localStart + length);
    if (to > from) {
      intervals.push({
        start: piece.epochMilliseconds + (from - localStart) * MINUTE,
        end: piece.epochMilliseconds + (to - localStart) * MINUTE,
      });
    }
    piece = pieceEnd;
  }
  return intervals;
}

/** When the tutor is available between two instants, as merged intervals of instants. */
export function availableIntervals(availability: Availability, from: number, to: number): Interval[] {
  const timeZone = availability.timeZone;
  // Every local date that can hold an instant of [from, to), one more on each side for safety.
  let date = Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(timeZone).toPlainDate();
  date = date.subtract({ days: 1 });
  const last = Temporal.Instant.fromEpochMilliseconds(to).toZonedDateTimeISO(timeZone).toPlainDate();
  const intervals: Interval[] = [];
  while (Temporal.PlainDate.compare(date, last.add({ days: 1 })) <= 0) {
    for (const window of windowsOn(availability, date)) {
      intervals.push(
        ...instantsOfWindow(date, timeZone, clockMinutes(window.start), clockMinutes(window.end)),
      );
    }
    date = date.add({ days: 1 });
  }
  return mergeIntervals(intervals);
}

export interface SlotQuery {
  availability: Availability;
  settings: BookingSettings;
  minutes: number;
  /** Slots are those starting in [from, to). */
  from: number;
  to: number;
  now: number;
  /** The tutor's pending and confirmed lessons. */
  tutorLessons: Interval[];
  /** The student's own pending and confirmed lessons, when a student asks. */
  studentLessons?: Interval[];
}

/** The lesson times offered, sorted: [start, start + minutes) as epoch milliseconds. */
export function offeredSlots(query: SlotQuery): Interval[] {
  const { settings, minutes, now } = query;
  const length = minutes * MINUTE;
  const step = settings.slotStepMinutes * MINUTE;
  const buffer = settings.bufferMinutes * MINUTE;
  const earliest = Math.max(query.from, now + settings.minimumNoticeHours * HOUR);
  const latest = Math.min(query.to, now + settings.bookingHorizonDays * DAY);
  if (earliest >= latest) return [];
  // A window that begins before the range still gives slots at its own steps inside it, and
  // windows that touch at midnight make one window that may run for days: look back far enough to
  // find its start, or the slots would depend on the range asked for (and a booking, checked by
  // asking for its one instant, would be refused a time the week's list offered). A window the
  // weekly pattern makes crosses at most seven midnights, so it began less than eight days ago;
  // one that runs on longer covers whole days, and is counted from a midnight.
  const windows = availableIntervals(query.availability, earliest - 8 * DAY, latest + DAY);
  const busyForTutor = mergeIntervals(query.tutorLessons);
  const busyForStudent = mergeIntervals(query.studentLessons ?? []);
  const slots: Interval[] = [];
  for (const window of windows) {
    for (let start = window.start; start + length <= window.end; start += step) {
      if (start < earliest || start >= latest) continue;
      const slot = { start, end: start + length };
      const widened = { start: start - buffer, end: slot.end + buffer };
      if (busyForTutor.some((lesson) => overlaps(widened, lesson))) continue;
      if (busyForStudent.some((lesson) => overlaps(slot, lesson))) continue;
      slots.push(slot);
    }
  }
  return slots;
}

/** How long before a lesson it may still be cancelled or rescheduled: more than this. */
export const CHANGE_CUTOFF_MS = DAY;

/** Until when (exclusive) a lesson may be cancelled or rescheduled: 24 hours of elapsed time before it. */
export const changeableUntil = (start: number) => start - CHANGE_CUTOFF_MS;

/** Whether a lesson starting at `start` may still be cancelled or rescheduled at `now`. */
export const canChange = (start: number, now: number) => now < changeableUntil(start);

/** A request expires 48 hours after it was made, or when the lesson would start, whichever comes first. */
export const requestExpiresAt = (requestedAt: number, start: number) =>
  Math.min(requestedAt + 2 * DAY, start);

/** The price of a lesson in cents: the hourly rate (whole dollars) times its length. */
export const lessonPriceCents = (hourlyRate: number, minutes: number) =>
  Math.round((hourlyRate * 100 * minutes) / 60);
