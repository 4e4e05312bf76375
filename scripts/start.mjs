/**
 * `npm start`: builds the browser app and the server bundle when either is missing or older than
 * its sources, then starts the server in this same process (no child process left behind).
 */
// First: a build in this process (vite, esbuild) runs full garbage collections, after which Node's
// nextTick would take a slow path for the server's life, unless an entry is held (see the module).
// The server bundle holds one of its own too (for `node dist/server/main.js`): one object more.
import '../src/server/http/next-tick-entry.js';
import { ensureBuilt } from './ensure-built.mjs';

try {
  await ensureBuilt();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
await import('../dist/server/main.js');
