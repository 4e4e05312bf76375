/** The availability screen's state: the draft, the body it sends, where a refusal belongs, and the preview. */
import { describe, expect, it } from 'vitest';
import {
  type AvailabilityBody,
  bodyFrom,
  changeDraft,
  controlFor,
  dayControl,
  draftFrom,
  normalized,
  overrideControl,
  windowControl,
} from '../../src/client/features/availability/availability-draft';
import { previewDays } from '../../src/client/features/availability/availability-preview';
import { END_TIMES, START_TIMES, timeChoices } from '../../src/client/features/availability/window-times';

const saved: AvailabilityBody = {
  timeZone: 'Europe/Berlin',
  weekly: [
    { weekday: 3, start: '13:00', end: '24:00' },
    { weekday: 1, start: '09:00', end: '12:00' },
    { weekday: 3, start: '08:00', end: '10:00' },
  ],
  overrides: [
    { date: '2026-12-24', windows: [] },
    { date: '2026-12-20', windows: [{ start: '10:00', end: '11:00' }] },
  ],
  lessonMinutes: [60, 30],
  slotStepMinutes: 30,
  minimumNoticeHours: 12,
  bookingHorizonDays: 60,
  bufferMinutes: 0,
  instantBooking: true,
};

describe('the availability draft', () => {
  it('groups windows by weekday and sends them back in weekday order, each day by start', () => {
    const draft = draftFrom(saved, 'Europe/Berlin', 'USD');
    expect(draft.weekly[3]?.map((window) => window.start)).toEqual(['08:00', '13:00']);
    expect(draft.overrides.map((override) => override.date)).toEqual(['2026-12-20', '2026-12-24']);
    const body = bodyFrom(draft);
    expect(body.weekly).toEqual([
      { weekday: 1, start: '09:00', end: '12:00' },
      { weekday: 3, start: '08:00', end: '10:00' },
      { weekday: 3, start: '13:00', end: '24:00' },
    ]);
    expect(body.lessonMinutes).toEqual([30, 60]);
    expect(normalized(body)).toBe(normalized(saved));
  });

  it('sends a number field that is not a whole number as null, for the server to name', () => {
    const draft = changeDraft(draftFrom(saved, 'UTC', 'USD'), {
      type: 'number',
      setting: 'bufferMinutes',
      text: '1.5',
    });
    expect(JSON.parse(JSON.stringify(bodyFrom(draft))).bufferMinutes).toBeNull();
    const typed = changeDraft(draft, { type: 'number', setting: 'bufferMinutes', text: ' 15 ' });
    expect(bodyFrom(typed).bufferMinutes).toBe(15);
  });

  it('tells a change from the same hours entered in another order or with keys in another order', () => {
    const reordered = {
      ...saved,
      weekly: saved.weekly.map(({ end, start, weekday }) => ({ end, start, weekday })).reverse(),
    };
    expect(normalized(reordered)).toBe(normalized(saved));
    expect(normalized({ ...saved, bufferMinutes: 5 })).not.toBe(normalized(saved));
  });

  it('copies Monday to Tuesday through Friday, and leaves the weekend alone', () => {
    let draft = draftFrom(saved, 'UTC', 'USD');
    draft = changeDraft(draft, { type: 'addWindow', weekday: 6, id: 'sat' });
    draft = changeDraft(draft, { type: 'copyMondayToWeekdays' });
    for (const weekday of [1, 2, 3, 4, 5]) {
      expect(draft.weekly[weekday]?.map(({ start, end }) => `${start}-${end}`)).toEqual(['09:00-12:00']);
    }
    expect(draft.weekly[6]?.map(({ start, end }) => `${start}-${end}`)).toEqual(['09:00-17:00']);
    const ids = [1, 2, 3, 4, 5].map((weekday) => draft.weekly[weekday]?.[0]?.id);
    expect(new Set(ids).size).toBe(5);
  });

  it('adds a window an hour after the last one, a day off, and a date with hours', () => {
    let draft = draftFrom(saved, 'UTC', 'USD');
    draft = changeDraft(draft, { type: 'addWindow', weekday: 1, id: 'new' });
    expect(draft.weekly[1]?.at(-1)).toEqual({ id: 'new', start: '13:00', end: '14:00' });
    draft = changeDraft(draft, {
      type: 'addOverride',
      id: 'o',
      date: '2026-12-22',
      dayOff: false,
      windowId: 'ow',
    });
    expect(draft.overrides.map((override) => override.date)).toEqual([
      '2026-12-20',
      '2026-12-22',
      '2026-12-24',
    ]);
    expect(draft.overrides[1]?.windows).toEqual([{ id: 'ow', start: '09:00', end: '17:00' }]);
    draft = changeDraft(draft, { type: 'changeWindow', id: 'ow', part: 'end', time: '24:00' });
    draft = changeDraft(draft, { type: 'removeWindow', id: 'new' });
    expect(bodyFrom(draft).overrides[1]).toEqual({
      date: '2026-12-22',
      windows: [{ start: '09:00', end: '24:00' }],
    });
    expect(draft.weekly[1]).toHaveLength(1);
  });

  it('offers every quarter hour, 24:00 as an end, and keeps a saved time that is off the quarter hours', () => {
    expect(START_TIMES[0]).toBe('00:00');
    expect(START_TIMES.at(-1)).toBe('23:45');
    expect(END_TIMES.at(-1)).toBe('24:00');
    expect(timeChoices(START_TIMES, '09:10').slice(36, 39)).toEqual(['09:00', '09:10', '09:15']);
  });
});

