/** The few statistics the benchmark reports: a median with the range it was drawn from. */

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** Every sample, in the order it was measured. */
  samples: number[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The nearest-rank percentile: the smallest value with at least `p`% of the values at or below it. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** The largest value; unlike Math.max(...values), fine for a hundred thousand of them. */
export function maximum(values: readonly number[]): number {
  return values.reduce((max, value) => (value > max ? value : max), Number.NEGATIVE_INFINITY);
}

export function spread(values: readonly number[]): Spread {
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    samples: [...values],
  };
}

/** Pairs each subject sample with the reference sample of its round: subject / reference. */
export function ratios(subject: readonly number[], reference: readonly number[]): number[] {
  return subject.map((value, index) => value / (reference[index] as number));
}

/** "1.23x (1.10-1.31)", or with another unit and number of decimals. */
export function formatSpread(value: Spread, unit = '', decimals = 2): string {
  const f = (n: number) => n.toFixed(decimals);
  return `${f(value.median)}${unit} (${f(value.min)}-${f(value.max)})`;
}
