/**
 * The server as the reliability suite runs it: a real process on a free port whose APP_URL is the
 * exact URL the tests call (so their Origin header is trusted), behind one trusted proxy (so each
 * request's X-Forwarded-For is its client address). Every process started here is killed when the
 * test file ends, even when a test failed half-way.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { freePort, type ServerProcess, startServerProcess } from '../support/server-process';

const started: ServerProcess[] = [];
const signalled = new WeakSet<ServerProcess>();
const dataDirs: string[] = [];

afterAll(async () => {
  for (const server of started) {
    if (isRunning(server)) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

export function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tutorlane-reliability-'));
  dataDirs.push(dir);
  return dir;
}

// A machine shared with other people's test runs is where a stray signal comes from: say so,
// rather than leave a dead server to look like a failed promise.
const signalHint =
  'a server that exits 0, or dies of SIGTERM, without the test asking was sent a signal from outside this test';

export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  try {
    const server = await startServerProcess(
      {
        PORT: String(port),
        APP_URL: `http://127.0.0.1:${port}`,
        TRUST_PROXY: '1',
        // The admin here confirms transfers with a password alone, as a school with two-factor optional.
        ADMIN_TWO_FACTOR: 'optional',
        ...env,
      },
      60_000,
    );
    started.push(server);
    return server;
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(message.includes('exited with null') ? `${message}\n(${signalHint})` : message);
  }
}

export function isRunning(server: ServerProcess): boolean {
  return server.child.exitCode === null && server.child.signalCode === null;
}

/** Sends the signal the test means to send; any other ending is reported by expectRunning. */
export function signalServer(server: ServerProcess, signal: 'SIGKILL' | 'SIGTERM'): void {
  signalled.add(server);
  server.child.kill(signal);
}

/** Throws, with how it ended and what it printed, when the server stopped without the test asking. */
export function expectRunning(server: ServerProcess): void {
  if (isRunning(server) || signalled.has(server)) return;
  const { exitCode, signalCode, pid } = server.child;
  throw new Error(
    `the server (pid ${pid}) ended without the test asking: exit code ${exitCode}, signal ${signalCode} (${signalHint})\n${server.output()}`,
  );
}

/** The resident memory of a process in kB, as the kernel counts it. */
export function rssKb(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m);
  if (!match?.[1]) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
