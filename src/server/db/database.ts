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
import { pgModule } from './pg-module';
import { PLANNER_SETTINGS } from './planner-settings';
import type { DB } from './schema';

export type StoreKind = 'embedded' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  kind: StoreKind;
  /** The pg pool on PostgreSQL (rate limit counters live there too); undefined when embedded. */
  pool: pg.Pool | undefined;
  /** Resolves once the database is open and migrated; queries sent before then wait for it. */
  ready: Promise<void>;
  /** Resolves when the database answers a trivial query within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * The readiness question, asked once a second by the health check: resolves while the database
   * can answer, however busy it is; rejects when it is down, closed or has stopped answering. A
   * query that waits its turn behind others is not an outage (see `probe` in each store below).
   */
  probe(): Promise<void>;
  /** Waits for `ready` to settle, then closes. */
  close(): Promise<void>;
  /**
   * The embedded store's data folder as one uncompressed tarball (PGlite's dumpDataDir), taken
   * consistently while the server runs; undefined on PostgreSQL, which has pg_dump.
   */
  dump: (() => Promise<Uint8Array>) | undefined;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** A migrated embedded database (scripts/build-db-template.ts) to start from when DATA_DIR is new. */
  templateFile?: string | undefined;
  /** Skip running migrations (tests that copy an already migrated template). */
  migrate?: boolean;
  poolSize?: number;
  /**
   * How long the embedded store may owe an answer without giving any before `probe` says it has
   * stopped answering; tests shorten it. Default EMBEDDED_STALL_MS.
   */
  stallMs?: number;
}

/**
 * The embedded store is stuck, rather than busy, once it owes an answer and has answered nothing,
 * no query and no backup, for this long. Its queries take milliseconds, and a backup reads a
 * school's data (tens of megabytes) in a second or so; half a minute of silence is a thread that
 * will not answer. A thread that ends is reported at once, not after this.
 */
export const EMBEDDED_STALL_MS = 30_000;

/** How long the health check waits for its probe query before judging by the store's progress. */
const PROBE_WAIT_MS = 1000;

/**
 * Starts opening the database and returns at once: the server serves what needs no database
 * meanwhile. The embedded store's data folder lock is taken before this returns, so a second
 * server on the same folder stops before it answers anything. When `ready` rejects, the database
 * is already closed.
 */
export function startDatabase(options: OpenDatabaseOptions): Database {
  const store = options.databaseUrl
    ? startPostgres(options.databaseUrl, options.poolSize ?? 10)
    : startEmbedded(options.dataDir, options.templateFile, options.stallMs ?? EMBEDDED_STALL_MS);
  const ready = store.opened.then(async () => {
    if (options.migrate !== false) await migrateToLatest(store.database.db as Kysely<unknown>);
  });
  const failed = ready.catch(async (error) => {
    await store.database.close().catch(() => {});
    throw error;
  });
  failed.catch(() => {});
  return { ...store.database, ready: failed };
}

/** Opens the database and waits until it is open and migrated. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const database = startDatabase(options);
  await database.ready;
  return database;
}

type StartedStore = { database: Omit<Database, 'ready'>; opened: Promise<void> };

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `pg` reads a bigint as a string (it may not fit a JavaScript number); PGlite reads it as a number.
 * The ids and counts here fit with room to spare, so both stores give numbers, and code that
 * compares an id works on either.
 */
const typesLikeTheEmbeddedStore = ({ types }: typeof pg) => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === types.builtins.INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
});

/** How long PostgreSQL may take over one statement (newPool; decision 0043). */
const STATEMENT_LIMIT_MS = 1000;

/**
 * The errors of the two waits newPool sets, a query past `query_timeout` and no pooled connection
 * free within `connectionTimeoutMillis`: pg gives them no code, only these messages. Either, or
 * PostgreSQL's own `statement_timeout`, means PostgreSQL did not answer in time, whether it is
 * down or only busy.
 */
const UNANSWERED_IN_TIME = new Set(['Query read timeout', 'timeout exceeded when trying to connect']);
/** PostgreSQL's own code for a statement it gave up at `statement_timeout` (query_canceled). */
const GAVE_UP = '57014';

/**
 * Whether `error`, or an error it was raised for (its `cause`, as Better Auth's "Failed to get
 * session" carries pg's), is one of those waits.
 */
