/**
 * `npm test`: everything CI runs, one stage after another, each suite once, stopping at the first
 * that fails; then a table of how long each stage took.
 *
 * - The API suite runs once per store: the embedded one always, PostgreSQL when TEST_DATABASE_URL
 *   is set (`postgres://postgres@127.0.0.1:5432/postgres` on a machine like CI's).
 * - TEST_SECOND_NODE, the path of another Node binary (CI gives Node 24 while the rest runs on
 *   Node 22), runs the PostgreSQL API suite and the process suite on it, so that each Node line is
 *   proven by a whole suite without any suite running twice. Without it, every stage runs on the
 *   Node that runs this script.
 * - TEST_STAGE_LOG, a file: each finished stage is appended to it as `name<TAB>seconds<TAB>node`,
 *   for .ci/run to put its own stages (install, reliability) in the same table.
 *
 * What each pass proves is written down in docs/architecture.md ("How the tests run").
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const here = process.execPath;
const second = process.env.TEST_SECOND_NODE || here;
const postgres = Boolean(process.env.TEST_DATABASE_URL);

const nodeVersion = (node) =>
  node === here ? process.version : spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();

const vitest = (project, node = here) => ({
  node,
  command: [node, 'node_modules/vitest/vitest.mjs', 'run', '--project', project],
});

/** @type {{ name: string; node?: string; command: string[] }[]} */
const stages = [
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  // Once, first: the process suite starts the server from the built database template, and the
  // browser suite serves the built app.
  { name: 'build', command: ['npm', 'run', '--silent', 'build'] },
  { name: 'unit', ...vitest('unit') },
  { name: 'integration', ...vitest('integration') },
  { name: 'api-embedded', ...vitest('api-embedded') },
  ...(postgres ? [{ name: 'api-postgres', ...vitest('api-postgres', second) }] : []),
  { name: 'process', ...vitest('process', second) },
  {
    name: 'browser',
    command: ['sh', 'scripts/loopback-only.sh', here, 'node_modules/@playwright/test/cli.js', 'test'],
  },
];

if (!postgres) {
  process.stdout.write(
    'TEST_DATABASE_URL is not set: the API suite runs on the embedded store only (CI runs it on PostgreSQL too).\n',
  );
}

const done = [];
const minutes = (seconds) =>
  `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

function report(failed) {
  const width = Math.max(...done.map((stage) => stage.name.length), 5);
  const lines = done.map(
    (stage) => `  ${stage.name.padEnd(width)}  ${minutes(stage.seconds).padStart(6)}  ${stage.version}`,
  );
  const total = done.reduce((sum, stage) => sum + stage.seconds, 0);
  process.stdout.write(
    `\n${failed ? `npm test failed at: ${failed}` : 'npm test passed'}\n${lines.join('\n')}\n  ${'total'.padEnd(width)}  ${minutes(total).padStart(6)}\n`,
  );
}

for (const stage of stages) {
  const node = stage.node ?? here;
  const version = nodeVersion(node);
  process.stdout.write(`\n▶ ${stage.name} (Node ${version})\n`);
  const started = performance.now();
  const [command, ...args] = stage.command;
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  const seconds = (performance.now() - started) / 1000;
  done.push({ name: stage.name, seconds, version });
  if (process.env.TEST_STAGE_LOG)
    appendFileSync(process.env.TEST_STAGE_LOG, `${stage.name}\t${seconds.toFixed(1)}\t${version}\n`);
  if (result.status !== 0) {
    report(stage.name);
    process.exit(result.status ?? 1);
  }
}
report();
