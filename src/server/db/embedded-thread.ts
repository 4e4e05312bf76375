/**
 * The request thread's side of the embedded database (./pglite-worker.ts runs PGlite on a thread
 * of its own): starting that thread, sending it queries, and a Kysely dialect on top, so every
 * query and migration is still written once for both stores.
 *
 * The database has one connection, as PGlite does: Kysely's connection is lent to one caller at a
 * time, so a transaction's statements never interleave with anyone else's.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { QueryFailure, WorkerReply, WorkerRequest, WorkerStart } from './pglite-worker';

/** A failed query, with PostgreSQL's fields (code, detail, constraint...) as pg's errors have them. */
export class EmbeddedDatabaseError extends Error {
  [field: string]: unknown;

  constructor(failure: QueryFailure) {
    super(failure.message);
    this.name = 'EmbeddedDatabaseError';
    Object.assign(this, failure.fields);
  }
}

interface Pending {
  resolve: (reply: WorkerReply) => void;
  reject: (error: Error) => void;
}

/** What Kysely's dialect below needs of an embedded database: the thread, or PGlite itself. */
export interface EmbeddedQueries {
  query(sql: string, params: readonly unknown[]): Promise<{ rows: unknown[]; affectedRows?: number }>;
  /** Closes PGlite (which flushes what it holds) and, for the thread, ends it. */
  close(): Promise<void>;
}

// In the server bundle this module and the worker both sit in dist/server. Under tsx and Vitest
// they are the TypeScript sources: the thread loads its module through tsx (a thread does not
// take --import from its options on Node 20).
const fromSources = import.meta.url.endsWith('.ts');

function createWorker(start: WorkerStart): Worker {
  if (!fromSources) return new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData: start });
  // tsx's ES module API (require.resolve finds its CommonJS twin, whose loader paths are wrong
  // when imported); tsImport loads the TypeScript module with tsx's loader, in this thread only.
  const api = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  const tsx = JSON.stringify(pathToFileURL(api).href);
  const file = JSON.stringify(new URL('./pglite-worker.ts', import.meta.url).href);
  const source = `import(${tsx}).then(({ tsImport }) => tsImport(${file}, ${file}))`;
  return new Worker(source, { eval: true, workerData: start });
}

/** Starts the database thread; resolves once PGlite is open there, rejects if it cannot open. */
export function startEmbeddedThread(start: WorkerStart): Promise<EmbeddedQueries> {
  const worker = createWorker(start);
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let stopped: Error | undefined;

  // The thread keeps the process alive only while it owes an answer: an open database alone must
  // not stop a script or a test run from ending.
  const settle = (id: number) => {
    pending.delete(id);
    if (pending.size === 0) worker.unref();
  };
  const send = (request: WorkerRequest): Promise<WorkerReply> => {
    if (stopped) return Promise.reject(stopped);
    if (pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      pending.set(request.id, { resolve, reject });
      worker.postMessage(request);
    });
  };
  const stop = (error: Error) => {
    stopped ??= error;
    for (const waiter of pending.values()) waiter.reject(stopped);
    pending.clear();
  };

  const thread: EmbeddedQueries = {
    async query(sql, params) {
      const reply = await send({ type: 'query', id: nextId++, sql, params });
      if (reply.type === 'error') throw new EmbeddedDatabaseError(reply.error);
      if (reply.type !== 'result')
        throw new Error(`Unexpected reply from the database thread: ${reply.type}`);
      return reply.affectedRows === undefined
        ? { rows: reply.rows }
        : { rows: reply.rows, affectedRows: reply.affectedRows };
    },
    async close() {
      if (stopped) return;
      await send({ type: 'close', id: nextId++ });
      stop(new Error('The embedded database is closed'));
      await worker.terminate();
    },
  };

  return new Promise((resolve, reject) => {
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'ready') {
        if (pending.size === 0) worker.unref();
        return resolve(thread);
      }
      if (reply.type === 'failed') {
        stop(new Error(reply.message));
        void worker.terminate();
        return reject(new Error(reply.message));
      }
      const waiter = pending.get(reply.id);
      if (!waiter) return;
      settle(reply.id);
      waiter.resolve(reply);
    });
    worker.on('error', (error) => {
      stop(new Error(`The embedded database stopped: ${error.message}`));
      reject(error);
    });
    worker.on('exit', (code) => {
      const error = new Error(`The embedded database stopped (thread exit code ${code})`);
      stop(error);
      reject(error);
    });
  });
}

class EmbeddedConnection implements DatabaseConnection {
  constructor(private readonly database: EmbeddedQueries) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.database.query(compiled.sql, compiled.parameters);
    const rows = result.rows as R[];
    return result.affectedRows ? { rows, numAffectedRows: BigInt(result.affectedRows) } : { rows };
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiled);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }
}

class EmbeddedDriver implements Driver {
  private readonly connection: EmbeddedConnection;
  private lent = false;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly database: EmbeddedQueries) {
    this.connection = new EmbeddedConnection(database);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.lent) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.lent = true;
    return this.connection;
  }

  async releaseConnection(): Promise<void> {
    this.lent = false;
    this.waiting.shift()?.();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await this.raw(connection, `begin${isolation}`);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.raw(connection, 'commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.raw(connection, 'rollback');
  }

  async destroy(): Promise<void> {
    await this.database.close();
  }

  private raw(connection: DatabaseConnection, sql: string) {
    return connection.executeQuery(CompiledQuery.raw(sql));
  }
}

/** Kysely over an embedded database: PostgreSQL's adapter, compiler and introspector. */
export function embeddedDialect(database: EmbeddedQueries): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new EmbeddedDriver(database),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
  };
}
