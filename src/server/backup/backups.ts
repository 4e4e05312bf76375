/**
 * Backups of the embedded store, taken by the running server: on demand (the admin console's
 * download) and on a schedule into BACKUP_DIR, keeping the newest BACKUP_KEEP. On PostgreSQL the
 * database has its own tools (`npm run backup`, pg_dump), so the schedule does nothing and says so
 * once. See docs/operations.md and docs/decisions/0026-backups-and-metrics.md.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BackupConfig } from '../config/config';
import type { Database } from '../db/database';
import type { Logger } from '../logging/logger';
import { backupFileName, buildArchive } from './backup-archive';

const SCHEDULED = /^tutorlane-backup-.*\.tar\.gz$/;
const HOUR_MS = 60 * 60 * 1000;

export interface BackupStatus {
  store: 'embedded' | 'postgres';
  /** Hours between scheduled backups; 0 when off (always 0 on PostgreSQL). */
  everyHours: number;
  keep: number;
  /** When the newest scheduled backup in BACKUP_DIR was taken, or null. */
  lastScheduledAt: string | null;
}

export interface Backups {
  /** A fresh backup as one .tar.gz; undefined on PostgreSQL. */
  take(): Promise<{ archive: Buffer; fileName: string } | undefined>;
  status(): BackupStatus;
  /** Starts the schedule (the server does; tests need not). */
  start(): void;
  /** Stops the schedule; resolves once a scheduled backup in progress is written. */
  stop(): Promise<void>;
}

export interface BackupObserver {
  /** A backup was taken (scheduled or downloaded) at this moment. */
  taken(at: Date): void;
  /** A scheduled backup failed. */
  failed(): void;
}

export function createBackups(deps: {
  database: Database;
  dataDir: string;
  config: BackupConfig;
  logger: Logger;
  observer?: BackupObserver;
}): Backups {
  const { database, dataDir, config, logger } = deps;
  let lastScheduled: Date | null = newestScheduled(config.dir);
  let timer: NodeJS.Timeout | undefined;
  let first: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function take() {
    if (!database.dump) return undefined;
    const at = new Date();
    const archive = await buildArchive({
      database: await database.dump(),
      dataDir,
      skipDirs: [config.dir],
      at,
    });
    deps.observer?.taken(at);
    return { archive, fileName: backupFileName(at) };
  }

  function scheduledBackup() {
    running ??= writeScheduledBackup().finally(() => {
      running = undefined;
    });
  }

  async function writeScheduledBackup() {
    try {
      const taken = await take();
      if (!taken) return;
      mkdirSync(config.dir, { recursive: true });
      // Written whole under another name, then renamed: a half-written backup never looks like one.
      const file = join(config.dir, taken.fileName);
      writeFileSync(`${file}.partial`, taken.archive, { mode: 0o600, flush: true });
      renameSync(`${file}.partial`, file);
      lastScheduled = new Date(statSync(file).mtimeMs);
      const removed = prune(config.dir, config.keep);
      logger.info({ file, bytes: taken.archive.length, removed }, 'backup taken');
    } catch (error) {
      deps.observer?.failed();
      logger.error({ err: (error as Error).message }, 'scheduled backup failed');
    }
  }

  return {
    take,
    status: () => ({
      store: database.kind,
      everyHours: database.kind === 'embedded' ? config.everyHours : 0,
      keep: config.keep,
      lastScheduledAt: lastScheduled?.toISOString() ?? null,
    }),
    start() {
      if (database.kind === 'postgres') {
        logger.info(
          'scheduled backups are for the embedded store; on PostgreSQL use npm run backup (pg_dump) or your provider’s backups',
        );
        return;
      }
      if (config.everyHours === 0) {
        logger.info('scheduled backups are off (BACKUP_EVERY_HOURS=0)');
        return;
      }
      const everyMs = config.everyHours * HOUR_MS;
      // A first backup a minute after start; after a restart the schedule goes on from the newest
      // backup, so a server restarted every few hours still backs up on time, and one that was down
      // past its time backs up soon.
      const soon = Math.min(60_000, everyMs);
      const dueIn = lastScheduled ? lastScheduled.getTime() + everyMs - Date.now() : soon;
      first = setTimeout(
        () => {
          scheduledBackup();
          timer = setInterval(scheduledBackup, everyMs);
          timer.unref();
        },
        Math.min(everyMs, Math.max(soon, dueIn)),
      );
      first.unref();
    },
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}

/** The scheduled backups in `dir`, newest first (their names sort by time). */
function scheduledFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => SCHEDULED.test(name))
      .sort()
      .reverse();
  } catch {
    return [];
  }
}

function newestScheduled(dir: string): Date | null {
  const [newest] = scheduledFiles(dir);
  if (!newest) return null;
  try {
    return new Date(statSync(join(dir, newest)).mtimeMs);
  } catch {
    return null;
  }
}

/** Removes all but the newest `keep` backups; answers how many went. */
function prune(dir: string, keep: number): number {
  const old = scheduledFiles(dir).slice(keep);
  for (const name of old) rmSync(join(dir, name), { force: true });
  return old.length;
}
