/**
 * Installs the benchmark's own packages (`npm ci` in bench/) when they are missing or older than
 * its lockfile, so `npm run bench` works on a fresh clone and after the lockfile changes.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bench = fileURLToPath(new URL('.', import.meta.url));
const changedAt = (file) => statSync(join(bench, file), { throwIfNoEntry: false })?.mtimeMs ?? 0;

// npm writes node_modules/.package-lock.json at the end of every install.
if (changedAt('node_modules/.package-lock.json') < changedAt('package-lock.json')) {
  process.stderr.write('Installing the benchmark’s packages (npm ci in bench/)…\n');
  const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: bench, stdio: 'inherit' });
  process.exit(install.status ?? 1);
}
