/**
 * The availability form's state while the tutor edits it: windows grouped by weekday and by
 * date, each with an id of its own so a control keeps its name (and its problem) while others
 * are added or removed. Plain functions: the draft from what the API gave, the body the API
 * takes back, each change the screen makes, and where in the form a problem the API names is.
 */

import { decimalString, minorPerUnit } from '../../../shared/amounts';
import { formatLocale } from '../../../shared/format-locale';
import type { Availability, BookingSettings } from '../../../shared/lessons/availability';
import { clockMinutes, type TimeWindow } from '../../../shared/lessons/availability';
import {
  type CancellationWindowHours,
  DEFAULT_CANCELLATION_POLICY,
  type LateCancelFeePercent,
} from '../../../shared/lessons/cancellation-policy';
import {
  DEFAULT_BOOKING_SETTINGS,
  LESSON_LENGTHS,
  type LessonLength,
  SLOT_STEPS,
  type SlotStep,
} from '../../../shared/lessons/lesson-constants';
import type { AvailabilityInput } from '../../../shared/lessons/lesson-schemas';
import type { PackageOffer, PackageSize } from '../../../shared/lessons/packages';
import type { TrialSetting } from '../../../shared/lessons/trials';
import { parseAmountCents } from '../../../shared/money/amounts';
import { clockText, DAY_MINUTES, isClockTime } from './window-times';

/**
 * What GET /api/availability gives (with the zone the form shows), as the server types it. The
 * trial may be missing from a body made here: it is then not offered.
 */
export type AvailabilityBody = Availability &
  BookingSettings & {
    trial?: TrialSetting | undefined;
    cancellationWindowHours?: number | undefined;
    lateCancelFeePercent?: number | undefined;
    packages?: PackageOffer[] | undefined;
  };

/** A package offer as the form holds it: the discount as typed. */
export interface PackageDraft {
  id: string;
  lessons: number;
  minutes: number;
  discount: string;
}

export interface WindowDraft {
  id: string;
  start: string;
  end: string;
}

export interface OverrideDraft {
  id: string;
  /** The tutor's local date, "YYYY-MM-DD". */
  date: string;
  /** None is a day off. */
  windows: WindowDraft[];
}

export interface Draft {
  timeZone: string;
  /** One list per weekday, 0 = Sunday ... 6 = Saturday. */
  weekly: WindowDraft[][];
  overrides: OverrideDraft[];
  lessonMinutes: LessonLength[];
  slotStepMinutes: SlotStep;
  /** The number fields as typed: the server says what is wrong with them. */
  minimumNoticeHours: string;
  bookingHorizonDays: string;
  bufferMinutes: string;
  instantBooking: boolean;
  /** The cancellation policy later bookings keep. */
  cancellationWindowHours: number;
  lateCancelFeePercent: number;
  trialOffered: boolean;
  /** The school's currency, which the trial's price is typed in. */
  currency: string;
  /** The trial's price in whole units and decimals as typed ("0" is free, "12.50"). */
  trialPrice: string;
  /** The lesson packages offered (at most three). */
  packages: PackageDraft[];
}

export type NumberSetting = 'minimumNoticeHours' | 'bookingHorizonDays' | 'bufferMinutes';

/** Weekdays in the order the screen lists them: the week starts on Monday. */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;
const MONDAY = 1;
const WORKDAYS_AFTER_MONDAY = [2, 3, 4, 5];

/** A Sunday (January 4, 2026, noon UTC), from which each weekday's name is taken. */
const A_SUNDAY = Date.UTC(2026, 0, 4, 12);
const DAY_MS = 24 * 60 * 60 * 1000;

/** A weekday's name in the page's language ("Monday", "lunes", "الاثنين"); 0 = Sunday. */
export function weekdayName(weekday: number, width: 'long' | 'short' = 'long'): string {
  return new Intl.DateTimeFormat(formatLocale(), { weekday: width, timeZone: 'UTC' }).format(
    A_SUNDAY + weekday * DAY_MS,
  );
}

let lastId = 0;
/** An id for a new window or override, unique on this page. */
export const newId = () => `w${++lastId}`;

const byStart = (a: TimeWindow, b: TimeWindow) => clockMinutes(a.start) - clockMinutes(b.start);

