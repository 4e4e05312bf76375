/**
 * Restoring a backup of the embedded store (./backup-archive.ts) into DATA_DIR, with the server
 * stopped: the backup is unpacked into a new folder beside DATA_DIR and its database opened once
 * (which proves it whole), then the old DATA_DIR is moved aside as DATA_DIR.before-restore-<time>
 * and the new folder takes its place. Nothing of the old folder is deleted.
 */
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import * as tar from 'tar-stream';
import { lockDataDir } from '../db/data-dir-lock';
import {
  ARCHIVE_FORMAT,
  DATABASE_ENTRY,
  FILES_PREFIX,
  fileTimestamp,
  MANIFEST,
  type Manifest,
} from './backup-archive';

export class RestoreError extends Error {}

export interface RestoreOutcome {
  dataDir: string;
  /** Where the old DATA_DIR went, or undefined when there was none. */
  movedAside: string | undefined;
  takenAt: string;
  files: number;
  accounts: number;
}

/** A path inside the backup's files/, made safe: never absolute, never climbing out. */
function safeRelative(name: string): string | undefined {
  const relativePath = normalize(name.slice(FILES_PREFIX.length));
  if (
    !relativePath ||
    relativePath === '.' ||
    isAbsolute(relativePath) ||
    relativePath.split(sep).includes('..')
  )
    return undefined;
  return relativePath;
}

/** Unpacks the backup into `into`: its files, and its database as a tarball in memory. */
async function unpack(
  file: string,
  into: string,
): Promise<{ manifest: Manifest; database: Buffer; files: number }> {
  let manifest: Manifest | undefined;
  let database: Buffer | undefined;
  let files = 0;
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract);
  reading.catch(() => {});
  try {
    for await (const entry of extract) {
      const { name, type, mode } = entry.header;
      const content = await buffer(entry);
      if (type !== 'file') continue;
      if (name === MANIFEST) manifest = JSON.parse(content.toString('utf8')) as Manifest;
      else if (name === DATABASE_ENTRY) database = content;
      else if (name.startsWith(FILES_PREFIX)) {
        const path = safeRelative(name);
        if (!path) continue;
        const target = join(into, path);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, content, { mode: (mode ?? 0o600) & 0o777 });
        files += 1;
      }
    }
    await reading;
  } catch (error) {
    throw new RestoreError(`${file} is not a Tutorlane backup (${(error as Error).message})`);
  }
  if (manifest?.app !== 'tutorlane' || !database)
    throw new RestoreError(`${file} is not a Tutorlane backup of the embedded database`);
  if (manifest.format > ARCHIVE_FORMAT)
    throw new RestoreError(
      `${file} was made by a newer Tutorlane (backup format ${manifest.format}); restore it with that version`,
    );
  return { manifest, database, files };
}

/** Writes the database from its dump into `dbDir` and opens it once, which proves it whole. */
async function loadDatabase(dbDir: string, dump: Buffer): Promise<number> {
  const pglite = await PGlite.create({
    dataDir: dbDir,
    extensions: { btree_gist },
    loadDataDir: new Blob([new Uint8Array(dump)]),
  });
  try {
    const { rows } = await pglite.query<{ count: number }>('select count(*)::int as count from users');
    return rows[0]?.count ?? 0;
  } finally {
    await pglite.close();
  }
}

export async function restoreEmbedded(
  file: string,
  dataDir: string,
  now = new Date(),
): Promise<RestoreOutcome> {
  if (!existsSync(file)) throw new RestoreError(`There is no file ${file}`);
  const existed = existsSync(dataDir);
  // The same lock a server takes: while one runs, this stops here with its pid, having changed nothing.
  const lock = lockDataDir(dataDir);
  const stamp = fileTimestamp(now);
  const staging = `${dataDir}.restoring-${stamp}`;
  try {
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true, mode: 0o700 });
    const { manifest, database, files } = await unpack(file, staging);
    const accounts = await loadDatabase(join(staging, 'db'), database);

    // Only the lock, which this command put there: nothing to keep.
    const onlyOurLock = !existed || readdirSync(dataDir).every((name) => name === 'db-lock');
    let movedAside: string | undefined;
    if (onlyOurLock) rmSync(dataDir, { recursive: true, force: true });
    else {
      movedAside = `${dataDir}.before-restore-${stamp}`;
      renameSync(dataDir, movedAside);
    }
    renameSync(staging, dataDir);
    return { dataDir, movedAside, takenAt: manifest.createdAt, files, accounts };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    lock.release();
  }
}
