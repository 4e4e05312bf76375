/**
 * Side by side, the lessons of one day that overlap in time (a lesson cancelled and another
 * booked in its place, a request beside a confirmed lesson): each gets a lane, and each group of
 * overlapping lessons shares its day's width among as many lanes as it needs. Lessons that only
 * touch (one ends as the next starts) do not overlap.
 */

export interface Placed {
  /** 0 for the leftmost lane. */
  lane: number;
  /** How many lanes the lesson's group of overlapping lessons has. */
  lanes: number;
}

/** The lane of each interval, in the order given. */
export function dayLanes(intervals: readonly { start: number; end: number }[]): Placed[] {
  const order = intervals
    .map((interval, index) => ({ ...interval, index }))
    .sort((a, b) => a.start - b.start || b.end - a.end || a.index - b.index);
  const placed: Placed[] = intervals.map(() => ({ lane: 0, lanes: 1 }));
  let group: number[] = [];
  /** When each lane of the current group is free again. */
  let laneEnds: number[] = [];
  let groupEnd = Number.NEGATIVE_INFINITY;
  const closeGroup = () => {
    for (const index of group) (placed[index] as Placed).lanes = laneEnds.length;
    group = [];
    laneEnds = [];
  };
  for (const interval of order) {
    if (interval.start >= groupEnd) closeGroup();
    let lane = laneEnds.findIndex((end) => end <= interval.start);
    if (lane === -1) lane = laneEnds.push(interval.end) - 1;
    else laneEnds[lane] = interval.end;
    (placed[interval.index] as Placed).lane = lane;
    group.push(interval.index);
    groupEnd = Math.max(groupEnd, interval.end);
  }
  closeGroup();
  return placed;
}