export function isUnansweredInTime(error: unknown): boolean {
  // A few steps of causes are all a library wraps; a cycle cannot hold it.
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (UNANSWERED_IN_TIME.has(current.message) || (current as { code?: unknown }).code === GAVE_UP)
      return true;
    current = current.cause;
  }
  return false;
}

function newPool(url: string, max: number, onConnect?: (client: pg.ClientBase) => Promise<void>) {
  const driver = pgModule();
  const pool = new driver.Pool({
    types: typesLikeTheEmbeddedStore(driver),
    connectionString: url,
    max,
    connectionTimeoutMillis: 1000,
    idleTimeoutMillis: 30_000,
    // A statement gets 1 s, then the request gets a 503 (isUnansweredInTime). PostgreSQL keeps
    // that limit itself (statement_timeout, set in startPostgres), so that it ends the statement
    // (waiting on a lock, say) and the connection is free again: a statement pg merely stopped
    // waiting for would go on there, and every query lent that connection would queue behind it.
    // pg's own wait, longer by the time PostgreSQL's answer takes to arrive, is for a database
    // that cannot say so: one that stops answering without closing the connection (a frozen
    // host, a network partition), which must still get its 503 within 2 s. Keep-alive lets dead
    // connections surface.
    // Migrations share the pool and its limits: one that rewrites a large table would need a
    // connection of its own.
    query_timeout: STATEMENT_LIMIT_MS + 100,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(onConnect ? { onConnect } : {}),
  });
  // An idle client losing its server emits here; without a listener it would crash the process.
  pool.on('error', () => {});
  return pool;
}