describe('where a refusal from the server is shown', () => {
  const draft = draftFrom(saved, 'Europe/Berlin', 'USD');
  const [monday] = draft.weekly[1] ?? [];
  const [, wednesdayLate] = draft.weekly[3] ?? [];
  const [december20, december24] = draft.overrides;

  it('finds a window by its place in the list that was sent', () => {
    expect(controlFor('weekly.0.start', draft)).toBe(windowControl(monday?.id ?? '', 'start'));
    expect(controlFor('weekly.2.end', draft)).toBe(windowControl(wednesdayLate?.id ?? '', 'end'));
    // A window whose end is not after its start: shown at its end.
    expect(controlFor('weekly.2', draft)).toBe(windowControl(wednesdayLate?.id ?? '', 'end'));
    const window = december20?.windows[0];
    expect(controlFor('overrides.0.windows.0.start', draft)).toBe(windowControl(window?.id ?? '', 'start'));
    expect(controlFor('overrides.1.date', draft)).toBe(overrideControl(december24?.id ?? ''));
  });

  it('gives a problem with a whole list to the day or the date at fault', () => {
    const overlapping = changeDraft(draft, { type: 'addWindow', weekday: 5, id: 'a' });
    const twice = changeDraft(overlapping, { type: 'addWindow', weekday: 5, id: 'b' });
    const clash = changeDraft(twice, { type: 'changeWindow', id: 'b', part: 'start', time: '10:00' });
    expect(controlFor('weekly', clash)).toBe(dayControl(5));
    expect(controlFor('weekly', draft)).toBe('weekly');
    const dated = {
      ...draft,
      overrides: [...draft.overrides, { id: 'again', date: '2026-12-20', windows: [] }],
    };
    expect(controlFor('overrides', dated)).toBe(overrideControl('again'));
  });

  it('names the settings as they are named, and nothing without a field', () => {
    expect(controlFor('timeZone', draft)).toBe('timeZone');
    expect(controlFor('lessonMinutes.0', draft)).toBe('lessonMinutes');
    expect(controlFor('minimumNoticeHours', draft)).toBe('minimumNoticeHours');
    expect(controlFor(undefined, draft)).toBeUndefined();
  });
});

describe('the preview', () => {
  // Monday, March 23, 2026, 10:00 in Berlin (09:00 UTC); the clocks go forward on Sunday the 29th.
  const now = Date.parse('2026-03-23T09:00:00Z');
  const base = {
    ...saved,
    weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '01:00', end: '04:00' })),
    overrides: [{ date: '2026-03-25', windows: [] }],
    lessonMinutes: [90, 60],
    slotStepMinutes: 60,
    minimumNoticeHours: 0,
  };

  it('lists seven local days from today with their start times in the zone, for the shortest length', () => {
    const preview = previewDays(draftFrom(base, 'Europe/Berlin', 'USD'), [], now);
    expect(preview.minutes).toBe(60);
    expect(preview.days?.map((day) => day.label)).toEqual([
      'Mon, Mar 23',
      'Tue, Mar 24',
      'Wed, Mar 25',
      'Thu, Mar 26',
      'Fri, Mar 27',
      'Sat, Mar 28',
      'Sun, Mar 29',
    ]);
    const times = (i: number) => preview.days?.[i]?.times.map((time) => time.label);
    expect(times(0)).toEqual([]); // 01:00-04:00 has passed
    expect(times(1)).toEqual(['01:00', '02:00', '03:00']);
    expect(times(2)).toEqual([]); // the day off
    // The night the clocks go forward has no 02:00: the window is two hours long.
    expect(times(6)).toEqual(['01:00', '03:00']);
  });

  it('leaves out the planned lessons with their buffer, and what the notice keeps back', () => {
    // Tuesday 02:00-03:00 in Berlin.
    const lesson = { start: Date.parse('2026-03-24T01:00:00Z'), end: Date.parse('2026-03-24T02:00:00Z') };
    const tuesday = (settings: Partial<AvailabilityBody>) =>
      previewDays(
        draftFrom({ ...base, ...settings }, 'Europe/Berlin', 'USD'),
        [lesson],
        now,
      ).days?.[1]?.times.map((time) => time.label);
    expect(tuesday({ bufferMinutes: 0 })).toEqual(['01:00', '03:00']);
    // Half an hour kept free either side of it reaches into both neighbours.
    expect(tuesday({ bufferMinutes: 30 })).toEqual([]);
    // 40 hours from Monday 10:00 is Wednesday 02:00 (a day off anyway): Tuesday is too soon, Thursday is whole.
    const notice = previewDays(
      draftFrom({ ...base, minimumNoticeHours: 40 }, 'Europe/Berlin', 'USD'),
      [],
      now,
    );
    expect(notice.days?.[1]?.times).toEqual([]);
    expect(notice.days?.[3]?.times.map((time) => time.label)).toEqual(['01:00', '02:00', '03:00']);
  });

  it('says what to fix when a setting is not a number it can use', () => {
    const draft = changeDraft(draftFrom(base, 'UTC', 'USD'), {
      type: 'number',
      setting: 'minimumNoticeHours',
      text: '',
    });
    expect(previewDays(draft, [], now).problem).toBe(
      'Enter a minimum notice of 0 to 168 hours to see the times you offer.',
    );
    const none = changeDraft(draftFrom(base, 'UTC', 'USD'), {
      type: 'lessonLength',
      minutes: 60,
      offered: false,
    });
    expect(
      previewDays(changeDraft(none, { type: 'lessonLength', minutes: 90, offered: false }), [], now).problem,
    ).toMatch(/lesson length/);
  });
});
