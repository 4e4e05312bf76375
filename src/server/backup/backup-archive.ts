/**
 * One backup of the embedded store = one .tar.gz holding everything a restore needs:
 *
 * - `tutorlane-backup.json`: what it is (format, when it was taken);
 * - `database.tar`: the database's data folder as PGlite itself dumps it (dumpDataDir), taken while
 *   no transaction is open, so it opens as the database was at that moment;
 * - `files/…`: every other file in DATA_DIR (the generated session secret, saved mail, and any
 *   file a later feature keeps there), without the live database, its lock, or the backups.
 *
 * Restoring unpacks it into a new folder beside DATA_DIR (./restore.ts).
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { createGzip } from 'node:zlib';
import * as tar from 'tar-stream';

export const MANIFEST = 'tutorlane-backup.json';
export const DATABASE_ENTRY = 'database.tar';
export const FILES_PREFIX = 'files/';
export const ARCHIVE_FORMAT = 1;

/** What DATA_DIR holds that is not copied as a file: the live database and its lock. */
const NOT_FILES = new Set(['db', 'db-lock', 'db.lock']);

export interface Manifest {
  format: number;
  app: 'tutorlane';
  store: 'embedded';
  createdAt: string;
}

/** "2026-11-27T11-33-46Z": a moment that sorts as text and is safe in a file name everywhere. */
export const fileTimestamp = (at: Date) =>
  at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');

export const backupFileName = (at: Date) => `tutorlane-backup-${fileTimestamp(at)}.tar.gz`;

/** The files of DATA_DIR to keep beside the database, as paths relative to it. */
export function dataDirFiles(dataDir: string, skipDirs: string[]): string[] {
  const skipped = new Set(skipDirs.map((dir) => relative(dataDir, dir)).filter((dir) => dir !== ''));
  const found: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(join(dataDir, dir));
    } catch {
      return; // removed while we looked: nothing to keep
    }
    for (const name of names.sort()) {
      const path = dir ? join(dir, name) : name;
      if ((!dir && NOT_FILES.has(name)) || skipped.has(path) || name.endsWith('.partial')) continue;
      let stat: ReturnType<typeof lstatSync>;
      try {
        stat = lstatSync(join(dataDir, path));
      } catch {
        continue;
      }
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) found.push(path);
    }
  };
  walk('');
  return found;
}

/** Packs the database dump and DATA_DIR's other files into one gzipped tarball. */
export async function buildArchive(options: {
  database: Uint8Array;
  dataDir: string;
  /** Folders under DATA_DIR that are not copied (the backups themselves). */
  skipDirs: string[];
  at: Date;
}): Promise<Buffer> {
  const pack = tar.pack();
  const gzip = createGzip();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
    gzip.on('end', resolve);
    gzip.on('error', reject);
    pack.on('error', reject);
  });
  pack.pipe(gzip);
  const add = (name: string, content: Buffer, mode = 0o600) =>
    new Promise<void>((resolve, reject) =>
      pack.entry({ name, mode, mtime: options.at }, content, (error) => (error ? reject(error) : resolve())),
    );
  const manifest: Manifest = {
    format: ARCHIVE_FORMAT,
    app: 'tutorlane',
    store: 'embedded',
    createdAt: options.at.toISOString(),
  };
  await add(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 0o644);
  await add(
    DATABASE_ENTRY,
    Buffer.from(options.database.buffer, options.database.byteOffset, options.database.byteLength),
  );
  for (const path of dataDirFiles(options.dataDir, options.skipDirs)) {
    let content: Buffer;
    try {
      content = readFileSync(join(options.dataDir, path));
    } catch {
      continue; // removed since it was listed (a mail file cleaned up)
    }
    const mode = lstatSync(join(options.dataDir, path), { throwIfNoEntry: false })?.mode ?? 0o600;
    await add(FILES_PREFIX + path.split(sep).join('/'), content, mode & 0o777);
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}
