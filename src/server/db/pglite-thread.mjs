/**
 * The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, so a
 * query's work never holds up the thread that serves HTTP, and pages are served while a first
 * start initialises the database. Its public `query()` is offered to that thread through Comlink;
 * Kysely reaches it there through kysely-pglite-dialect (src/server/db/database.ts).
 *
 * Plain JavaScript that imports only packages, so it runs as it is under tsx, Vitest and the
 * bundle. workerData: { dbDir, templateFile, settings: [name, value][] }.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';

const { dbDir, templateFile, settings } = workerData;

/** PostgreSQL's fields of a failed query, as `pg` gives them, so callers can read its code. */
const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
];

let pglite;

const database = {
  /** Opens the data folder; a new one starts from the migrated template, which skips initdb. */
  async open() {
    const template =
      templateFile && !existsSync(dbDir) && existsSync(templateFile)
        ? new Blob([readFileSync(templateFile)])
        : undefined;
    // btree_gist backs the lessons' exclusion constraints (no two lessons of a tutor overlap).
    pglite = await PGlite.create({
      dataDir: dbDir,
      extensions: { btree_gist },
      ...(template ? { loadDataDir: template } : {}),
    });
    // PGlite is one session for the thread's life: its settings are set once.
    for (const [name, value] of settings)
      await pglite.query('select set_config($1, $2, false)', [name, value]);
  },
  /** A result, or the failure as plain data: an Error would lose PostgreSQL's fields on the way. */
  async query(sql, params) {
    try {
      const { rows, affectedRows } = await pglite.query(sql, params);
      return { rows, affectedRows };
    } catch (error) {
      const failure = { message: error instanceof Error ? error.message : String(error) };
      for (const field of ERROR_FIELDS) if (error?.[field] !== undefined) failure[field] = error[field];
      return { failure };
    }
  },
  /**
   * The data folder as a tarball, read by PGlite itself after a checkpoint. The caller holds the
   * only connection meanwhile (no transaction is open), and the files are read in one go with no
   * query in between, so the copy is the database as of one moment.
   */
  async dump() {
    await pglite.query('CHECKPOINT');
    const file = await pglite.dumpDataDir('none');
    const bytes = new Uint8Array(await file.arrayBuffer());
    return Comlink.transfer(bytes, [bytes.buffer]);
  },
  /** Flushes what PGlite holds to the data files and closes it; the thread then ends. */
  async close() {
    await pglite?.close();
    // After this answer has gone out: with its port closed, the thread has nothing left to do.
    setTimeout(() => parentPort?.close(), 0);
  },
};

if (parentPort) Comlink.expose(database, nodeEndpoint(parentPort));
