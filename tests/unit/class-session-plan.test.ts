/** A new class's sessions as the form lays them out: the same wall-clock time in the tutor's zone, week after week. */
import { describe, expect, it } from 'vitest';
import { plannedStarts, weeksOf } from '../../src/client/features/classes/session-plan';

const zone = 'Europe/Berlin';
const berlinClock = (at: number) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    weekday: 'short',
  }).format(at);

describe('a class planned as a weekly course', () => {
  it('keeps 10:00 in the tutor’s zone across the change of the clocks (the instants move by an hour)', () => {
    const plan = plannedStarts({ kind: 'weekly', date: '2027-03-20', time: '10:00', weeks: '3' }, zone);
    if (!('starts' in plan)) throw new Error('no sessions');
    expect(plan.starts.map((start) => new Date(start).toISOString())).toEqual([
      '2027-03-20T09:00:00.000Z',
      '2027-03-27T09:00:00.000Z',
      // Summer time from March 28: the same 10:00 is an hour earlier in UTC.
      '2027-04-03T08:00:00.000Z',
    ]);
    expect(plan.starts.map(berlinClock)).toEqual(['Sat 10:00', 'Sat 10:00', 'Sat 10:00']);
  });

  it('moves a start the clocks skip forward by the gap, that week only', () => {
    const plan = plannedStarts({ kind: 'weekly', date: '2027-03-21', time: '02:30', weeks: '2' }, zone);
    if (!('starts' in plan)) throw new Error('no sessions');
    expect(plan.starts.map(berlinClock)).toEqual(['Sun 02:30', 'Sun 03:30']);
  });

  it('gives one session for a single date, and names the field that keeps the sessions unknown', () => {
    expect(plannedStarts({ kind: 'one', date: '2027-01-05', time: '18:00', weeks: '' }, zone)).toEqual({
      starts: [Date.parse('2027-01-05T17:00:00Z')],
    });
    expect(plannedStarts({ kind: 'one', date: '', time: '18:00', weeks: '' }, zone)).toEqual({
      problem: 'date',
    });
    expect(plannedStarts({ kind: 'one', date: '2027-02-30', time: '18:00', weeks: '' }, zone)).toEqual({
      problem: 'date',
    });
    expect(plannedStarts({ kind: 'weekly', date: '2027-01-05', time: '18:00', weeks: '13' }, zone)).toEqual({
      problem: 'weeks',
    });
    expect([weeksOf('1'), weeksOf('2'), weeksOf('12'), weeksOf('2.5')]).toEqual([null, 2, 12, null]);
  });
});
