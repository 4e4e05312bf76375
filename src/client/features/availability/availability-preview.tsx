/**
 * The times students could book in the next seven days, computed in the browser from the form as
 * it is now, with the rules the server books by (offeredSlots): notice, horizon and buffer
 * applied, the tutor's planned lessons kept busy. Grouped by the tutor's local day; folded on a
 * phone, it says how many times there are.
 */
import { useDeferredValue, useEffect, useState } from 'react';
import { type Interval, offeredSlots } from '../../../shared/lessons/availability';
import {
  MAX_BOOKING_HORIZON_DAYS,
  MAX_BUFFER_MINUTES,
  MAX_MINIMUM_NOTICE_HOURS,
} from '../../../shared/lessons/lesson-constants';
import { addDays, localDate, startOfLocalDay } from '../../../shared/lessons/lesson-times';
import { FoldingSection } from '../../components/fold';
import { clockLabel, shortDayLabel } from '../../lib/time-labels';
import { describeTimeZone } from '../../lib/time-zones';
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

/** The next seven local days from `now` in the draft's zone, with the times each offers. */
export function previewDays(draft: Draft, busy: Interval[], now: number): Preview {
  const minutes = Math.min(...draft.lessonMinutes);
  if (!Number.isFinite(minutes)) return { problem: 'Choose a lesson length to see the times you offer.' };
  const minimumNoticeHours = wholeNumberIn(draft.minimumNoticeHours, 0, MAX_MINIMUM_NOTICE_HOURS);
  if (minimumNoticeHours === undefined) {
    return {
      problem: `Enter a minimum notice of 0 to ${MAX_MINIMUM_NOTICE_HOURS} hours to see the times you offer.`,
    };
  }
  const bookingHorizonDays = wholeNumberIn(draft.bookingHorizonDays, 1, MAX_BOOKING_HORIZON_DAYS);
  if (bookingHorizonDays === undefined) {
    return {
      problem: `Enter a booking horizon of 1 to ${MAX_BOOKING_HORIZON_DAYS} days to see the times you offer.`,
    };
  }
  const bufferMinutes = wholeNumberIn(draft.bufferMinutes, 0, MAX_BUFFER_MINUTES);
  if (bufferMinutes === undefined) {
    return { problem: `Enter a buffer of 0 to ${MAX_BUFFER_MINUTES} minutes to see the times you offer.` };
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

const MINUTE = 60_000;

/** The time now, moved on every minute: slots inside the notice drop out as it passes. */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), MINUTE);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function AvailabilityPreview({ draft, busy }: { draft: Draft; busy: Interval[] }) {
  const now = useNow();
  // Typing stays quick on a slow phone: the preview may lag a keystroke behind.
  const shown = useDeferredValue(draft);
  const preview = previewDays(shown, busy, now);
  const zone = describeTimeZone(shown.timeZone);
  const days = preview.days ?? [];
  const total = days.reduce((sum, day) => sum + day.times.length, 0);
  // Folded on a phone, the preview says how many times students could book.
  const summary = preview.problem
    ? preview.problem
    : total === 0
      ? `No times to book in the next ${PREVIEW_DAYS} days.`
      : `${total === 1 ? '1 time' : `${total} times`} students could book in the next ${PREVIEW_DAYS} days.`;
  return (
    <FoldingSection
      headingId="preview-heading"
      title={`Preview: the next ${PREVIEW_DAYS} days`}
      summary={summary}
    >
      <p className="mt-1 text-sm text-slate-700">
        {preview.minutes
          ? `The start times students would see for a ${preview.minutes}-minute lesson, as you have set things now. `
          : ''}
        Times are in <span className="font-medium text-slate-900">{zone}</span>.
      </p>
      {busy.length > 0 ? (
        <p className="mt-1 text-sm text-slate-700">
          Times taken by your planned lessons, and the buffer around them, are left out.
        </p>
      ) : null}
      {preview.problem ? (
        <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">{preview.problem}</p>
      ) : (
        <>
          {total === 0 ? (
            <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
              No times to book in the next {PREVIEW_DAYS} days. Add hours, or shorten the minimum notice.
            </p>
          ) : null}
          <ul className="mt-4 space-y-4">
            {days.map((day) => (
              <li key={day.date}>
                <h3 className="text-sm font-semibold text-slate-900">
                  {day.label}
                  <span className="font-normal text-slate-600">
                    {' '}
                    · {day.times.length === 1 ? '1 time' : `${day.times.length} times`}
                  </span>
                </h3>
                {day.times.length > 0 ? (
                  <ul className="mt-1.5 flex flex-wrap gap-1.5">
                    {day.times.map((time) => (
                      <li
                        key={time.start}
                        className="rounded-md bg-brand-50 px-2 py-0.5 font-mono text-sm text-brand-900 tabular-nums"
                      >
                        {time.label}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      )}
    </FoldingSection>
  );
}
