/**
 * `npm run backup -- FILE` and `npm run restore -- FILE`, as functions that return what to print.
 * They read the server's configuration: with DATABASE_URL they use PostgreSQL's pg_dump and
 * pg_restore; otherwise they work on the embedded store in DATA_DIR, which serves one process at a
 * time, so they refuse while a server holds it, as `npm run admin` does.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandResult } from '../admin/admin-command';
import { ConfigError, loadConfig } from '../config/config';
import { DataDirLockedError } from '../db/data-dir-lock';
import { openDatabase } from '../db/database';
import { buildArchive } from './backup-archive';
import { MissingToolError, pgDump, pgRestore } from './pg-tools';
import { RestoreError, restoreEmbedded } from './restore';

const failed = (error: string, exitCode = 1): CommandResult => ({ output: '', error, exitCode });
const done = (output: string): CommandResult => ({ output, error: '', exitCode: 0 });

/** What to say when a running server holds DATA_DIR. */
export function serverRunningMessage(error: DataDirLockedError, what: string): string {
  const pid = /pid (\d+)/.exec(error.message)?.[1];
  const server = pid ? `A Tutorlane server (pid ${pid})` : 'A Tutorlane server';
  return `${server} is using the embedded database in DATA_DIR, which serves one process at a time. Stop the server (Ctrl+C in its terminal, or kill ${pid ?? '<its pid>'}), run this command again, then start the server. Nothing was ${what}.`;
}

function settings() {
  try {
    // Neither command signs anything: a missing DATA_DIR must not be created with a new secret.
    return { config: loadConfig(process.env, { generateSecret: false }) };
  } catch (error) {
    if (error instanceof ConfigError) return { error: error.message };
    throw error;
  }
}

export async function runBackupCommand(args: string[]): Promise<CommandResult> {
  const [target, ...rest] = args;
  if (!target || rest.length > 0) return failed('Usage: npm run backup -- FILE', 2);
  const file = resolve(target);
  if (existsSync(file)) return failed(`${file} exists already; name a new file.`);
  const { config, error } = settings();
  if (!config) return failed(error ?? 'Invalid configuration');

  if (config.databaseUrl) {
    try {
      await pgDump(config.databaseUrl, file);
    } catch (problem) {
      return failed((problem as Error).message);
    }
    return done(
      `Backed up the PostgreSQL database to ${file} (pg_dump -Fc).\nKeep AUTH_SECRET with it: the servers' session secret is not in the database.`,
    );
  }

  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ dataDir: config.dataDir });
  } catch (problem) {
    if (problem instanceof DataDirLockedError)
      return failed(
        `${serverRunningMessage(problem, 'written')} While it runs, an admin can download a backup from the admin console instead.`,
      );
    return failed(`Could not open the database: ${(problem as Error).message}`);
  }
  try {
    const dump = await database.dump?.();
    if (!dump) return failed('This database cannot be dumped');
    const at = new Date();
    const archive = await buildArchive({
      database: dump,
      dataDir: config.dataDir,
      skipDirs: [config.backups.dir],
      at,
    });
    writeFileSync(file, archive, { mode: 0o600, flush: true });
    return done(
      `Backed up ${config.dataDir} to ${file} (${Math.ceil(archive.length / 1024)} KB): the database, the session secret and the other files of DATA_DIR.`,
    );
  } finally {
    await database.close();
  }
}

export async function runRestoreCommand(args: string[]): Promise<CommandResult> {
  const [source, ...rest] = args;
  if (!source || rest.length > 0) return failed('Usage: npm run restore -- FILE', 2);
  const file = resolve(source);
  if (!existsSync(file)) return failed(`There is no file ${file}`);
  const { config, error } = settings();
  if (!config) return failed(error ?? 'Invalid configuration');

  if (config.databaseUrl) {
    try {
      await pgRestore(config.databaseUrl, file);
    } catch (problem) {
      if (problem instanceof MissingToolError) return failed(problem.message);
      return failed(
        `${(problem as Error).message}\nThe restore ran in one transaction, so the database is as it was.`,
      );
    }
    return done(
      `Restored the PostgreSQL database from ${file} (pg_restore --clean --if-exists, in one transaction).\nStart the servers with the AUTH_SECRET they had when the backup was taken.`,
    );
  }

  try {
    const outcome = await restoreEmbedded(file, config.dataDir);
    return done(
      [
        `Restored the backup taken ${outcome.takenAt} into ${outcome.dataDir}: the database (${outcome.accounts} account${outcome.accounts === 1 ? '' : 's'}) and ${outcome.files} other file${outcome.files === 1 ? '' : 's'} (the session secret among them).`,
        outcome.movedAside
          ? `The data folder it replaced was moved to ${outcome.movedAside}; delete it once all is well.`
          : 'There was no data folder before.',
        'Start the server: npm start',
      ].join('\n'),
    );
  } catch (problem) {
    if (problem instanceof DataDirLockedError)
      return failed(serverRunningMessage(problem, 'restored or changed'));
    if (problem instanceof RestoreError) return failed(`${problem.message}. Nothing was changed.`);
    return failed(`The restore failed: ${(problem as Error).message}. DATA_DIR was not replaced.`);
  }
}
