/**
 * The data folder lock (docs/decisions/0003-data-dir-lock.md). Servers starting together are
 * simulated in this process: every file operation of one starter can pause it while the next
 * starter runs, which plays every order in which the operating system could interleave them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type DataDirLock, DataDirLockedError, lockDataDir } from '../../src/server/db/data-dir-lock';
import { beforeFileOperation } from '../support/pausable-fs';

vi.mock('node:fs', async (original) => (await import('../support/pausable-fs')).pausableFs(await original()));

const root = mkdtempSync(join(tmpdir(), 'tutorlane-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const freshFolder = () => mkdtempSync(join(root, 'data-'));

const lockModule = fileURLToPath(new URL('../../src/server/db/data-dir-lock.ts', import.meta.url));

/** A data folder whose lock was left by a server killed while it held it (its pid is dead). */
function folderWithDeadLock(): string {
  const dataDir = freshFolder();
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { lockDataDir } from ${JSON.stringify(lockModule)}; lockDataDir(${JSON.stringify(dataDir)});`,
    ],
    { encoding: 'utf8' },
  );
  expect(child.status, child.stderr).toBe(0);
  return dataDir;
}

type Outcome = DataDirLock | 'refused';

function tryLock(dataDir: string): Outcome {
  try {
    return lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) return 'refused';
    throw error;
  }
}

/**
 * Starters 0..n-1 race for one folder: starter i runs until its pauseAt[i]-th file operation, and
 * there starter i + 1 runs (itself pausing at its own point), then starter i goes on. The starter
 * numbered `stopsAtOnce` closes the folder as soon as it gets it, like a server started and stopped.
 * Returns what the others got.
 */
function race(dataDir: string, pauseAt: number[], stopsAtOnce?: number): Outcome[] {
  const outcomes: Outcome[] = [];
  const pausers: Array<() => void> = [];
  beforeFileOperation.current = () => pausers.at(-1)?.();
  const start = (starter: number) => {
    let operations = 0;
    let nextStarted = starter + 1 > pauseAt.length;
    pausers.push(() => {
      if (!nextStarted && operations++ === pauseAt[starter]) {
        nextStarted = true;
        start(starter + 1);
      }
    });
    try {
      const outcome = tryLock(dataDir);
      if (starter === stopsAtOnce) {
        if (outcome !== 'refused') outcome.release();
      } else outcomes.push(outcome);
    } finally {
      pausers.pop();
    }
    if (!nextStarted) start(starter + 1);
  };
  try {
    start(0);
  } finally {
    beforeFileOperation.current = undefined;
  }
  return outcomes;
}

/**
 * A real zombie: a shell starts a child that exits at once, then becomes a process that never
 * collects it (exec sleep), so the child's pid stays in the process table in state Z. Resolves to
 * that pid and a function that ends the parent (whose end lets init collect the zombie).
 */
async function zombie(): Promise<{ pid: number; end(): void }> {
  const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 60'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const end = () => parent.kill('SIGKILL');
  const pid = await new Promise<number>((resolve, reject) => {
    parent.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    parent.once('error', reject);
  });
  const state = () => /^State:\s*(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  for (let tries = 0; state() !== 'Z'; tries++) {
    if (tries > 100) {
      end();
      throw new Error(`pid ${pid} did not become a zombie (state ${state()})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { pid, end };
}

const winners = (outcomes: Outcome[]) => outcomes.filter((outcome) => outcome !== 'refused');

describe('the data folder lock', () => {
  it('refuses a second holder, names the first, and is free again once released', () => {
    const dataDir = freshFolder();
    const first = lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).toThrow(
      new DataDirLockedError(
        `Another Tutorlane server (pid ${process.pid}) is already using ${dataDir}. Stop it first, or give this one its own DATA_DIR.`,
      ),
    );
    first.release();
    lockDataDir(dataDir).release();
  });

  it.runIf(process.platform === 'linux')(
    'takes over a lock whose server was killed and is still a zombie its parent has not collected',
    async () => {
      const killed = await zombie();
      try {
        // It still answers signals, as a live process would.
        expect(() => process.kill(killed.pid, 0)).not.toThrow();
        const dataDir = freshFolder();
        mkdirSync(join(dataDir, 'db-lock'));
        writeFileSync(join(dataDir, 'db-lock', '1'), `${killed.pid} token-of-the-killed-server`);
        const taken = tryLock(dataDir);
        expect(taken).not.toBe('refused');
        if (taken !== 'refused') taken.release();
      } finally {
        killed.end();
      }
    },
  );

  it.each([
    ['all keep running', undefined],
    ['the second one stops at once', 1],
  ])(
    'lets exactly one of three servers starting together take over a dead lock, however they interleave (%s)',
    (_, stopsAtOnce) => {
      const deadLock = folderWithDeadLock();
      // How many file operations one starter makes to take over alone and stop, so pauses cover all.
      let operations = 0;
      beforeFileOperation.current = () => {
        operations++;
      };
      cpSync(deadLock, `${deadLock}-alone`, { recursive: true });
      lockDataDir(`${deadLock}-alone`).release();
      beforeFileOperation.current = undefined;
      expect(operations).toBeGreaterThan(5);

      for (let first = 0; first <= operations; first++) {
        for (let second = 0; second <= operations; second++) {
          const dataDir = `${deadLock}-${first}-${second}`;
          cpSync(deadLock, dataDir, { recursive: true });
          const outcomes = race(dataDir, [first, second], stopsAtOnce);
          expect(outcomes).toHaveLength(stopsAtOnce === undefined ? 3 : 2);
          const won = winners(outcomes);
          expect(won, `pauses at ${first} and ${second}`).toHaveLength(1);
          // The winner really holds it, and leaves it free for the next start.
          expect(tryLock(dataDir)).toBe('refused');
          won[0]?.release();
          const next = tryLock(dataDir);
          expect(next).not.toBe('refused');
          if (next !== 'refused') next.release();
        }
      }
    },
  );
});
