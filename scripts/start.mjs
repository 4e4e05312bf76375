/**
 * `npm start`: builds the browser app and the server bundle when either is missing or older than
 * its sources, then starts the server in this same process (no child process left behind).
 */
import { ensureBuilt } from './ensure-built.mjs';

try {
  await ensureBuilt();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
await import('../dist/server/main.js');
