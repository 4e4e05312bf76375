/**
 * `npm start`: builds the browser app when there is no build or a source is newer than it, then
 * starts the server in this same process (no child process left behind).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const builtIndex = join(root, 'dist/client/index.html');
const sources = ['src/client', 'src/shared', 'vite.config.ts', 'package-lock.json'];

function newestMtime(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const sourcesAt = Math.max(
  ...sources
    .map((source) => join(root, source))
    .filter(existsSync)
    .map(newestMtime),
);
if (sourcesAt > builtAt) {
  process.stdout.write(
    builtAt ? 'Sources changed: rebuilding the browser app…\n' : 'Building the browser app…\n',
  );
  const { build } = await import('vite');
  await build({ root: join(root, 'src/client'), configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
}

await import('../src/server/main');