function startPostgres(url: string, poolSize: number): StartedStore {
  // Set on each new connection before it is lent out, by a query rather than as startup
  // parameters, which PgBouncer refuses (docs/scaling.md puts it in front). Should the server
  // refuse a setting, the connection keeps PostgreSQL's defaults: slower plans, or pg's own wait
  // alone, never a failed request.
  const settings = [...PLANNER_SETTINGS, ['statement_timeout', String(STATEMENT_LIMIT_MS)]];
  const pool = newPool(url, poolSize, async (client) => {
    for (const [name, value] of settings) {
      await client.query('select set_config($1, $2, false)', [name, value]).catch(() => {});
    }
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // The health check's own connection, opened at its first probe: requests that fill the pool
  // make the server busy, not PostgreSQL down, so the probe never waits for a pooled connection.
  // What it does meet is PostgreSQL itself: refused, failing or silent for a second is a 503.
  let probePool: pg.Pool | undefined;
  let closed = false;
  const database = {
    db,
    kind: 'postgres' as const,
    pool,
    ping: (timeoutMs = 2000) =>
      withTimeout(
        sql`select 1`.execute(db).then(() => undefined),
        timeoutMs,
        'PostgreSQL',
      ),
    probe: () => {
      if (closed) return Promise.reject(new Error('The database is closed'));
      probePool ??= newPool(url, 1);
      return withTimeout(
        probePool.query('select 1').then(() => undefined),
        1500,
        'PostgreSQL',
      );
    },
    close: async () => {
      closed = true;
      await probePool?.end().catch(() => {});
      await db.destroy();
    },
    dump: undefined,
  };
  return { database, opened: Promise.resolve() };
}

/** What the PGlite thread (./pglite-thread.mjs) offers, as Comlink hands it over. */
interface PgliteThread {
  open(): Promise<void>;
  query(sql: string, params: unknown[]): Promise<QueryOutcome>;
  close(): Promise<void>;
  dump(): Promise<Uint8Array>;
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

function startEmbedded(dataDir: string, templateFile: string | undefined, stallMs: number): StartedStore {
  const lock: DataDirLock = lockDataDir(dataDir);
  const worker = new Worker(new URL('./pglite-thread.mjs', import.meta.url), {
    workerData: { dbDir: join(dataDir, 'db'), templateFile, settings: PLANNER_SETTINGS },
  });
  const thread = Comlink.wrap<PgliteThread>(nodeEndpoint(worker));
  // A thread that stops (out of memory, a crash in PGlite) fails what is waiting instead of hanging
  // it. The thread keeps the process alive only while it owes an answer: an open database alone
  // must not keep a script or a test run from ending.
  const waiting = new Set<(error: Error) => void>();
  // When the thread last answered anything, or was handed work while it owed nothing: with work
  // owed, the time since then is how long it has been silent.
  let progressAt = Date.now();
  let stopped: Error | undefined;
  const stop = (reason: Error) => {
    stopped ??= reason;
    for (const reject of waiting) reject(stopped);
    waiting.clear();
  };
  // An error thrown in the thread would otherwise be rethrown here and end the whole process; it
  // ends the database instead, and every later query says why.
  worker.on('error', (error) =>
    stop(new Error(`The embedded database stopped: ${error.message}`, { cause: error })),
  );
  worker.once('exit', (code) => stop(new Error(`The embedded database stopped (thread exit code ${code})`)));
  const call = <T>(work: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      if (stopped) return reject(stopped);
      if (waiting.size === 0) {
        worker.ref();
        progressAt = Date.now();
      }
      waiting.add(reject);
      // Settled before the caller resumes, so a caller that holds the thread itself keeps it held.
      const settle = () => {
        progressAt = Date.now();
        waiting.delete(reject);
        if (waiting.size === 0) worker.unref();
      };
      work().then(
        (value) => {
          settle();
          resolve(value);
        },
        (error: unknown) => {
          settle();
          reject(error);
        },
      );
    });
  const opened = call(() => thread.open());
  opened.catch(() => {});

  // kysely-pglite-dialect needs only PGlite's query() and close(), which the thread provides.
  const pglite = {
    async query(sql: string, params: unknown[] = []) {
      await opened;
      const outcome = await call(() => thread.query(sql, params));
      if (outcome.failure)
        throw Object.assign(new EmbeddedQueryError(outcome.failure.message), outcome.failure);
      return { rows: outcome.rows ?? [], affectedRows: outcome.affectedRows };
    },
    async close() {
      const ended = new Promise((resolve) => worker.once('exit', resolve));
      try {
        await call(() => thread.close());
        // The thread ends itself once PGlite is closed; it holds the process until then.
        worker.ref();
        await ended;
      } catch (error) {
        await worker.terminate();
        throw error;
      }
    },
  };
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite as unknown as PGlite) });
  let closed = false;
  // The probe's query, sent the way requests' queries are (Kysely's one connection to the thread)
  // and at most one at a time, so however long it waits the probe adds nothing to the queue.
  let probeQuery: Promise<void> | undefined;
  let probeSentAt = 0;
  const database = {
    db,
    kind: 'embedded' as const,
    pool: undefined,
    ping: (timeoutMs = 2000) => {
      if (closed) return Promise.reject(new Error('The embedded database is closed'));
      return withTimeout(
        sql`select 1`.execute(db).then(() => undefined),
        timeoutMs,
        'The embedded database',
      );
    },
    // Busy is told from stuck by progress, not by a deadline: the probe's query waits its turn
    // behind every query queued before it, and behind a backup, which holds the thread for a
    // second or more. While it waits, the store is answering as long as the thread keeps handing
    // back answers to others; only a thread that has stopped, or that owes an answer and has given
    // none for stallMs (a query or a transaction that never ends), cannot answer.
    probe: async () => {
      if (closed) throw new Error('The embedded database is closed');
      if (stopped) throw stopped;
      if (!probeQuery) {
        probeSentAt = Date.now();
        probeQuery = sql`select 1`
          .execute(db)
          .then(() => undefined)
          .finally(() => {
            probeQuery = undefined;
          });
        probeQuery.catch(() => {});
      }
      let timer: NodeJS.Timeout | undefined;
      const answered = await Promise.race([
        probeQuery.then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), PROBE_WAIT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      if (answered) return;
      if (stopped) throw stopped;
      // Silent since the probe was sent or the thread last answered, whichever came later: a
      // connection held by a transaction that never goes on owes the thread nothing, yet it stops
      // every query as surely as a stuck thread does.
      const silentMs = Date.now() - Math.max(progressAt, probeSentAt);
      if (silentMs >= stallMs)
        throw new Error(`The embedded database has answered nothing for ${Math.round(silentMs / 1000)} s`);
    },
    // Taken while holding Kysely's one connection to the thread: no transaction is half done and no
    // query runs while PGlite reads its files.
    dump: () =>
      db.connection().execute(async () => {
        if (closed) throw new Error('The embedded database is closed');
        return call(() => thread.dump());
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        // A database that opened is flushed to its data files, so the next start replays nothing.
        if (
          await opened.then(
            () => true,
            () => false,
          )
        )
          await sql`CHECKPOINT`.execute(db);
      } finally {
        await db.destroy().catch(() => worker.terminate());
        lock.release();
      }
    },
  };
  return { database, opened };
}
