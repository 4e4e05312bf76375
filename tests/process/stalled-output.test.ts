/**
 * A server whose log reader goes away must still stop when asked. A supervisor that dies, or a
 * pipe nobody drains, leaves stdout full; logging must never hold the process past its shutdown.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process';

// The server gives its shutdown 10 s from the moment it handles the signal, then exits anyway
// (SHUTDOWN_TIMEOUT_MS in src/server/server.ts). Waiting exactly as long made any slow shutdown on
// a busy machine a race between two 10 s timers; the slack covers the signal's delivery and the
// exit itself. A process that logging had blocked never exits, and fails this all the same.
const SHUTDOWN_LIMIT_MS = 10_000;
const SLACK_MS = 3_000;

it('exits on SIGTERM within its shutdown limit although nobody reads its stdout any more', async () => {
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
  const ended = await Promise.race([
    server.exited.then((code) => ({ code })),
    sleep(SHUTDOWN_LIMIT_MS + SLACK_MS).then(() => null),
  ]);
  const tookMs = Math.round(performance.now() - askedAt);
  // stderr is still read: what the server said there tells a slow shutdown from a blocked one.
  const said = server.output().slice(-2000);
  expect(ended, `the server was still running ${tookMs} ms after SIGTERM; it said:\n${said}`).not.toBeNull();
  if (ended?.code !== 0) console.warn(`exited ${ended?.code} after ${tookMs} ms; it said:\n${said}`);
});
