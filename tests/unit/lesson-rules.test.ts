/**
 * The scheduling rules (src/shared/lessons/availability.ts) and the availability form's shape
 * (src/shared/lessons/lesson-schemas.ts): which lesson times a tutor offers in their own time zone,
 * through daylight-saving changes, overrides, notice, horizon, buffers and lessons already booked;
 * when a lesson may still be changed, when a request expires, what a lesson costs. Every clock is
 * fixed: "now" is always an instant the test names.
 */
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '../../src/shared/amounts';
import {
  type Availability,
  availableIntervals,
  type BookingSettings,
  canChange,
  changeableUntil,
  type Interval,
  offeredSlots,
  requestExpiresAt,
  type SlotQuery,
  type TimeWindow,
} from '../../src/shared/lessons/availability';
import { lessonPriceCents } from '../../src/shared/lessons/lesson-price';
import { type AvailabilityInput, availabilitySchema } from '../../src/shared/lessons/lesson-schemas';

const HOUR = 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** The one instant of a wall-clock time ("2026-06-15T09:00") in a zone; refuses a time that is missing or repeated there. */
const at = (timeZone: string, local: string) =>
  Temporal.PlainDateTime.from(local).toZonedDateTime(timeZone, { disambiguation: 'reject' })
    .epochMilliseconds;

/** The first or second time a repeated wall-clock time comes round on a fall-back night. */
const firstTime = (timeZone: string, local: string) =>
  Temporal.PlainDateTime.from(local).toZonedDateTime(timeZone, { disambiguation: 'earlier' })
    .epochMilliseconds;
const secondTime = (timeZone: string, local: string) =>
  Temporal.PlainDateTime.from(local).toZonedDateTime(timeZone, { disambiguation: 'later' }).epochMilliseconds;

/** The wall clock of an instant in a zone, "HH:MM". */
const clock = (timeZone: string, ms: number) =>
  Temporal.Instant.fromEpochMilliseconds(ms)
    .toZonedDateTimeISO(timeZone)
    .toPlainTime()
    .toString({ smallestUnit: 'minute' });

/** The first instant of a local date in a zone, and of the date after it. */
const startOfDate = (timeZone: string, date: string) =>
  Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).epochMilliseconds;
const endOfDate = (timeZone: string, date: string) =>
  Temporal.PlainDate.from(date).add({ days: 1 }).toZonedDateTime({ timeZone }).epochMilliseconds;

const asIso = (intervals: Interval[]) => intervals.map((i) => [iso(i.start), iso(i.end)]);
const startsOf = (intervals: Interval[]) => intervals.map((i) => iso(i.start));
const hours = (interval: Interval | undefined) => ((interval?.end ?? 0) - (interval?.start ?? 0)) / HOUR;

const weekly = (weekday: number, start: string, end: string) => ({ weekday, start, end });
const tutor = (
  timeZone: string,
  weeklyWindows: Availability['weekly'],
  overrides: Availability['overrides'] = [],
): Availability => ({ timeZone, weekly: weeklyWindows, overrides });

const booking = (changes: Partial<BookingSettings> = {}): BookingSettings => ({
  lessonMinutes: [30, 45, 60, 90, 120],
  slotStepMinutes: 60,
  minimumNoticeHours: 0,
  bookingHorizonDays: 365,
  bufferMinutes: 0,
  instantBooking: true,
  ...changes,
});

/** The slots a tutor offers on the local dates [firstDate, lastDate], asked for well ahead unless `now` says otherwise. */
function slotsOn(
  availability: Availability,
  dates: { first: string; last?: string },
  options: Partial<Omit<SlotQuery, 'availability' | 'settings'>> & {
    settings?: Partial<BookingSettings>;
  } = {},
): Interval[] {
  const from = startOfDate(availability.timeZone, dates.first);
  const to = endOfDate(availability.timeZone, dates.last ?? dates.first);
  return offeredSlots({
    availability,
    settings: booking(options.settings),
    minutes: options.minutes ?? 60,
    from: options.from ?? from,
    to: options.to ?? to,
    now: options.now ?? from - 7 * 24 * HOUR,
    tutorLessons: options.tutorLessons ?? [],
    ...(options.studentLessons ? { studentLessons: options.studentLessons } : {}),
  });
}

/** The tutor's availability between the first instant of a local date and the last. */
const intervalsOn = (availability: Availability, date: string) =>
  availableIntervals(
    availability,
    startOfDate(availability.timeZone, date),
    endOfDate(availability.timeZone, date),
  );

