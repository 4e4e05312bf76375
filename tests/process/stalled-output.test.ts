/**
 * A server whose log reader goes away must still stop when asked. A supervisor that dies, or a
 * pipe nobody drains, leaves stdout full; logging must never hold the process past its shutdown.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process';

it('exits on SIGTERM within 10 s although nobody reads its stdout any more', async () => {
  const server = await startServerProcess({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'tutorlane-stalled-')),
    // Every request writes a line: enough of them fill the pipe once its reader stops.
    LOG_LEVEL: 'debug',
  });
  // Nothing reads the pipe from here on: once its buffer is full, every write to it would block.
  server.child.stdout?.pause();
  server.child.stdout?.removeAllListeners('data');
  for (let round = 0; round < 40; round += 1) {
    await Promise.all(
      Array.from({ length: 50 }, () => fetch(`${server.url}/no-such-page-${'x'.repeat(200)}`)),
    );
  }
  const askedAt = performance.now();
  server.child.kill('SIGTERM');
  const stopped = await Promise.race([
    server.exited.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000)),
  ]);
  expect(stopped, 'the server was still running 10 s after SIGTERM').toBe(true);
  expect(performance.now() - askedAt).toBeLessThan(10_000);
});