export function draftFrom(saved: AvailabilityBody, timeZone: string, currency: string): Draft {
  const weekly: WindowDraft[][] = [[], [], [], [], [], [], []];
  for (const window of [...saved.weekly].sort(byStart)) {
    weekly[window.weekday]?.push({ id: newId(), start: window.start, end: window.end });
  }
  return {
    timeZone,
    weekly,
    overrides: [...saved.overrides]
      .sort((a, b) => a.date.localeCompare(b.date))
      .map((override) => ({
        id: newId(),
        date: override.date,
        windows: [...override.windows].sort(byStart).map((window) => ({ id: newId(), ...window })),
      })),
    // The server keeps only lengths and steps the form offers (it checks each save).
    lessonMinutes: LESSON_LENGTHS.filter((minutes) => saved.lessonMinutes.includes(minutes)),
    slotStepMinutes:
      SLOT_STEPS.find((minutes) => minutes === saved.slotStepMinutes) ??
      DEFAULT_BOOKING_SETTINGS.slotStepMinutes,
    minimumNoticeHours: String(saved.minimumNoticeHours),
    bookingHorizonDays: String(saved.bookingHorizonDays),
    bufferMinutes: String(saved.bufferMinutes),
    instantBooking: saved.instantBooking,
    cancellationWindowHours:
      saved.cancellationWindowHours ?? DEFAULT_CANCELLATION_POLICY.cancellationWindowHours,
    lateCancelFeePercent: saved.lateCancelFeePercent ?? DEFAULT_CANCELLATION_POLICY.lateCancelFeePercent,
    trialOffered: saved.trial?.offered ?? false,
    currency,
    trialPrice: priceText(saved.trial?.priceCents ?? 0, currency),
    packages: (saved.packages ?? []).map((offer) => ({
      id: newId(),
      lessons: offer.lessons,
      minutes: offer.minutes,
      discount: String(offer.discountPercent),
    })),
  };
}

/** An amount as the price field shows it: "12" or "12.50" (USD), "1500" (JPY), "4.250" (KWD). */
function priceText(cents: number, currency: string): string {
  const text = decimalString(cents, currency);
  return cents % minorPerUnit(currency) === 0 ? (text.split('.')[0] ?? text) : text;
}

/**
 * A price as typed ("12", "12.5", "$12.50"; "1500" in yen) in the currency's minor unit; anything
 * else is sent as null, which the server refuses with the trial price's own message.
 */
export function centsFrom(text: string, currency: string): number {
  if (/^\s*0+(\.0*)?\s*$/.test(text)) return 0;
  return parseAmountCents(text, currency).cents ?? Number.NaN;
}

/**
 * A number field's value for the API. Anything but digits is sent as null, which the server
 * refuses with the field's own message rather than a guess of ours.
 */
