/** Weekly series: each week at the tutor's wall-clock time, whatever the clocks do in between. */
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { weeklyStarts } from '../../src/shared/lessons/series';

const at = (text: string) => Date.parse(text);
const wallClock = (instant: number, zone: string) =>
  Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone).toPlainTime().toString();

describe('the weeks of a series', () => {
  it('keeps 18:00 in Berlin across the end of summer time, so its UTC time moves an hour', () => {
    // Berlin leaves summer time on 2026-10-25: 18:00 local is 16:00Z before and 17:00Z after.
    const starts = weeklyStarts(at('2026-10-13T16:00:00Z'), 4, 'Europe/Berlin');
    expect(starts.map((start) => new Date(start).toISOString())).toEqual([
      '2026-10-13T16:00:00.000Z',
      '2026-10-20T16:00:00.000Z',
      '2026-10-27T17:00:00.000Z',
      '2026-11-03T17:00:00.000Z',
    ]);
    for (const start of starts) expect(wallClock(start, 'Europe/Berlin')).toBe('18:00:00');
  });

  it('follows the tutor, not the student: a student in New York sees the hour move twice', () => {
    // New York leaves summer time a week after Berlin (2026-11-01), so for one week the gap is 5 hours.
    const starts = weeklyStarts(at('2026-10-20T16:00:00Z'), 3, 'Europe/Berlin');
    expect(starts.map((start) => wallClock(start, 'America/New_York'))).toEqual([
      '12:00:00',
      '13:00:00',
      '12:00:00',
    ]);
    expect(starts.map((start) => wallClock(start, 'Europe/Berlin'))).toEqual([
      '18:00:00',
      '18:00:00',
      '18:00:00',
    ]);
  });

  it('counts every week from the first, so an hour the clocks skip moves only that week', () => {
    // 02:30 does not exist in Berlin on 2027-03-28; the week after is 02:30 again.
    const starts = weeklyStarts(at('2027-03-21T01:30:00Z'), 3, 'Europe/Berlin');
    expect(starts.map((start) => wallClock(start, 'Europe/Berlin'))).toEqual([
      '02:30:00',
      '03:30:00',
      '02:30:00',
    ]);
  });

  it('gives as many weeks as asked, a week apart where the clocks stay', () => {
    const starts = weeklyStarts(at('2030-01-07T09:00:00Z'), 26, 'UTC');
    expect(starts).toHaveLength(26);
    expect(starts[25]).toBe(at('2030-01-07T09:00:00Z') + 25 * 7 * 24 * 60 * 60 * 1000);
  });
});