describe('a tutor with ordinary weekly windows', () => {
  const london = tutor('Europe/London', [weekly(1, '09:00', '12:00')]);
  // 2026-06-15 is a Monday; London keeps summer time (+01:00) all June.

  it('offers lessons from the start of a window, then every step, each ending inside the window', () => {
    expect(startsOf(slotsOn(london, { first: '2026-06-15' }))).toEqual([
      iso(at('Europe/London', '2026-06-15T09:00')),
      iso(at('Europe/London', '2026-06-15T10:00')),
      iso(at('Europe/London', '2026-06-15T11:00')),
    ]);
    expect(
      slotsOn(london, { first: '2026-06-15' }, { minutes: 45, settings: { slotStepMinutes: 30 } }).map(
        (slot) => clock('Europe/London', slot.start),
      ),
    ).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
    expect(
      slotsOn(london, { first: '2026-06-15' }, { minutes: 120, settings: { slotStepMinutes: 15 } }).map(
        (slot) => clock('Europe/London', slot.start),
      ),
    ).toEqual(['09:00', '09:15', '09:30', '09:45', '10:00']);
  });

  it('gives each slot the length chosen', () => {
    const slots = slotsOn(
      london,
      { first: '2026-06-15' },
      { minutes: 90, settings: { slotStepMinutes: 30 } },
    );
    expect(asIso(slots)).toEqual([
      [iso(at('Europe/London', '2026-06-15T09:00')), iso(at('Europe/London', '2026-06-15T10:30'))],
      [iso(at('Europe/London', '2026-06-15T09:30')), iso(at('Europe/London', '2026-06-15T11:00'))],
      [iso(at('Europe/London', '2026-06-15T10:00')), iso(at('Europe/London', '2026-06-15T11:30'))],
      [iso(at('Europe/London', '2026-06-15T10:30')), iso(at('Europe/London', '2026-06-15T12:00'))],
    ]);
  });

  it('counts steps from the window’s own start, not from the hour', () => {
    const odd = tutor('Europe/London', [weekly(1, '09:10', '11:00')]);
    expect(
      slotsOn(odd, { first: '2026-06-15' }, { minutes: 45, settings: { slotStepMinutes: 30 } }).map((slot) =>
        clock('Europe/London', slot.start),
      ),
    ).toEqual(['09:10', '09:40', '10:10']);
  });

  it('offers nothing in a window shorter than the lesson', () => {
    expect(slotsOn(london, { first: '2026-06-15' }, { minutes: 240 })).toEqual([]);
  });

  it('offers nothing on a weekday without windows, and the same windows every week', () => {
    expect(slotsOn(london, { first: '2026-06-16', last: '2026-06-21' })).toEqual([]);
    expect(startsOf(slotsOn(london, { first: '2026-06-15', last: '2026-06-22' }))).toEqual([
      iso(at('Europe/London', '2026-06-15T09:00')),
      iso(at('Europe/London', '2026-06-15T10:00')),
      iso(at('Europe/London', '2026-06-15T11:00')),
      iso(at('Europe/London', '2026-06-22T09:00')),
      iso(at('Europe/London', '2026-06-22T10:00')),
      iso(at('Europe/London', '2026-06-22T11:00')),
    ]);
  });

  it('reads weekday 0 as Sunday and 6 as Saturday in the tutor’s zone', () => {
    const weekend = tutor('Europe/London', [weekly(0, '10:00', '11:00'), weekly(6, '14:00', '15:00')]);
    expect(startsOf(slotsOn(weekend, { first: '2026-06-15', last: '2026-06-21' }))).toEqual([
      iso(at('Europe/London', '2026-06-20T14:00')),
      iso(at('Europe/London', '2026-06-21T10:00')),
    ]);
  });

  it('keeps the grid of a window that began before the range asked for', () => {
    const slots = slotsOn(
      tutor('Europe/London', [weekly(1, '09:10', '13:00')]),
      { first: '2026-06-15' },
      { from: at('Europe/London', '2026-06-15T10:00'), minutes: 30, settings: { slotStepMinutes: 30 } },
    );
    expect(slots.map((slot) => clock('Europe/London', slot.start))).toEqual([
      '10:10',
      '10:40',
      '11:10',
      '11:40',
      '12:10',
    ]);
  });

  it('offers only slots that start inside the range asked for', () => {
    const slots = slotsOn(
      london,
      { first: '2026-06-15' },
      { from: at('Europe/London', '2026-06-15T09:30'), to: at('Europe/London', '2026-06-15T11:00') },
    );
    expect(startsOf(slots)).toEqual([iso(at('Europe/London', '2026-06-15T10:00'))]);
  });
});

describe('a tutor in a zone whose offset is not whole hours', () => {
  it('offers Kolkata’s 09:00 at half past the UTC hour', () => {
    const kolkata = tutor('Asia/Kolkata', [weekly(1, '09:00', '11:00')]);
    expect(
      startsOf(slotsOn(kolkata, { first: '2026-06-15' }, { settings: { slotStepMinutes: 30 } })),
    ).toEqual([
      iso(Date.parse('2026-06-15T09:00+05:30')),
      iso(Date.parse('2026-06-15T09:30+05:30')),
      iso(Date.parse('2026-06-15T10:00+05:30')),
    ]);
    expect(iso(Date.parse('2026-06-15T09:00+05:30'))).toBe('2026-06-15T03:30:00.000Z');
  });

  it('offers Kathmandu’s 09:00 at a quarter past the UTC hour', () => {
    const kathmandu = tutor('Asia/Kathmandu', [weekly(1, '09:00', '11:00')]);
    expect(asIso(slotsOn(kathmandu, { first: '2026-06-15' }, { settings: { slotStepMinutes: 30 } }))).toEqual(
      [
        [iso(Date.parse('2026-06-15T09:00+05:45')), iso(Date.parse('2026-06-15T10:00+05:45'))],
        [iso(Date.parse('2026-06-15T09:30+05:45')), iso(Date.parse('2026-06-15T10:30+05:45'))],
        [iso(Date.parse('2026-06-15T10:00+05:45')), iso(Date.parse('2026-06-15T11:00+05:45'))],
      ],
    );
    expect(iso(Date.parse('2026-06-15T09:00+05:45'))).toBe('2026-06-15T03:15:00.000Z');
  });

  it('finds the tutor’s weekday by the local date, though the UTC date is the day before', () => {
    // Kathmandu's Monday 01:00 is Sunday in UTC.
    const early = tutor('Asia/Kathmandu', [weekly(1, '01:00', '02:00')]);
    const slots = slotsOn(early, { first: '2026-06-14', last: '2026-06-15' });
    expect(startsOf(slots)).toEqual([iso(Date.parse('2026-06-15T01:00+05:45'))]);
    expect(iso(slots[0]?.start ?? 0)).toBe('2026-06-14T19:15:00.000Z');
  });
});

/**
 * The changes of 2026 in three zones. `missing` is the wall-clock hour a spring-forward night
 * skips, `repeated` the hour a fall-back night has twice.
 */
