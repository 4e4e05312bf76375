/**
 * How much the run measures, from the environment:
 * - BENCH_QUICK=1, for working on the benchmark itself: fewer and shorter rounds, smaller data and
 *   one Lighthouse run per page. Its figures are not taken under the budgets' conditions.
 * - BENCH_ROWS=3,6: only those rows of the budget table.
 */
export const QUICK = process.env.BENCH_QUICK === '1';

/** The full value, or the quick one with BENCH_QUICK=1. */
export const full = <T>(value: T, quick: T): T => (QUICK ? quick : value);

const chosen = (process.env.BENCH_ROWS ?? '')
  .split(',')
  .map((part) => Number(part.trim()))
  .filter((row) => Number.isInteger(row) && row > 0);

/** Whether the row of docs/performance.md's budget table is measured in this run. */
export function wanted(row: number): boolean {
  return chosen.length === 0 || chosen.includes(row);
}

export const rowsNote = chosen.length === 0 ? 'all rows' : `rows ${chosen.join(', ')} only (BENCH_ROWS)`;
