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

/** Why a date override is refused when its date is before the tutor's today. */
/** Why a date override is refused, `{date}` its date (YYYY-MM-DD). */
export const datePassedMessage = /*i18n*/ '{date} has passed: choose today or a later date';

/**
 * The date overrides a save keeps, given the tutor's local date today ("YYYY-MM-DD") and the
 * dates saved before: one dated before today no longer changes anything, so one saved before is
 * dropped without a word (a page left open past midnight still saves), while a new one is a
 * mistake, refused by its place in the list.
 */
export function overridesFromToday(
  overrides: DateOverride[],
  today: string,
  savedDates: ReadonlySet<string>,
): { kept: DateOverride[]; passed?: undefined } | { passed: number; kept?: undefined } {
  const passed = overrides.findIndex((override) => override.date < today && !savedDates.has(override.date));
  if (passed >= 0) return { passed };
  return { kept: overrides.filter((override) => override.date >= today) };
}

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

/** The windows of one local date ("YYYY-MM-DD", weekday 0 = Sunday): its override's, or its weekday's. */
function windowsOn(
  availability: Availability,
  overrides: ReadonlyMap<string, TimeWindow[]>,
  date: string,
  weekday: number,
): TimeWindow[] {
  return overrides.get(date) ?? availability.weekly.filter((window) => window.weekday === weekday);
}

/**
 * One stretch of a local date during which the zone's offset does not change, so its wall clock
 * runs with elapsed time: `localStart` is the wall clock at `start`, in minutes since the date's
 * midnight (a fall-back piece starts with minutes already seen; a spring-forward piece skips some).
 */
interface DayPiece {
  start: number;
  end: number;
  localStart: number;
}

/** Minutes from `date`'s midnight to the wall clock of `at`. */
const wallMinutes = (at: Temporal.ZonedDateTime, date: Temporal.PlainDate) =>
  Math.round(at.toPlainDateTime().since(date.toPlainDateTime(), { largestUnit: 'minutes' }).total('minutes'));

/** A local date cut at the zone's transitions (`transitions`: the range's, in epoch ms). */
function piecesOfDay(
  date: Temporal.PlainDate,
  dayStart: Temporal.ZonedDateTime,
  dayEnd: number,
  transitions: number[],
  timeZone: string,
): DayPiece[] {
  const cuts = transitions.filter((at) => at > dayStart.epochMilliseconds && at < dayEnd);
  const starts = [dayStart.epochMilliseconds, ...cuts];
  return starts.map((start, i) => ({
    start,
    end: starts[i + 1] ?? dayEnd,
    localStart:
      i === 0
        ? wallMinutes(dayStart, date)
        : wallMinutes(Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(timeZone), date),
  }));
}

/** The instants of a day whose wall-clock time falls in [fromMinute, toMinute) of that day. */
function instantsOfWindow(pieces: DayPiece[], fromMinute: number, toMinute: number): Interval[] {
  const intervals: Interval[] = [];
  for (const piece of pieces) {
    const length = (piece.end - piece.start) / MINUTE;
    const from = Math.max(fromMinute, piece.localStart);
    const to = Math.min(toMinute, piece.localStart + length);
    if (to > from) {
      intervals.push({
        start: piece.start + (from - piece.localStart) * MINUTE,
        end: piece.start + (to - piece.localStart) * MINUTE,
      });
    }
  }
  return intervals;
}

/** The zone's transitions (offset changes) between two instants, in epoch milliseconds. */
function transitionsBetween(from: Temporal.ZonedDateTime, to: number): number[] {
  const found: number[] = [];
  let next = from.getTimeZoneTransition('next');
  while (next && next.epochMilliseconds < to) {
    found.push(next.epochMilliseconds);
    next = next.getTimeZoneTransition('next');
  }
  return found;
}

/**
 * When the tutor is available between two instants, as merged intervals of instants.
 *
 * A day's start is worked out by Temporal only near one of the zone's transitions: elsewhere the
 * offset is the same as the day before, so the next midnight is exactly 24 hours on and the wall
 * clock runs from 00:00. A month of slots is some forty days; asking Temporal about each of them
 * cost more than everything else the slots take together.
 */