const dstZones = [
  { timeZone: 'America/New_York', spring: '2026-03-08', missing: 2, fall: '2026-11-01', repeated: 1 },
  { timeZone: 'Europe/London', spring: '2026-03-29', missing: 1, fall: '2026-10-25', repeated: 1 },
  { timeZone: 'Australia/Adelaide', spring: '2026-10-04', missing: 2, fall: '2026-04-05', repeated: 2 },
] as const;
const hh = (hour: number, minute = 0) =>
  `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

describe.each(dstZones)('a tutor in $timeZone across the daylight-saving changes', (zone) => {
  const { timeZone, spring, missing, fall, repeated } = zone;
  // All six changes fall on a Sunday: weekly windows on weekday 0 land on the night itself.
  const sunday = (start: string, end: string) => tutor(timeZone, [weekly(0, start, end)]);

  it('changes its clocks on the nights these tests use, once each', () => {
    for (const date of [spring, fall]) {
      expect(Temporal.PlainDate.from(date).dayOfWeek).toBe(7);
      const transition = Temporal.PlainDate.from(date)
        .toZonedDateTime({ timeZone })
        .getTimeZoneTransition('next');
      expect(transition?.toPlainDate().toString()).toBe(date);
    }
    expect(() => at(timeZone, `${spring}T${hh(missing, 30)}`)).toThrow();
    expect(firstTime(timeZone, `${fall}T${hh(repeated, 30)}`)).toBe(
      secondTime(timeZone, `${fall}T${hh(repeated, 30)}`) - HOUR,
    );
  });

  describe('spring forward', () => {
    it('keeps a 09:00-17:00 day at 09:00 to 17:00, eight hours', () => {
      const intervals = intervalsOn(sunday('09:00', '17:00'), spring);
      expect(asIso(intervals)).toEqual([
        [iso(at(timeZone, `${spring}T09:00`)), iso(at(timeZone, `${spring}T17:00`))],
      ]);
      expect(hours(intervals[0])).toBe(8);
      expect(slotsOn(sunday('09:00', '17:00'), { first: spring })).toHaveLength(8);
    });

    it('has no missing hour: a 00:00-05:00 window is four hours, with no lesson starting in the gap', () => {
      const availability = sunday('00:00', '05:00');
      const intervals = intervalsOn(availability, spring);
      expect(intervals).toHaveLength(1);
      expect(hours(intervals[0])).toBe(4);

      const slots = slotsOn(availability, { first: spring });
      const expectedHours = [0, 1, 2, 3, 4].filter((hour) => hour !== missing);
      expect(startsOf(slots)).toEqual(
        expectedHours.map((hour) => iso(at(timeZone, `${spring}T${hh(hour)}`))),
      );
      expect(slots.map((slot) => clock(timeZone, slot.start))).toEqual(expectedHours.map((hour) => hh(hour)));
      for (const slot of slots) expect(slot.end - slot.start).toBe(HOUR);
    });

    it('offers nothing in a window that lies wholly in the missing hour', () => {
      const availability = sunday(hh(missing), hh(missing + 1));
      expect(intervalsOn(availability, spring)).toEqual([]);
      expect(
        slotsOn(availability, { first: spring }, { minutes: 30, settings: { slotStepMinutes: 15 } }),
      ).toEqual([]);
    });

    it('starts a window that opens in the missing hour when the clock reaches the hour after', () => {
      const availability = sunday(hh(missing, 30), hh(missing + 2));
      expect(asIso(intervalsOn(availability, spring))).toEqual([
        [
          iso(at(timeZone, `${spring}T${hh(missing + 1)}`)),
          iso(at(timeZone, `${spring}T${hh(missing + 2)}`)),
        ],
      ]);
    });
  });

  describe('fall back', () => {
    it('keeps a 09:00-17:00 day at 09:00 to 17:00, eight hours', () => {
      const intervals = intervalsOn(sunday('09:00', '17:00'), fall);
      expect(asIso(intervals)).toEqual([
        [iso(at(timeZone, `${fall}T09:00`)), iso(at(timeZone, `${fall}T17:00`))],
      ]);
      expect(hours(intervals[0])).toBe(8);
    });

    it('makes a 00:00-03:00 window four hours of elapsed time', () => {
      const intervals = intervalsOn(sunday('00:00', '03:00'), fall);
      expect(intervals).toHaveLength(1);
      expect(hours(intervals[0])).toBe(4);
      expect(iso(intervals[0]?.start ?? 0)).toBe(iso(at(timeZone, `${fall}T00:00`)));
      expect(iso(intervals[0]?.end ?? 0)).toBe(iso(at(timeZone, `${fall}T03:00`)));
    });

    it('offers the repeated hour twice, at two distinct instants', () => {
      const availability = sunday('00:00', '03:00');
      const slots = slotsOn(availability, { first: fall });
      const times = [0, 1, 2].map((hour) => hh(hour));
      const expected = times.flatMap((time, hour) =>
        hour === repeated
          ? [firstTime(timeZone, `${fall}T${time}`), secondTime(timeZone, `${fall}T${time}`)]
          : [at(timeZone, `${fall}T${time}`)],
      );
      expect(startsOf(slots)).toEqual(expected.map(iso));
      expect(new Set(startsOf(slots)).size).toBe(4);
      expect(slots.map((slot) => clock(timeZone, slot.start))).toEqual(
        times.flatMap((time, hour) => (hour === repeated ? [time, time] : [time])),
      );
    });

    it('steps through the repeated hour in elapsed time', () => {
      const slots = slotsOn(sunday('00:00', '03:00'), { first: fall }, { settings: { slotStepMinutes: 30 } });
      const walls = slots.map((slot) => clock(timeZone, slot.start));
      expect(walls).toHaveLength(7);
      expect(walls.filter((wall) => wall === hh(repeated))).toHaveLength(2);
      for (let i = 1; i < slots.length; i++) {
        expect((slots[i]?.start ?? 0) - (slots[i - 1]?.start ?? 0)).toBe(HOUR / 2);
      }
    });

    it('has a window inside the repeated hour twice', () => {
      const availability = sunday(hh(repeated), hh(repeated + 1));
      const intervals = intervalsOn(availability, fall);
      expect(asIso(intervals)).toEqual([
        [
          iso(firstTime(timeZone, `${fall}T${hh(repeated)}`)),
          iso(at(timeZone, `${fall}T${hh(repeated + 1)}`)),
        ],
      ]);
      expect(hours(intervals[0])).toBe(2);
    });
  });
});

describe('a tutor in a zone that changes its clocks at midnight (America/Santiago)', () => {
  const zone = 'America/Santiago';
  // 2026: Saturday 5 September at 24:00 the clocks go to Sunday 01:00; Sunday 5 April at 00:00
  // they go back to Saturday 23:00.

  it('changes its clocks on the nights these tests use', () => {
    expect(() => at(zone, '2026-09-06T00:30')).toThrow();
    expect(firstTime(zone, '2026-04-04T23:30')).toBe(secondTime(zone, '2026-04-04T23:30') - HOUR);
  });

  it('starts a Sunday with no midnight at 01:00, and joins it to Saturday evening', () => {
    const sunday = tutor(zone, [weekly(0, '00:00', '02:00')]);
    expect(asIso(intervalsOn(sunday, '2026-09-06'))).toEqual([
      [iso(at(zone, '2026-09-06T01:00')), iso(at(zone, '2026-09-06T02:00'))],
    ]);
    const weekend = tutor(zone, [weekly(6, '22:00', '24:00'), weekly(0, '00:00', '02:00')]);
    const slots = slotsOn(weekend, { first: '2026-09-05', last: '2026-09-06' });
    expect(startsOf(slots)).toEqual([
      iso(at(zone, '2026-09-05T22:00')),
      iso(at(zone, '2026-09-05T23:00')),
      iso(at(zone, '2026-09-06T01:00')),
    ]);
  });

  it('has Saturday’s last hour twice when the clocks go back at midnight', () => {
    const weekend = tutor(zone, [weekly(6, '22:00', '24:00'), weekly(0, '00:00', '01:00')]);
    const intervals = intervalsOn(weekend, '2026-04-04');
    expect(asIso(intervals)).toEqual([
      [iso(at(zone, '2026-04-04T22:00')), iso(at(zone, '2026-04-05T01:00'))],
    ]);
    expect(hours(intervals[0])).toBe(4);
    expect(startsOf(slotsOn(weekend, { first: '2026-04-04', last: '2026-04-05' }))).toEqual([
      iso(at(zone, '2026-04-04T22:00')),
      iso(firstTime(zone, '2026-04-04T23:00')),
      iso(secondTime(zone, '2026-04-04T23:00')),
      iso(at(zone, '2026-04-05T00:00')),
    ]);
  });
});

describe('a tutor in a zone whose clocks move half an hour (Australia/Lord_Howe)', () => {
  const zone = 'Australia/Lord_Howe';
  const sunday = (start: string, end: string) => tutor(zone, [weekly(0, start, end)]);

  it('keeps 09:00-17:00 at eight hours on both nights', () => {
    for (const date of ['2026-04-05', '2026-10-04']) {
      expect(hours(intervalsOn(sunday('09:00', '17:00'), date)[0])).toBe(8);
    }
  });

  it('makes 00:00-03:00 three and a half hours when the clocks go back, two and a half when they go forward', () => {
    expect(hours(intervalsOn(sunday('00:00', '03:00'), '2026-04-05')[0])).toBe(3.5);
    expect(hours(intervalsOn(sunday('00:00', '03:00'), '2026-10-04')[0])).toBe(2.5);
    expect(() => at(zone, '2026-10-04T02:15')).toThrow();
  });
});

describe('a tutor available around the clock', () => {
  const always = tutor(
    'America/New_York',
    [0, 1, 2, 3, 4, 5, 6].map((day) => weekly(day, '00:00', '24:00')),
  );

  it('offers every hour on the hour, 23 on the spring-forward day, whatever range is asked for', () => {
    const alone = slotsOn(always, { first: '2026-03-08' });
    expect(alone).toHaveLength(23);
    expect(alone.every((slot) => clock('America/New_York', slot.start).endsWith(':00'))).toBe(true);
    const inWeek = slotsOn(always, { first: '2026-03-02', last: '2026-03-08' }).filter(
      (slot) => slot.start >= startOfDate('America/New_York', '2026-03-08'),
    );
    expect(startsOf(inWeek)).toEqual(startsOf(alone));
  });

  it('offers 25 hours on the fall-back day', () => {
    expect(slotsOn(always, { first: '2026-11-01' })).toHaveLength(25);
  });
});

describe('date overrides', () => {
  it('replace the weekly windows of that date', () => {
    const availability = tutor(
      'Europe/London',
      [weekly(1, '09:00', '12:00')],
      [{ date: '2026-06-15', windows: [{ start: '14:00', end: '15:30' }] }],
    );
    expect(
      startsOf(slotsOn(availability, { first: '2026-06-15' }, { settings: { slotStepMinutes: 30 } })),
    ).toEqual([iso(at('Europe/London', '2026-06-15T14:00')), iso(at('Europe/London', '2026-06-15T14:30'))]);
  });

  it('with no windows make a day off, and only that day', () => {
    const availability = tutor(
      'Europe/London',
      [weekly(1, '09:00', '10:00')],
      [{ date: '2026-06-15', windows: [] }],
    );
    expect(startsOf(slotsOn(availability, { first: '2026-06-08', last: '2026-06-22' }))).toEqual([
      iso(at('Europe/London', '2026-06-08T09:00')),
      iso(at('Europe/London', '2026-06-22T09:00')),
    ]);
  });

  describe('for a tutor in Pacific/Auckland, whose morning is the previous UTC date', () => {
    const windows: TimeWindow[] = [{ start: '09:00', end: '11:00' }];
    // 2026-01-12 is a Monday; Auckland keeps summer time then, so its Monday morning is Sunday in UTC.

    it('remove the tutor’s local date, not the UTC date of the same hours', () => {
      const availability = tutor(
        'Pacific/Auckland',
        [weekly(1, '09:00', '11:00')],
        [{ date: '2026-01-12', windows: [] }],
      );
      expect(slotsOn(availability, { first: '2026-01-12' })).toEqual([]);
      expect(startsOf(slotsOn(availability, { first: '2026-01-19' }))).toEqual([
        iso(at('Pacific/Auckland', '2026-01-19T09:00')),
        iso(at('Pacific/Auckland', '2026-01-19T10:00')),
      ]);
      expect(iso(at('Pacific/Auckland', '2026-01-19T09:00'))).toBe('2026-01-18T20:00:00.000Z');

      // An override on the UTC date (Sunday the 11th) leaves Monday morning alone.
      const sundayOff = tutor(
        'Pacific/Auckland',
        [weekly(1, '09:00', '11:00')],
        [{ date: '2026-01-11', windows: [] }],
      );
      expect(startsOf(slotsOn(sundayOff, { first: '2026-01-12' }))).toEqual([
        iso(at('Pacific/Auckland', '2026-01-12T09:00')),
        iso(at('Pacific/Auckland', '2026-01-12T10:00')),
      ]);
    });

    it('add a day that has no weekly windows, on the tutor’s local date', () => {
      const availability = tutor(
        'Pacific/Auckland',
        [weekly(1, '09:00', '11:00')],
        [{ date: '2026-01-11', windows }],
      );
      expect(startsOf(slotsOn(availability, { first: '2026-01-10', last: '2026-01-11' }))).toEqual([
        iso(at('Pacific/Auckland', '2026-01-11T09:00')),
        iso(at('Pacific/Auckland', '2026-01-11T10:00')),
      ]);
      expect(iso(at('Pacific/Auckland', '2026-01-11T09:00'))).toBe('2026-01-10T20:00:00.000Z');
    });
  });

  describe('for a tutor in America/Los_Angeles, whose evening is the next UTC date', () => {
    // 2026-01-16 is a Friday; Los Angeles' Friday evening is Saturday in UTC.
    const fridayEvenings = [weekly(5, '18:00', '20:00')];

    it('remove the tutor’s Friday evening when the override names Friday', () => {
      const off = tutor('America/Los_Angeles', fridayEvenings, [{ date: '2026-01-16', windows: [] }]);
      expect(slotsOn(off, { first: '2026-01-16', last: '2026-01-17' })).toEqual([]);
    });

    it('leave the Friday evening alone when the override names Saturday', () => {
      const saturdayOff = tutor('America/Los_Angeles', fridayEvenings, [{ date: '2026-01-17', windows: [] }]);
      const slots = slotsOn(saturdayOff, { first: '2026-01-16', last: '2026-01-17' });
      expect(startsOf(slots)).toEqual([
        iso(at('America/Los_Angeles', '2026-01-16T18:00')),
        iso(at('America/Los_Angeles', '2026-01-16T19:00')),
      ]);
      expect(iso(slots[0]?.start ?? 0)).toBe('2026-01-17T02:00:00.000Z');
    });

    it('add a Sunday evening that has no weekly windows', () => {
      const extra = tutor('America/Los_Angeles', fridayEvenings, [
        { date: '2026-01-18', windows: [{ start: '20:00', end: '21:00' }] },
      ]);
      expect(startsOf(slotsOn(extra, { first: '2026-01-18' }))).toEqual([
        iso(at('America/Los_Angeles', '2026-01-18T20:00')),
      ]);
      expect(iso(at('America/Los_Angeles', '2026-01-18T20:00'))).toBe('2026-01-19T04:00:00.000Z');
    });
  });

  it('apply on a daylight-saving night with the night’s own hours', () => {
    const availability = tutor(
      'America/New_York',
      [],
      [{ date: '2026-11-01', windows: [{ start: '00:00', end: '03:00' }] }],
    );
    const intervals = intervalsOn(availability, '2026-11-01');
    expect(hours(intervals[0])).toBe(4);
  });
});

describe('windows that touch', () => {
  it('merge across midnight: Monday 22:00-24:00 and Tuesday 00:00-02:00 give a 90-minute lesson at 23:00', () => {
    const availability = tutor('Europe/Berlin', [weekly(1, '22:00', '24:00'), weekly(2, '00:00', '02:00')]);
    expect(asIso(intervalsOn(availability, '2026-06-15'))).toEqual([
      [iso(at('Europe/Berlin', '2026-06-15T22:00')), iso(at('Europe/Berlin', '2026-06-16T02:00'))],
    ]);
    const slots = slotsOn(availability, { first: '2026-06-15', last: '2026-06-16' }, { minutes: 90 });
    expect(asIso(slots)).toEqual([
      [iso(at('Europe/Berlin', '2026-06-15T22:00')), iso(at('Europe/Berlin', '2026-06-15T23:30'))],
      [iso(at('Europe/Berlin', '2026-06-15T23:00')), iso(at('Europe/Berlin', '2026-06-16T00:30'))],
      [iso(at('Europe/Berlin', '2026-06-16T00:00')), iso(at('Europe/Berlin', '2026-06-16T01:30'))],
    ]);
  });

  it('do not reach across midnight when the next day is overridden to a day off', () => {
    const availability = tutor(
      'Europe/Berlin',
      [weekly(1, '22:00', '24:00'), weekly(2, '00:00', '02:00')],
      [{ date: '2026-06-16', windows: [] }],
    );
    const slots = slotsOn(availability, { first: '2026-06-15', last: '2026-06-16' }, { minutes: 90 });
    expect(startsOf(slots)).toEqual([iso(at('Europe/Berlin', '2026-06-15T22:00'))]);
  });

  it('merge within a day, so a lesson may span both', () => {
    const availability = tutor('Europe/Berlin', [weekly(1, '09:00', '10:00'), weekly(1, '10:00', '11:00')]);
    expect(asIso(slotsOn(availability, { first: '2026-06-15' }, { minutes: 120 }))).toEqual([
      [iso(at('Europe/Berlin', '2026-06-15T09:00')), iso(at('Europe/Berlin', '2026-06-15T11:00'))],
    ]);
  });

  it('that run for days keep the grid of their first start, whatever range is asked for', () => {
    // Monday 23:30 to Thursday 02:00 is one window: its hourly lessons start at half past.
    const availability = tutor('Europe/London', [
      weekly(1, '23:30', '24:00'),
      weekly(2, '00:00', '24:00'),
      weekly(3, '00:00', '24:00'),
      weekly(4, '00:00', '02:00'),
    ]);
    const thursday = [iso(at('Europe/London', '2026-06-18T00:30'))];
    const inWeek = slotsOn(availability, { first: '2026-06-15', last: '2026-06-18' });
    expect(
      startsOf(inWeek).filter((start) => start >= iso(startOfDate('Europe/London', '2026-06-18'))),
    ).toEqual(thursday);
    expect(inWeek.every((slot) => clock('Europe/London', slot.start).endsWith(':30'))).toBe(true);
    expect(startsOf(slotsOn(availability, { first: '2026-06-18' }))).toEqual(thursday);
    // The server checks a booking by asking for that one instant.
    const start = at('Europe/London', '2026-06-18T00:30');
    expect(startsOf(slotsOn(availability, { first: '2026-06-18' }, { from: start, to: start + 1 }))).toEqual(
      thursday,
    );
    // And the grid does not move as the notice runs out.
    expect(
      startsOf(
        slotsOn(availability, { first: '2026-06-18' }, { now: at('Europe/London', '2026-06-17T23:00') }),
      ),
    ).toEqual(thursday);
  });

  it('keep a gap between windows that do not touch', () => {
    const availability = tutor('Europe/Berlin', [weekly(1, '09:00', '10:00'), weekly(1, '10:15', '11:15')]);
    expect(
      slotsOn(availability, { first: '2026-06-15' }, { minutes: 90, settings: { slotStepMinutes: 15 } }),
    ).toEqual([]);
  });
});

describe('minimum notice and booking horizon', () => {
  const weekdays = tutor(
    'Europe/London',
    [1, 2, 3, 4, 5].map((day) => weekly(day, '09:00', '17:00')),
  );

  it('offers a slot that starts exactly the minimum notice from now, and none sooner', () => {
    const now = at('Europe/London', '2026-06-15T08:00');
    const slots = slotsOn(weekdays, { first: '2026-06-15' }, { now, settings: { minimumNoticeHours: 3 } });
    expect(startsOf(slots)).toEqual(
      [11, 12, 13, 14, 15, 16].map((hour) => iso(at('Europe/London', `2026-06-15T${hh(hour)}`))),
    );
  });

  it('keeps the window’s grid when now is between steps', () => {
    const now = at('Europe/London', '2026-06-15T08:07');
    const slots = slotsOn(
      weekdays,
      { first: '2026-06-15' },
      { now, settings: { minimumNoticeHours: 2, slotStepMinutes: 30 } },
    );
    expect(clock('Europe/London', slots[0]?.start ?? 0)).toBe('10:30');
  });

  it('counts the notice in elapsed hours across a spring-forward night', () => {
    // Midnight to 10:00 on 2026-03-08 in New York is nine hours: 10 hours of notice reach 11:00.
    const sundays = tutor('America/New_York', [weekly(0, '09:00', '17:00')]);
    const now = at('America/New_York', '2026-03-08T00:00');
    const slots = slotsOn(sundays, { first: '2026-03-08' }, { now, settings: { minimumNoticeHours: 10 } });
    expect(iso(slots[0]?.start ?? 0)).toBe(iso(at('America/New_York', '2026-03-08T11:00')));
  });

  it('offers nothing beyond the booking horizon', () => {
    const now = at('Europe/London', '2026-06-15T12:10');
    const slots = slotsOn(
      weekdays,
      { first: '2026-06-15', last: '2026-06-19' },
      { now, settings: { bookingHorizonDays: 2, slotStepMinutes: 30 } },
    );
    expect(iso(slots[0]?.start ?? 0)).toBe(iso(at('Europe/London', '2026-06-15T12:30')));
    expect(iso(slots.at(-1)?.start ?? 0)).toBe(iso(at('Europe/London', '2026-06-17T12:00')));
  });

  it('offers nothing when the notice reaches past the horizon or the range', () => {
    const now = at('Europe/London', '2026-06-15T08:00');
    expect(slotsOn(weekdays, { first: '2026-06-15' }, { now, settings: { minimumNoticeHours: 24 } })).toEqual(
      [],
    );
    expect(slotsOn(weekdays, { first: '2026-06-17' }, { now, settings: { bookingHorizonDays: 1 } })).toEqual(
      [],
    );
  });

  it('offers nothing in the past', () => {
    const now = at('Europe/London', '2026-06-16T09:00');
    expect(slotsOn(weekdays, { first: '2026-06-15' }, { now })).toEqual([]);
  });
});

describe('lessons already booked', () => {
  const mondays = tutor('Europe/London', [weekly(1, '08:00', '14:00')]);
  const lesson = (from: string, to: string): Interval => ({
    start: at('Europe/London', `2026-06-15T${from}`),
    end: at('Europe/London', `2026-06-15T${to}`),
  });
  const walls = (slots: Interval[]) => slots.map((slot) => clock('Europe/London', slot.start));

  it('leave the tutor’s buffer free on both sides: 10:00-11:00 with 15 minutes blocks 11:00 but not 11:15', () => {
    const slots = slotsOn(
      mondays,
      { first: '2026-06-15' },
      { tutorLessons: [lesson('10:00', '11:00')], settings: { bufferMinutes: 15, slotStepMinutes: 15 } },
    );
    expect(walls(slots)).toEqual([
      '08:00',
      '08:15',
      '08:30',
      '08:45',
      '11:15',
      '11:30',
      '11:45',
      '12:00',
      '12:15',
      '12:30',
      '12:45',
      '13:00',
    ]);
  });

  it('may touch the tutor’s lessons when there is no buffer', () => {
    const slots = slotsOn(
      mondays,
      { first: '2026-06-15' },
      { tutorLessons: [lesson('10:00', '11:00')], settings: { slotStepMinutes: 15 } },
    );
    expect(walls(slots)).toContain('09:00');
    expect(walls(slots)).toContain('11:00');
    expect(walls(slots).filter((wall) => wall > '09:00' && wall < '11:00')).toEqual([]);
  });

  it('block every slot they overlap, however little', () => {
    const slots = slotsOn(
      mondays,
      { first: '2026-06-15' },
      { minutes: 30, tutorLessons: [lesson('10:01', '10:02')], settings: { slotStepMinutes: 30 } },
    );
    expect(walls(slots)).toEqual([
      '08:00',
      '08:30',
      '09:00',
      '09:30',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
      '13:00',
      '13:30',
    ]);
  });

  it('of the student also block a slot, without the tutor’s buffer', () => {
    const studentLessons = [lesson('12:00', '13:00')];
    const settings = { bufferMinutes: 15 };
    expect(walls(slotsOn(mondays, { first: '2026-06-15' }, { studentLessons, settings }))).toEqual([
      '08:00',
      '09:00',
      '10:00',
      '11:00',
      '13:00',
    ]);
    // Someone not signed in sees the tutor's slots alone.
    expect(walls(slotsOn(mondays, { first: '2026-06-15' }, { settings }))).toEqual([
      '08:00',
      '09:00',
      '10:00',
      '11:00',
      '12:00',
      '13:00',
    ]);
  });

  it('of the tutor and of the student both count', () => {
    const slots = slotsOn(
      mondays,
      { first: '2026-06-15' },
      { tutorLessons: [lesson('08:00', '09:00')], studentLessons: [lesson('12:30', '13:30')] },
    );
    expect(walls(slots)).toEqual(['09:00', '10:00', '11:00']);
  });
});

describe('cancelling and rescheduling', () => {
  const ny = 'America/New_York';

  it('is allowed while more than 24 hours remain, and not at exactly 24', () => {
    const start = at('Europe/London', '2026-06-16T10:00');
    expect(iso(changeableUntil(start))).toBe(iso(at('Europe/London', '2026-06-15T10:00')));
    expect(canChange(start, at('Europe/London', '2026-06-15T09:59'))).toBe(true);
    expect(canChange(start, changeableUntil(start) - 1)).toBe(true);
    expect(canChange(start, changeableUntil(start))).toBe(false);
    expect(canChange(start, start - HOUR)).toBe(false);
    expect(canChange(start, start + HOUR)).toBe(false);
  });

  it('counts 24 elapsed hours across a spring-forward night: 25 hours of wall clock before', () => {
    const start = at(ny, '2026-03-08T10:00');
    expect(iso(changeableUntil(start))).toBe(iso(at(ny, '2026-03-07T09:00')));
    expect(iso(changeableUntil(start))).toBe(iso(Date.parse('2026-03-07T09:00-05:00')));
    // At 10:00 the day before, the wall clock says 24 hours but only 23 remain.
    expect(canChange(start, at(ny, '2026-03-07T10:00'))).toBe(false);
    expect(canChange(start, at(ny, '2026-03-07T08:59'))).toBe(true);
  });

  it('counts 24 elapsed hours across a fall-back night: 23 hours of wall clock before', () => {
    const start = at(ny, '2026-11-01T10:00');
    expect(iso(changeableUntil(start))).toBe(iso(at(ny, '2026-10-31T11:00')));
    expect(iso(changeableUntil(start))).toBe(iso(Date.parse('2026-10-31T11:00-04:00')));
    // At 10:00 the day before, 25 hours remain.
    expect(canChange(start, at(ny, '2026-10-31T10:00'))).toBe(true);
    expect(canChange(start, at(ny, '2026-10-31T11:00'))).toBe(false);
  });

  it('counts 24 elapsed hours for a lesson the day after spring forward', () => {
    const start = at(ny, '2026-03-09T10:00');
    const until = Temporal.Instant.fromEpochMilliseconds(start).subtract({ hours: 24 }).epochMilliseconds;
    expect(iso(changeableUntil(start))).toBe(iso(until));
    expect(clock(ny, changeableUntil(start))).toBe('10:00');
  });
});

describe('a lesson request', () => {
  it('expires 48 hours after it was made when the lesson is later than that', () => {
    const requestedAt = at('Europe/London', '2026-06-15T09:30');
    const start = at('Europe/London', '2026-06-20T10:00');
    expect(iso(requestExpiresAt(requestedAt, start))).toBe(iso(at('Europe/London', '2026-06-17T09:30')));
  });

  it('expires when the lesson would start, if that comes first', () => {
    const requestedAt = at('Europe/London', '2026-06-15T09:30');
    const start = at('Europe/London', '2026-06-16T08:00');
    expect(iso(requestExpiresAt(requestedAt, start))).toBe(iso(start));
  });

  it('waits 48 elapsed hours across a daylight-saving change', () => {
    const requestedAt = at('America/New_York', '2026-03-07T12:00');
    const start = at('America/New_York', '2026-03-20T12:00');
    expect(iso(requestExpiresAt(requestedAt, start))).toBe(iso(at('America/New_York', '2026-03-09T13:00')));
  });
});

describe('the price of a lesson', () => {
  it.each([
    [40, 60, 4000],
    [40, 30, 2000],
    [35, 45, 2625],
    [25, 90, 3750],
    [30, 120, 6000],
    [1, 45, 75],
  ])('at $%i an hour, %i minutes cost %i cents', (rate, minutes, cents) => {
    expect(lessonPriceCents(rate, minutes, 100)).toBe(cents);
  });

  it('prices in the minor unit of a currency without cents, or with three digits', () => {
    // ¥5,000 an hour for 45 minutes is ¥3,750; 10 KWD an hour for 45 minutes is 7.500 KWD.
    expect(lessonPriceCents(5000, 45, 1)).toBe(3750);
    expect(lessonPriceCents(10, 45, 1000)).toBe(7500);
  });

  it("labels a price in its own currency's minor unit: ¥3,000 is 3000, not ¥30", () => {
    expect(formatAmount(3000, 'JPY')).toBe('¥3,000');
    expect(formatAmount(lessonPriceCents(3000, 45, 1), 'JPY')).toBe('¥2,250');
    expect(formatAmount(7500, 'KWD')).toMatch(/^KWD\s7\.500$/);
    expect(formatAmount(12000, 'KWD')).toMatch(/^KWD\s12$/);
    expect(formatAmount(3750, 'USD')).toBe('$37.50');
    expect(formatAmount(4000, 'USD')).toBe('$40');
  });
});

describe('the availability form', () => {
  const valid: AvailabilityInput = {
    timeZone: 'America/New_York',
    weekly: [weekly(1, '09:00', '12:00'), weekly(1, '12:00', '17:00'), weekly(2, '22:00', '24:00')],
    overrides: [{ date: '2026-12-24', windows: [] }],
    lessonMinutes: [60, 30, 60],
    slotStepMinutes: 30,
    minimumNoticeHours: 12,
    bookingHorizonDays: 60,
    bufferMinutes: 10,
    instantBooking: false,
  };
  const problems = (input: unknown) => {
    const result = availabilitySchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((issue) => issue.message);
  };

  it('accepts touching windows, an end of 24:00 and a day off, and lists each length once, shortest first', () => {
    const result = availabilitySchema.safeParse(valid);
    expect(result.error?.issues).toBeUndefined();
    expect(result.data?.lessonMinutes).toEqual([30, 60]);
  });

  it('refuses more than 12 windows in one day, not 12 on each of several days', () => {
    const windowsOf = (weekday: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        weekly(weekday, `${String(i).padStart(2, '0')}:00`, `${String(i).padStart(2, '0')}:30`),
      );
    expect(problems({ ...valid, weekly: windowsOf(4, 13) })).toEqual(['Thursday has more than 12 windows']);
    expect(problems({ ...valid, weekly: [...windowsOf(4, 12), ...windowsOf(5, 12)] })).toEqual([]);
  });

  it('refuses a time zone it does not know', () => {
    expect(problems({ ...valid, timeZone: 'Mars/Olympus_Mons' })).toEqual([
      'Please choose a valid time zone',
    ]);
  });

  it('refuses a window that ends before it starts, or when it starts', () => {
    expect(problems({ ...valid, weekly: [weekly(3, '17:00', '09:00')] })).toEqual([
      'The end of a window must be after its start',
    ]);
    expect(problems({ ...valid, weekly: [weekly(3, '09:00', '09:00')] })).toEqual([
      'The end of a window must be after its start',
    ]);
    expect(
      problems({
        ...valid,
        overrides: [{ date: '2026-12-24', windows: [{ start: '12:00', end: '10:00' }] }],
      }),
    ).toEqual(['The end of a window must be after its start']);
  });

  it('refuses overlapping windows, naming the day and both windows', () => {
    expect(
      problems({ ...valid, weekly: [weekly(1, '09:00', '12:00'), weekly(1, '11:00', '13:00')] }),
    ).toEqual(["Monday's windows 09:00-12:00 and 11:00-13:00 overlap"]);
    expect(
      problems({ ...valid, weekly: [weekly(0, '08:00', '18:00'), weekly(0, '10:00', '11:00')] }),
    ).toEqual(["Sunday's windows 08:00-18:00 and 10:00-11:00 overlap"]);
    expect(
      problems({
        ...valid,
        overrides: [
          {
            date: '2026-12-24',
            windows: [
              { start: '14:00', end: '16:00' },
              { start: '09:00', end: '14:30' },
            ],
          },
        ],
      }),
    ).toEqual(["2026-12-24's windows 09:00-14:30 and 14:00-16:00 overlap"]);
  });

  it('lets the same hours be on different weekdays', () => {
    expect(
      problems({ ...valid, weekly: [weekly(1, '09:00', '12:00'), weekly(2, '09:00', '12:00')] }),
    ).toEqual([]);
  });

  it('refuses lesson lengths other than 30, 45, 60, 90 and 120 minutes, and no length at all', () => {
    expect(problems({ ...valid, lessonMinutes: [60, 50] })).toEqual([
      'Lesson lengths must be among 30, 45, 60, 90, 120 minutes',
    ]);
    expect(problems({ ...valid, lessonMinutes: [] })).toEqual(['Offer at least one lesson length']);
  });

  it('refuses a slot step other than 15, 30 or 60 minutes', () => {
    expect(problems({ ...valid, slotStepMinutes: 20 })).toEqual([
      'Lessons can start every 15, 30, 60 minutes',
    ]);
  });

  it('refuses a time that is not a time of day, without failing', () => {
    expect(problems({ ...valid, weekly: [weekly(1, '24:30', '24:45')] })).toEqual([
      'A start must be a time such as 09:00 (24:00 is midnight)',
      'An end must be a time such as 09:00 (24:00 is midnight)',
    ]);
    expect(problems({ ...valid, weekly: [weekly(1, '9:00', '17:00')] })).toEqual([
      'A start must be a time such as 09:00 (24:00 is midnight)',
    ]);
    expect(
      problems({ ...valid, overrides: [{ date: '2026-12-24', windows: [{ start: '10:00', end: '5pm' }] }] }),
    ).toEqual(['An end must be a time such as 09:00 (24:00 is midnight)']);
    expect(problems({ ...valid, weekly: [weekly(1, '9:00', '12:00'), weekly(1, '10:00', '11:00')] })).toEqual(
      ['A start must be a time such as 09:00 (24:00 is midnight)'],
    );
    expect(
      problems({
        ...valid,
        overrides: [
          {
            date: '2026-12-24',
            windows: [
              { start: '10:00', end: '11:00' },
              { start: '10:30', end: 'noon' },
            ],
          },
        ],
      }),
    ).toEqual(['An end must be a time such as 09:00 (24:00 is midnight)']);
  });

  it('refuses a weekday outside 0 to 6, a date not on the calendar, and a date overridden twice', () => {
    expect(problems({ ...valid, weekly: [weekly(7, '09:00', '10:00')] })).toEqual([
      'A weekday must be a number from 0 (Sunday) to 6 (Saturday)',
    ]);
    expect(problems({ ...valid, overrides: [{ date: '2026-02-30', windows: [] }] })).toEqual([
      'A date must be a real day of the calendar',
    ]);
    expect(
      problems({
        ...valid,
        overrides: [
          { date: '2026-12-24', windows: [] },
          { date: '2026-12-24', windows: [{ start: '09:00', end: '10:00' }] },
        ],
      }),
    ).toEqual(['2026-12-24 is overridden twice']);
  });

  it('refuses a field it does not know', () => {
    expect(problems({ ...valid, colour: 'blue' })).toEqual(['Availability has no such field: colour']);
  });
});
