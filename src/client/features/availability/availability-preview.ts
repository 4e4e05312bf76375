/**
 * The times students could book in the next seven days, computed in the browser from the form as
 * it is now, with the rules the server books by (offeredSlots): notice, horizon and buffer
 * applied, the tutor's planned lessons kept busy, grouped by the tutor's local day. Plain
 * functions, no translation macros (unit tests import them); the panel is preview-panel.tsx.
 */
import { type Interval, offeredSlots } from '../../../shared/lessons/availability';
import {
  MAX_BOOKING_HORIZON_DAYS,
  MAX_BUFFER_MINUTES,
  MAX_MINIMUM_NOTICE_HOURS,
} from '../../../shared/lessons/lesson-constants';
import { addDays, localDate, startOfLocalDay } from '../../../shared/lessons/lesson-times';
import { clockLabel, shortDayLabel } from '../../lib/time-labels';
import { bodyFrom, type Draft } from './availability-draft';

export const PREVIEW_DAYS = 7;

export interface PreviewDay {
  date: string;
  label: string;
  /** Each start as an instant and as HH:MM (a fall-back night shows one clock time twice). */
  times: { start: number; label: string }[];
}

export type Preview =
  | { minutes: number; days: PreviewDay[]; problem?: undefined }
  | { problem: string; minutes?: undefined; days?: undefined };

function wholeNumberIn(text: string, min: number, max: number): number | undefined {
  if (!/^\s*\d+\s*$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

/** A text marked for translation with its values: the page passes `translated`. */
type Say = (text: string, values?: Record<string, unknown>) => string;

/** The English text with its values filled in (no catalogue: plain functions and their tests). */
const inEnglish: Say = (text, values = {}) =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

/**
 * The next seven local days from `now` in the draft's zone, with the times each offers; a
 * problem said through `say` (the page's language on the page).
 */
export function previewDays(draft: Draft, busy: Interval[], now: number, say: Say = inEnglish): Preview {
  const minutes = Math.min(...draft.lessonMinutes);
  if (!Number.isFinite(minutes)) {
    return { problem: say(/*i18n*/ 'Choose a lesson length to see the times you offer.') };
  }
  const minimumNoticeHours = wholeNumberIn(draft.minimumNoticeHours, 0, MAX_MINIMUM_NOTICE_HOURS);
  if (minimumNoticeHours === undefined) {
    return {
      problem: say(/*i18n*/ 'Enter a minimum notice of 0 to {max} hours to see the times you offer.', {
        max: MAX_MINIMUM_NOTICE_HOURS,
      }),
    };
  }
  const bookingHorizonDays = wholeNumberIn(draft.bookingHorizonDays, 1, MAX_BOOKING_HORIZON_DAYS);
  if (bookingHorizonDays === undefined) {
    return {
      problem: say(/*i18n*/ 'Enter a booking horizon of 1 to {max} days to see the times you offer.', {
        max: MAX_BOOKING_HORIZON_DAYS,
      }),
    };
  }
  const bufferMinutes = wholeNumberIn(draft.bufferMinutes, 0, MAX_BUFFER_MINUTES);
  if (bufferMinutes === undefined) {
    return {
      problem: say(/*i18n*/ 'Enter a buffer of 0 to {max} minutes to see the times you offer.', {
        max: MAX_BUFFER_MINUTES,
      }),
    };
  }
  const body = bodyFrom(draft);
  const timeZone = draft.timeZone;
  const today = localDate(now, timeZone);
  const dates = Array.from({ length: PREVIEW_DAYS }, (_, i) => addDays(today, i));
  const slots = offeredSlots({
    availability: { timeZone, weekly: body.weekly, overrides: body.overrides },
    settings: {
      lessonMinutes: draft.lessonMinutes,
      slotStepMinutes: draft.slotStepMinutes,
      minimumNoticeHours,
      bookingHorizonDays,
      bufferMinutes,
      instantBooking: draft.instantBooking,
    },
    minutes,
    from: startOfLocalDay(today, timeZone),
    to: startOfLocalDay(addDays(today, PREVIEW_DAYS), timeZone),
    now,
    tutorLessons: busy,
  });
  const byDate = new Map<string, PreviewDay['times']>(dates.map((date) => [date, []]));
  for (const slot of slots) {
    byDate
      .get(localDate(slot.start, timeZone))
      ?.push({ start: slot.start, label: clockLabel(slot.start, timeZone) });
  }
  return {
    minutes,
    days: dates.map((date) => ({
      date,
      // Noon of that date in the zone: a day whose midnight is skipped still has a noon.
      label: shortDayLabel(startOfLocalDay(date, timeZone) + 12 * 60 * 60 * 1000, timeZone),
      times: byDate.get(date) ?? [],
    })),
  };
}
