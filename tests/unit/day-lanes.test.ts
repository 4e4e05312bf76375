import { describe, expect, it } from 'vitest';
import { dayLanes } from '../../src/client/features/schedule/day-lanes';

const at = (hours: number, minutes = 0) => (hours * 60 + minutes) * 60_000;
const lesson = (from: number, to: number) => ({ start: from, end: to });

describe('lessons side by side in a day', () => {
  it('gives lessons that do not overlap the whole width, touching ones included', () => {
    expect(dayLanes([lesson(at(9), at(10)), lesson(at(10), at(11)), lesson(at(14), at(14, 30))])).toEqual([
      { lane: 0, lanes: 1 },
      { lane: 0, lanes: 1 },
      { lane: 0, lanes: 1 },
    ]);
  });

  it('puts a lesson booked over a cancelled one beside it', () => {
    expect(dayLanes([lesson(at(10), at(11)), lesson(at(10), at(11))])).toEqual([
      { lane: 0, lanes: 2 },
      { lane: 1, lanes: 2 },
    ]);
  });

  it('shares lanes within a group that overlaps in a chain, and reuses a lane once it is free', () => {
    // 9-11 overlaps 10-12, which overlaps 11-13; 11-13 can take the first lane again.
    const placed = dayLanes([lesson(at(11), at(13)), lesson(at(9), at(11)), lesson(at(10), at(12))]);
    expect(placed).toEqual([
      { lane: 0, lanes: 2 },
      { lane: 0, lanes: 2 },
      { lane: 1, lanes: 2 },
    ]);
  });

  it('counts lanes per group, not per day', () => {
    const placed = dayLanes([
      lesson(at(8), at(9)),
      lesson(at(8), at(9)),
      lesson(at(8, 30), at(9, 30)),
      lesson(at(15), at(16)),
    ]);
    expect(placed.map((p) => p.lanes)).toEqual([3, 3, 3, 1]);
    expect(new Set(placed.slice(0, 3).map((p) => p.lane))).toEqual(new Set([0, 1, 2]));
  });

  it('places nothing for an empty day', () => {
    expect(dayLanes([])).toEqual([]);
  });
});
