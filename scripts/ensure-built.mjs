/**
 * The build rule `npm start` and `npm run bench` share: build the browser app, the server bundle
 * and the migrated database template when any is missing or older than its sources.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const builtAt = (file) => (existsSync(join(root, file)) ? statSync(join(root, file)).mtimeMs : 0);
const sourcesAt = (sources) => Math.max(...sources.map((source) => newestMtime(join(root, source))));
const common = ['src/shared', 'package-lock.json'];

/** Builds what is missing or stale; `say` reports each step (npm start prints them). */
export async function ensureBuilt(say = (line) => process.stdout.write(`${line}\n`)) {
  const clientBuilt = builtAt('dist/client/index.html');
  if (sourcesAt(['src/client', 'vite.config.ts', ...common]) > clientBuilt) {
    say(clientBuilt ? 'Sources changed: rebuilding the browser app…' : 'Building the browser app…');
    const { build } = await import('vite');
    await build({
      root: join(root, 'src/client'),
      configFile: join(root, 'vite.config.ts'),
      logLevel: 'warn',
    });
  }

  const serverBuilt = Math.min(builtAt('dist/server/main.js'), builtAt('dist/db-template.tar.gz'));
  if (
    sourcesAt(['src/server', 'scripts/build-server.mjs', 'scripts/build-db-template.ts', ...common]) >
    serverBuilt
  ) {
    say(serverBuilt ? 'Sources changed: rebuilding the server…' : 'Building the server…');
    const { buildServer } = await import('./build-server.mjs');
    await buildServer();
    // The migrated database template is built by a short-lived TypeScript script (migrations are TS).
    const template = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-db-template.ts'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (template.status !== 0) throw new Error('building the database template failed');
  }
}

// `node scripts/ensure-built.mjs`: the same rule for another program (the benchmark runs it).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await ensureBuilt();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