function numberFrom(text: string): number {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

const bare = ({ start, end }: TimeWindow): TimeWindow => ({ start, end });

/**
 * The body for PUT /api/availability. Weekly windows go in weekday order, each day's in the
 * order shown: `controlFor` counts on that order to find the window a problem names.
 */
export function bodyFrom(draft: Draft): AvailabilityInput {
  return {
    timeZone: draft.timeZone,
    weekly: draft.weekly.flatMap((windows, weekday) =>
      windows.map((window) => ({ weekday, ...bare(window) })),
    ),
    overrides: draft.overrides.map((override) => ({
      date: override.date,
      windows: override.windows.map(bare),
    })),
    lessonMinutes: [...draft.lessonMinutes].sort((a, b) => a - b),
    slotStepMinutes: draft.slotStepMinutes,
    minimumNoticeHours: numberFrom(draft.minimumNoticeHours),
    bookingHorizonDays: numberFrom(draft.bookingHorizonDays),
    bufferMinutes: numberFrom(draft.bufferMinutes),
    instantBooking: draft.instantBooking,
    cancellationWindowHours: draft.cancellationWindowHours as CancellationWindowHours,
    lateCancelFeePercent: draft.lateCancelFeePercent as LateCancelFeePercent,
    trial: { offered: draft.trialOffered, priceCents: centsFrom(draft.trialPrice, draft.currency) },
    packages: draft.packages.map((offer) => ({
      lessons: offer.lessons as PackageSize,
      minutes: offer.minutes as LessonLength,
      discountPercent: numberFrom(offer.discount),
    })),
  };
}

/**
 * The same availability whatever order it was entered in, and whatever order its keys come in
 * (the database gives a window's keys sorted): to tell whether anything changed.
 */
export function normalized(body: AvailabilityBody): string {
  const windows = (list: TimeWindow[]) => list.sort(byStart).map((window) => [window.start, window.end]);
  return JSON.stringify([
    body.timeZone,
    [0, 1, 2, 3, 4, 5, 6].map((weekday) =>
      windows(body.weekly.filter((window) => window.weekday === weekday)),
    ),
    [...body.overrides]
      .sort((a, b) => a.date.localeCompare(b.date))
      .map((override) => [override.date, windows([...override.windows])]),
    [...new Set(body.lessonMinutes)].sort((a, b) => a - b),
    body.slotStepMinutes,
    body.minimumNoticeHours,
    body.bookingHorizonDays,
    body.bufferMinutes,
    body.instantBooking,
    body.cancellationWindowHours ?? DEFAULT_CANCELLATION_POLICY.cancellationWindowHours,
    body.lateCancelFeePercent ?? DEFAULT_CANCELLATION_POLICY.lateCancelFeePercent,
    body.trial?.offered ?? false,
    body.trial?.priceCents ?? 0,
    (body.packages ?? []).map((offer) => [offer.lessons, offer.minutes, offer.discountPercent]),
  ]);
}

/** Whether students could book anything at all: some window, weekly or on a date. */
export const hasAnyWindow = (body: AvailabilityBody) =>
  body.weekly.length > 0 || body.overrides.some((override) => override.windows.length > 0);

// ---------------------------------------------------------------------------------------------
// The names of the form's controls, which the form's problems are keyed by.

export const windowControl = (id: string, part: 'start' | 'end') => `window-${id}-${part}`;
export const dayControl = (weekday: number) => `day-${weekday}`;
export const overrideControl = (id: string) => `override-${id}`;

/** Windows of one day that overlap (touching is fine). */
function overlapping(windows: TimeWindow[]): boolean {
  const sorted = windows.filter((window) => isClockTime(window.start) && isClockTime(window.end));
  sorted.sort(byStart);
  return sorted.some(
    (window, i) => i > 0 && clockMinutes(window.start) < clockMinutes(sorted[i - 1]?.end ?? '00:00'),
  );
}

/**
 * The control a problem belongs to, from the field the API names ("weekly.2.end",
 * "overrides.0.windows.1", "timeZone") and the draft that was sent. A problem with a whole
 * window (its end before its start) is shown at its end. A problem the API can only place on
 * the whole list (two windows overlap, a date twice) goes to the day or date at fault.
 */
export function controlFor(field: string | undefined, draft: Draft): string | undefined {
  if (!field) return undefined;
  const [head, ...rest] = field.split('.');
  const index = rest[0] === undefined ? undefined : Number(rest[0]);
  if (head === 'weekly') {
    const sent = draft.weekly.flat();
    const window = index === undefined ? undefined : sent[index];
    if (window) return windowControl(window.id, rest[1] === 'start' ? 'start' : 'end');
    const weekday = draft.weekly.findIndex(overlapping);
    return weekday >= 0 ? dayControl(weekday) : 'weekly';
  }
  if (head === 'overrides') {
    const override = index === undefined ? undefined : draft.overrides[index];
    if (override) {
      const windowIndex = rest[1] === 'windows' && rest[2] !== undefined ? Number(rest[2]) : undefined;
      const window = windowIndex === undefined ? undefined : override.windows[windowIndex];
      if (window) return windowControl(window.id, rest[3] === 'start' ? 'start' : 'end');
      return overrideControl(override.id);
    }
    const seen = new Set<string>();
    const atFault = draft.overrides.find((entry) => {
      const twice = seen.has(entry.date);
      seen.add(entry.date);
      return twice || overlapping(entry.windows);
    });
    return atFault ? overrideControl(atFault.id) : 'overrides';
  }
  return head;
}

/** A new window after a day's last one (an hour's break, an hour long), or 09:00-17:00. */
export function nextWindow(windows: WindowDraft[], id: string): WindowDraft {
  const ends = windows.filter((window) => isClockTime(window.end)).map((window) => clockMinutes(window.end));
  if (ends.length === 0) return { id, start: '09:00', end: '17:00' };
  const start = Math.min(Math.max(...ends) + 60, DAY_MINUTES - 60);
  return { id, start: clockText(start), end: clockText(start + 60) };
}

// ---------------------------------------------------------------------------------------------
// Changes

export type DraftChange =
  | { type: 'timeZone'; timeZone: string }
  | { type: 'addWindow'; weekday: number; id: string }
  | { type: 'addDateWindow'; overrideId: string; id: string }
  | { type: 'changeWindow'; id: string; part: 'start' | 'end'; time: string }
  | { type: 'removeWindow'; id: string }
  | { type: 'copyMondayToWeekdays' }
  | { type: 'addOverride'; id: string; date: string; dayOff: boolean; windowId: string }
  | { type: 'removeOverride'; id: string }
  | { type: 'lessonLength'; minutes: LessonLength; offered: boolean }
  | { type: 'slotStep'; minutes: SlotStep }
  | { type: 'number'; setting: NumberSetting; text: string }
  | { type: 'instantBooking'; instant: boolean }
  | { type: 'cancellationWindowHours'; hours: number }
  | { type: 'lateCancelFeePercent'; percent: number }
  | { type: 'trialOffered'; offered: boolean }
  | { type: 'trialPrice'; text: string }
  | { type: 'addPackage'; id: string; minutes: number }
  | { type: 'removePackage'; id: string }
  | { type: 'changePackage'; id: string; lessons?: number; minutes?: number; discount?: string };

/** Every list of windows (weekly and dated) changed by `change`. */
function everyList(draft: Draft, change: (windows: WindowDraft[]) => WindowDraft[]): Draft {
  return {
    ...draft,
    weekly: draft.weekly.map(change),
    overrides: draft.overrides.map((override) => ({ ...override, windows: change(override.windows) })),
  };
}

export function changeDraft(draft: Draft, change: DraftChange): Draft {
  switch (change.type) {
    case 'timeZone':
      return { ...draft, timeZone: change.timeZone };
    case 'addWindow':
      return {
        ...draft,
        weekly: draft.weekly.map((windows, weekday) =>
          weekday === change.weekday ? [...windows, nextWindow(windows, change.id)] : windows,
        ),
      };
    case 'addDateWindow':
      return {
        ...draft,
        overrides: draft.overrides.map((override) =>
          override.id === change.overrideId
            ? { ...override, windows: [...override.windows, nextWindow(override.windows, change.id)] }
            : override,
        ),
      };
    case 'changeWindow':
      return everyList(draft, (windows) =>
        windows.map((window) =>
          window.id === change.id ? { ...window, [change.part]: change.time } : window,
        ),
      );
    case 'removeWindow':
      return everyList(draft, (windows) => windows.filter((window) => window.id !== change.id));
    case 'copyMondayToWeekdays': {
      const monday = draft.weekly[MONDAY] ?? [];
      return {
        ...draft,
        weekly: draft.weekly.map((windows, weekday) =>
          WORKDAYS_AFTER_MONDAY.includes(weekday)
            ? monday.map((window) => ({ ...window, id: newId() }))
            : windows,
        ),
      };
    }
    case 'addOverride': {
      if (draft.overrides.some((override) => override.date === change.date)) return draft;
      const override: OverrideDraft = {
        id: change.id,
        date: change.date,
        windows: change.dayOff ? [] : [nextWindow([], change.windowId)],
      };
      return {
        ...draft,
        overrides: [...draft.overrides, override].sort((a, b) => a.date.localeCompare(b.date)),
      };
    }
    case 'removeOverride':
      return { ...draft, overrides: draft.overrides.filter((override) => override.id !== change.id) };
    case 'lessonLength':
      return {
        ...draft,
        lessonMinutes: change.offered
          ? [...new Set([...draft.lessonMinutes, change.minutes])].sort((a, b) => a - b)
          : draft.lessonMinutes.filter((minutes) => minutes !== change.minutes),
      };
    case 'slotStep':
      return { ...draft, slotStepMinutes: change.minutes };
    case 'number':
      return { ...draft, [change.setting]: change.text };
    case 'instantBooking':
      return { ...draft, instantBooking: change.instant };
    case 'cancellationWindowHours':
      return { ...draft, cancellationWindowHours: change.hours };
    case 'lateCancelFeePercent':
      return { ...draft, lateCancelFeePercent: change.percent };
    case 'trialOffered':
      return { ...draft, trialOffered: change.offered };
    case 'trialPrice':
      return { ...draft, trialPrice: change.text };
    case 'addPackage':
      return {
        ...draft,
        packages: [
          ...draft.packages,
          { id: change.id, lessons: 10, minutes: change.minutes, discount: '10' },
        ],
      };
    case 'removePackage':
      return { ...draft, packages: draft.packages.filter((offer) => offer.id !== change.id) };
    case 'changePackage': {
      const { type: _type, id, ...fields } = change;
      const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      return {
        ...draft,
        packages: draft.packages.map((offer) => (offer.id === id ? { ...offer, ...defined } : offer)),
      };
    }
  }
}
