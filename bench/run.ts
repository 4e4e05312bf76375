/**
 * `npm run bench`: measures Tutorlane's figures as ratios against references measured
 * in the same run on the same machine, prints one table with every budget marked met or not, and
 * writes the same to bench/results.json. Progress goes to stderr, the report to stdout.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../scripts/ensure-built.mjs';
import { measureBundleFigure } from './bundle-figure';
import { measureHttpFigures } from './http-figures';
import { measureLighthouseFigure } from './lighthouse-figure';
import { type LoadGenerator, startLoadGenerator } from './load-generator';
import { detectPinning, projectRoot, runCleanup, tempDir } from './processes';
import {
  type BenchResults,
  type FigureResult,
  formatTable,
  type Row,
  summarize,
  writeResults,
} from './report';
import { measureSearchFigure } from './search-figure';
import { measureStartupFigures } from './startup-figures';

const started = performance.now();
const startedAt = new Date().toISOString();
const progress = (message: string) =>
  process.stderr.write(
    `[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}\n`,
  );

process.on('SIGINT', async () => {
  progress('interrupted: cleaning up');
  await runCleanup();
  process.exit(130);
});

const rows: Row[] = [];
const findings: Record<string, string[]> = {};
const details: Record<string, unknown> = {};
let failed = false;

/** Runs `measure` with a load generator of its own on the load core, closed after. */
async function withLoad<T>(measure: (load: LoadGenerator) => Promise<T>): Promise<T> {
  const load = startLoadGenerator(pinning.loadCore);
  try {
    return await measure(load);
  } finally {
    await load.close();
  }
}

/** Runs one figure; a figure that throws becomes a "skipped" row saying why, and the run goes on. */
async function figure(name: string, ids: string, measure: () => Promise<FigureResult>): Promise<void> {
  progress(`${name}…`);
  try {
    const result = await measure();
    rows.push(...result.rows);
    findings[name] = result.findings;
    details[name] = result.details;
  } catch (error) {
    failed = true;
    const message = (error as Error).message.split('\n')[0] ?? 'failed';
    rows.push({
      id: ids,
      figure: name,
      measured: `failed: ${message}`,
      reference: '',
      ratio: '',
      budget: '',
      status: 'skipped',
    });
    details[name] = { error: (error as Error).stack };
    progress(`${name} failed: ${(error as Error).stack}`);
  }
}

const pinning = detectPinning();
progress(`${availableParallelism()} cores; ${pinning.note}`);
try {
  let built = false;
  await ensureBuilt((line) => {
    built = true;
    progress(line);
  });
  if (!built) progress('dist (browser app, server bundle, database template) is up to date');
  await figure('bundle', '4', measureBundleFigure);
  let startupDataDir: string | undefined;
  await figure('start-up', '6-7', async () => {
    const result = await measureStartupFigures();
    startupDataDir = result.dataDir;
    return result;
  });
  await figure('http', '1-3', () => withLoad((load) => measureHttpFigures(pinning, load)));
  await figure('search, embedded', '8a', () =>
    withLoad((load) => measureSearchFigure('embedded', pinning, load)),
  );
  await figure('search, PostgreSQL', '8b', () =>
    withLoad((load) => measureSearchFigure('postgres', pinning, load)),
  );
  await figure('lighthouse', '5', () => measureLighthouseFigure(startupDataDir ?? tempDir('lighthouse')));
} finally {
  await runCleanup();
}

rows.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
const durationSeconds = Math.round((performance.now() - started) / 1000);
const results: BenchResults = {
  startedAt,
  durationSeconds,
  machine: { cpus: availableParallelism(), node: process.version, pinning: pinning.note },
  summary: summarize(rows),
  rows,
  findings,
  details,
};
const resultsFile = join(projectRoot, 'bench/results.json');
writeResults(resultsFile, results);

const { met, notMet, skipped } = results.summary;
process.stdout.write(
  [
    '',
    `Tutorlane benchmark, ${startedAt} (${durationSeconds} s, ${results.machine.cpus} cores, ${pinning.note})`,
    '',
    formatTable(rows),
    '',
    `${met} met, ${notMet} not met, ${skipped} skipped. ` +
      'Ratios are subject / reference, round by round; the budget checks their median.',
    '',
    'Findings:',
    ...Object.values(findings)
      .flat()
      .map((line) => `- ${line}`),
    '',
    `Written to ${resultsFile}`,
    '',
  ].join('\n'),
);
process.exit(failed ? 1 : 0);
