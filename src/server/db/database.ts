/**
 * Opens the database: PostgreSQL through a `pg` pool when DATABASE_URL is set, otherwise the
 * embedded PGlite under DATA_DIR/db, on a thread of its own (./pglite-thread.mjs). Both speak
 * PostgreSQL's dialect through Kysely, so every query and migration is written once. See
 * docs/decisions/0006-embedded-database-path.md for how the embedded store is reached and why.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type pg from 'pg';
import { type DataDirLock, lockDataDir } from './data-dir-lock';
import { migrateToLatest } from './migrate';
import { PLANNER_SETTINGS } from './planner-settings';
import type { DB } from './schema';

export type StoreKind = 'embedded' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  kind: StoreKind;
  /** The pg pool on PostgreSQL (rate limit counters live there too); undefined when embedded. */
  pool: pg.Pool | undefined;
  /** Resolves when the database answers a trivial query within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** A migrated embedded database (scripts/build-db-template.ts) to start from when DATA_DIR is new. */
  templateFile?: string | undefined;
  /** Skip running migrations (tests that copy an already migrated template). */
  migrate?: boolean;
  poolSize?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const database = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : await openEmbedded(options.dataDir, options.templateFile);
  if (options.migrate !== false) {
    try {
      await migrateToLatest(database.db as Kysely<unknown>);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Each store's driver loads only when that store is used: a start on the embedded store does not
// pay for pg.
async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 1000,
    idleTimeoutMillis: 30_000,
    // A database that stops answering without closing the connection (a frozen host, a network
    // partition) must not hang requests: a query gets 1 s, then the request fails and, with the
    // database not answering a ping either, gets a 503. Keep-alive lets dead connections surface.
    // Migrations share the pool and its timeout: one that rewrites a large table would need a
    // connection of its own.
    query_timeout: 1000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Set on each new connection before it is lent out. Should the server refuse a setting, the
    // connection keeps PostgreSQL's defaults: slower plans, never a failed request.
    onConnect: async (client) => {
      for (const [name, value] of PLANNER_SETTINGS) {
        await client.query('select set_config($1, $2, false)', [name, value]).catch(() => {});
      }
    },
  });
  // An idle client losing its server emits here; without a listener it would crash the process.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'postgres',
    pool,
    ping: (timeoutMs = 2000) =>
      withTimeout(
        sql`select 1`.execute(db).then(() => undefined),
        timeoutMs,
        'PostgreSQL',
      ),
    close: () => db.destroy(),
  };
}

/** What the PGlite thread (./pglite-thread.mjs) offers, as Comlink hands it over. */
interface PgliteThread {
  open(): Promise<void>;
  query(sql: string, params: unknown[]): Promise<QueryOutcome>;
  close(): Promise<void>;
}

interface QueryOutcome {
  rows?: unknown[];
  affectedRows?: number;
  failure?: { message: string } & Record<string, unknown>;
}

/** A failed query on the embedded store, with PostgreSQL's fields (code, constraint...) as pg has them. */
export class EmbeddedQueryError extends Error {
  [field: string]: unknown;
}

async function openEmbedded(dataDir: string, templateFile: string | undefined): Promise<Database> {
  const lock: DataDirLock = lockDataDir(dataDir);
  const worker = new Worker(new URL('./pglite-thread.mjs', import.meta.url), {
    workerData: { dbDir: join(dataDir, 'db'), templateFile, settings: PLANNER_SETTINGS },
  });
  const thread = Comlink.wrap<PgliteThread>(nodeEndpoint(worker));
  // A thread that stops (out of memory, a crash in PGlite) fails what is waiting instead of hanging it.
  const stopped = new Promise<never>((_, reject) => {
    worker.once('exit', (code) =>
      reject(new Error(`The embedded database stopped (thread exit code ${code})`)),
    );
  });
  stopped.catch(() => {});
  // The thread keeps the process alive only while it owes an answer: an open database alone must
  // not keep a script or a test run from ending.
  let inFlight = 0;
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    if (inFlight++ === 0) worker.ref();
    try {
      return await Promise.race<T>([work(), stopped]);
    } finally {
      if (--inFlight === 0) worker.unref();
    }
  };
  try {
    await call(() => thread.open());
  } catch (error) {
    await worker.terminate();
    lock.release();
    throw error;
  }

  // kysely-pglite-dialect needs only PGlite's query() and close(), which the thread provides.
  const pglite = {
    async query(sql: string, params: unknown[] = []) {
      const outcome = await call(() => thread.query(sql, params));
      if (outcome.failure)
        throw Object.assign(new EmbeddedQueryError(outcome.failure.message), outcome.failure);
      return { rows: outcome.rows ?? [], affectedRows: outcome.affectedRows };
    },
    async close() {
      try {
        await call(() => thread.close());
      } finally {
        await worker.terminate();
      }
    },
  };
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite as unknown as PGlite) });
  let closed = false;
  return {
    db,
    kind: 'embedded',
    pool: undefined,
    ping: (timeoutMs = 2000) => {
      if (closed) return Promise.reject(new Error('The embedded database is closed'));
      return withTimeout(
        sql`select 1`.execute(db).then(() => undefined),
        timeoutMs,
        'The embedded database',
      );
    },
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        // Flush everything to the data files so the next start replays nothing.
        await sql`CHECKPOINT`.execute(db);
      } finally {
        await db.destroy();
        lock.release();
      }
    },
  };
}