export function availableIntervals(availability: Availability, from: number, to: number): Interval[] {
  const timeZone = availability.timeZone;
  // Every local date that can hold an instant of [from, to), one more on each side for safety.
  const date = Temporal.Instant.fromEpochMilliseconds(from)
    .toZonedDateTimeISO(timeZone)
    .toPlainDate()
    .subtract({ days: 1 });
  const last = Temporal.Instant.fromEpochMilliseconds(to)
    .toZonedDateTimeISO(timeZone)
    .toPlainDate()
    .add({ days: 1 });
  const dayStart = date.toZonedDateTime({ timeZone });
  const end = last.add({ days: 1 }).toZonedDateTime({ timeZone }).epochMilliseconds;
  // Looked up once for the whole range: a zone changes its offset a few times a year at most. From
  // two days before its first midnight, which may itself be one (a day that starts at 01:00).
  const transitions = transitionsBetween(dayStart.subtract({ days: 2 }), end);
  const overrides = new Map(availability.overrides.map((entry) => [entry.date, entry.windows]));
  // Dates as plain numbers from here: days since 1970-01-01 in the proleptic calendar.
  const lastDay = last.toPlainDateTime().toZonedDateTime('UTC').epochMilliseconds / DAY;
  let day = date.toPlainDateTime().toZonedDateTime('UTC').epochMilliseconds / DAY;
  let start = dayStart.epochMilliseconds;
  let zoned: Temporal.ZonedDateTime | null = dayStart;
  const intervals: Interval[] = [];
  for (; day <= lastDay; day++) {
    // A transition within two days of this midnight: let Temporal find the next one (and, below,
    // cut the day at it); otherwise the offset holds and the next midnight is a day on.
    const near = transitions.some((at) => at > start - 2 * DAY && at < start + 2 * DAY);
    const next = near ? Temporal.PlainDate.from(isoDate(day + 1)).toZonedDateTime({ timeZone }) : null;
    const nextStart = next ? next.epochMilliseconds : start + DAY;
    const dateText = isoDate(day);
    const windows = windowsOn(availability, overrides, dateText, (((day + 4) % 7) + 7) % 7);
    if (windows.length > 0) {
      let pieces: DayPiece[] = [{ start, end: nextStart, localStart: 0 }];
      if (near) {
        const plainDate = Temporal.PlainDate.from(dateText);
        pieces = piecesOfDay(
          plainDate,
          zoned ?? plainDate.toZonedDateTime({ timeZone }),
          nextStart,
          transitions,
          timeZone,
        );
      }
      for (const window of windows)
        intervals.push(...instantsOfWindow(pieces, clockMinutes(window.start), clockMinutes(window.end)));
    }
    start = nextStart;
    zoned = next;
  }
  return mergeIntervals(intervals);
}

/** "YYYY-MM-DD" of a day counted from 1970-01-01. */
const isoDate = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

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
  const tutorBusy = busyTimes(query.tutorLessons);
  const studentBusy = busyTimes(query.studentLessons ?? []);
  const slots: Interval[] = [];
  for (const window of windows) {
    // The window's own steps, from the first at or after the earliest start.
    const skipped = Math.max(0, Math.ceil((earliest - window.start) / step));
    for (let start = window.start + skipped * step; start + length <= window.end; start += step) {
      if (start >= latest) break;
      const end = start + length;
      if (tutorBusy.overlaps(start - buffer, end + buffer)) continue;
      if (studentBusy.overlaps(start, end)) continue;
      slots.push({ start, end });
    }
  }
  return slots;
}

/**
 * Busy intervals asked about in order of time, as the slots are: one pass over them for all the
 * slots instead of a search per slot (a month of slots against hundreds of lessons).
 */
function busyTimes(intervals: Interval[]) {
  const busy = mergeIntervals(intervals);
  let next = 0;
  return {
    /** Whether [start, end) overlaps a busy interval; `start` never decreases from one call to the next. */
    overlaps(start: number, end: number): boolean {
      while (next < busy.length && (busy[next] as Interval).end <= start) next++;
      const candidate = busy[next];
      return candidate !== undefined && candidate.start < end;
    },
  };
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
