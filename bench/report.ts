/**
 * What a figure hands back (rows for the table, raw details and findings for the JSON) and how the
 * run is shown: one plain-text table with every budget marked, and bench/results.json.
 */
import { writeFileSync } from 'node:fs';

/** 'reported': a figure the table shows with no budget of its own. */
export type Status = 'met' | 'NOT MET' | 'skipped' | 'reported';

export interface Row {
  /** The row of docs/performance.md's budget table, with a letter when it has several (3a, 3b...). */
  id: string;
  figure: string;
  /** The subject's value: median (min-max) over the rounds. */
  measured: string;
  /** The reference measured in the same run, when the budget is a ratio. */
  reference: string;
  /** subject / reference: median (min-max) of the per-round ratios. */
  ratio: string;
  budget: string;
  status: Status;
}

export interface FigureResult {
  rows: Row[];
  /** Evidence for a reader: what the time or bytes go to. Printed under the table. */
  findings: string[];
  /** Everything measured, round by round, for bench/results.json. */
  details: unknown;
}

export function status(met: boolean): Status {
  return met ? 'met' : 'NOT MET';
}

export function skippedRow(id: string, figure: string, budget: string, reason: string): Row {
  return { id, figure, measured: reason, reference: '', ratio: '', budget, status: 'skipped' };
}

const columns: { key: keyof Row; title: string }[] = [
  { key: 'id', title: '#' },
  { key: 'figure', title: 'figure' },
  { key: 'measured', title: 'measured: median (min-max)' },
  { key: 'reference', title: 'reference' },
  { key: 'ratio', title: 'ratio: median (min-max)' },
  { key: 'budget', title: 'budget' },
  { key: 'status', title: 'result' },
];

export function formatTable(rows: Row[]): string {
  const widths = columns.map(({ key, title }) =>
    Math.max(title.length, ...rows.map((row) => String(row[key]).length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join(' | ')
      .trimEnd();
  return [
    line(columns.map((c) => c.title)),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...rows.map((row) => line(columns.map((c) => String(row[c.key])))),
  ].join('\n');
}

export interface BenchResults {
  startedAt: string;
  durationSeconds: number;
  /** Quick mode (BENCH_QUICK=1) and the rows chosen (BENCH_ROWS). */
  mode: string;
  machine: { cpus: number; node: string; pinning: string; loadAverageAtEnd: number[] };
  summary: { met: number; notMet: number; skipped: number };
  rows: Row[];
  findings: Record<string, string[]>;
  details: Record<string, unknown>;
}

export function summarize(rows: Row[]): BenchResults['summary'] {
  return {
    met: rows.filter((r) => r.status === 'met').length,
    notMet: rows.filter((r) => r.status === 'NOT MET').length,
    skipped: rows.filter((r) => r.status === 'skipped').length,
  };
}

export function writeResults(path: string, results: BenchResults): void {
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
}
