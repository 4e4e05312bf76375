/**
 * Opens the database: PostgreSQL through a pg pool when DATABASE_URL is set, otherwise the embedded
 * PGlite under DATA_DIR/db. Both speak the same PostgreSQL dialect through Kysely, so every query and
 * migration is written once.
 */
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import { type DataDirLock, lockDataDir } from './data-dir-lock';
import { type EmbeddedQueries, embeddedDialect, startEmbeddedThread } from './embedded-thread';
import { migrateToLatest } from './migrate';
import type { DB } from './schema';
import { SESSION_SETTINGS_SQL } from './session-settings';

export type StoreKind = 'embedded' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  kind: StoreKind;
  /** The pg pool when on PostgreSQL (rate limiter counters live there too). */
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
// pay for pg, nor one on PostgreSQL for PGlite (issue #6, start-up).
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
  });
  // An idle client losing its server emits here; without a listener it would crash the process.
  pool.on('error', () => {});
  // Queued on the new connection before the query it was opened for. Should the server refuse the
  // setting, the connection keeps PostgreSQL's defaults: slower plans, never a failed request.
  pool.on('connect', (client) => {
    client.query(SESSION_SETTINGS_SQL).catch(() => {});
  });
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

async function openEmbedded(dataDir: string, templateFile: string | undefined): Promise<Database> {
  const lock: DataDirLock = lockDataDir(dataDir);
  let thread: EmbeddedQueries;
  try {
    // PGlite runs on a thread of its own (./pglite-worker.ts), so its work never holds up requests.
    thread = await startEmbeddedThread({ dbDir: join(dataDir, 'db'), templateFile });
  } catch (error) {
    lock.release();
    throw error;
  }
  const db = new Kysely<DB>({ dialect: embeddedDialect(thread) });
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
