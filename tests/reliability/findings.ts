/**
 * What each reliability test measured, carried to the summary reporter in the test's metadata so
 * the closing summary can give the numbers behind every promise, held or not.
 */
import type { TestContext } from 'vitest';

export interface Finding {
  /** A few words for the one-line summary, such as "durability 30 kills". */
  short: string;
  /** The numbers a person checks the promise against. */
  detail: string;
}

declare module 'vitest' {
  interface TaskMeta {
    finding?: Finding;
  }
}

export function recordFinding(task: TestContext['task'], finding: Finding): void {
  task.meta.finding = finding;
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
