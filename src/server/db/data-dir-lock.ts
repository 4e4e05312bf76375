/**
 * The embedded database is one process with one connection: two servers writing the same data
 * folder silently lose rows. A server holds the folder through the newest numbered file in
 * DATA_DIR/db-lock, which names its pid; a second server finds a live pid there and stops at once.
 * A lock left by a killed server (kill -9) names a dead pid, or a zombie's, and is taken over, so a
 * restart never waits. Taking over never removes or rewrites a lock: it creates the next number, which only one
 * starter can create, so two servers racing for a dead lock cannot both win.
 * See docs/decisions/0003-data-dir-lock.md for why it works this way.
 */
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIfExists } from '../files/read-if-exists';

export class DataDirLockedError extends Error {}

export interface DataDirLock {
  release(): void;
}

/** The content of a lock whose server closed the database cleanly. */
const RELEASED = 'released';

/**
 * The tokens of the locks this process holds. A lock naming our own pid is ours only with one of
 * them; without, it was left by an earlier process that had our pid (a container starts its server
 * as pid 1 every time).
 */
const heldTokens = new Set<string>();

function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !hasExited(pid);
}

/**
 * Whether a pid that still answers signals belongs to a process that has exited: a zombie (a
 * server killed with kill -9 whose parent, a supervisor or a shell, has not collected it yet) keeps
 * its pid but will never touch the data folder again. Linux says so in /proc; elsewhere we cannot
 * tell, and the pid counts as alive.
 */
function hasExited(pid: number): boolean {
  try {
    const status = readIfExists(`/proc/${pid}/status`);
    return status !== undefined && /^State:\s*[ZX]/m.test(status);
  } catch {
    return false;
  }
}

/** The pid of the server holding a lock with this content, or undefined when nobody holds it. */
function holderOf(content: string): number | undefined {
  const [pidText, token] = content.trim().split(' ');
  const pid = Number(pidText);
  // Released, or empty or cut short (a power cut before the disk had it): nobody holds it.
  if (!Number.isInteger(pid) || pid <= 0 || !token) return undefined;
  const alive = pid === process.pid ? heldTokens.has(token) : isPidAlive(pid);
  return alive ? pid : undefined;
}

/** The numbered lock files, newest first. */
function generations(lockDir: string): number[] {
  return readdirSync(lockDir)
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => b - a);
}

const lockedMessage = (pid: number, dataDir: string) =>
  `Another Tutorlane server (pid ${pid}) is already using ${dataDir}. Stop it first, or give this one its own DATA_DIR.`;

export function lockDataDir(dataDir: string): DataDirLock {
  const lockDir = join(dataDir, 'db-lock');
  mkdirSync(lockDir, { recursive: true });
  // Before version 2 of this lock, a server held DATA_DIR/db.lock: respect one that still runs.
  const legacy = Number.parseInt(readIfExists(join(dataDir, 'db.lock')) ?? '', 10);
  if (Number.isInteger(legacy) && legacy !== process.pid && isPidAlive(legacy)) {
    throw new DataDirLockedError(lockedMessage(legacy, dataDir));
  }

  const token = randomUUID();
  // The lock is written whole under a draft name, then linked into place: a lock is never seen
  // empty, so a starter reading it mid-write cannot mistake a live server's lock for a dead one.
  const draft = join(lockDir, `draft-${process.pid}-${token}`);
  writeFileSync(draft, `${process.pid} ${token}`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      const [newest = 0] = generations(lockDir);
      if (newest > 0) {
        const content = readIfExists(join(lockDir, String(newest)));
        if (content === undefined) continue;
        const holder = holderOf(content);
        if (holder !== undefined) throw new DataDirLockedError(lockedMessage(holder, dataDir));
      }
      const mine = newest + 1;
      const file = join(lockDir, String(mine));
      try {
        // link fails when the file exists: of all the starters that found `newest` dead, one wins.
        linkSync(draft, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      // We read an old listing: a newer lock exists (ours reused a number a later server removed).
      if (generations(lockDir)[0] !== mine) {
        rmSync(file, { force: true });
        continue;
      }
      heldTokens.add(token);
      removeLeftovers(lockDir, mine);
      return {
        release() {
          if (!heldTokens.delete(token)) return;
          // Rewritten, not removed: lock numbers only grow, which is what makes taking over safe.
          try {
            writeFileSync(draft, RELEASED, { mode: 0o600 });
            renameSync(draft, file);
          } catch {
            // The folder is gone: nothing to release.
          }
        },
      };
    }
  } finally {
    rmSync(draft, { force: true });
  }
  throw new DataDirLockedError(`Could not lock ${dataDir}: other servers keep taking it.`);
}

/** Older locks (all dead: we hold the newest), drafts of dead starters, and a released legacy lock. */
function removeLeftovers(lockDir: string, mine: number): void {
  for (const name of readdirSync(lockDir)) {
    const draftPid = /^draft-(\d+)-/.exec(name)?.[1];
    const stale = /^\d+$/.test(name)
      ? Number(name) < mine
      : draftPid !== undefined && Number(draftPid) !== process.pid && !isPidAlive(Number(draftPid));
    if (stale) rmSync(join(lockDir, name), { force: true });
  }
  rmSync(join(lockDir, '..', 'db.lock'), { force: true });
}
