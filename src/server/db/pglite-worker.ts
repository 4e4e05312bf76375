/**
 * The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, not on
 * the thread that serves HTTP. A query's WebAssembly work then never holds up other requests, and
 * the request thread stays as lean as it is on PostgreSQL, where the database is another process
 * (issue #6: the health figure was 0.72x of a bare server with PGlite on the request thread, 0.85x
 * on PostgreSQL). See docs/decisions/0006-embedded-database-thread.md.
 *
 * Messages: the opener sends `WorkerStart` as workerData; this thread answers `ready` or `failed`,
 * then one `WorkerReply` per `WorkerRequest`, one at a time in the order they came. Queries run
 * through ./pglite-queries.ts (statements prepared once).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { createQueryRunner } from './pglite-queries';
import { SESSION_SETTINGS_SQL } from './session-settings';

export interface WorkerStart {
  dbDir: string;
  /** A migrated database (dist/db-template.tar.gz) to start from when dbDir does not exist yet. */
  templateFile: string | undefined;
}

export type WorkerRequest =
  | { type: 'query'; id: number; sql: string; params: readonly unknown[] }
  | { type: 'close'; id: number };

/** What a failed query's error carries across: PostgreSQL's fields (code, detail, constraint...). */
export interface QueryFailure {
  message: string;
  fields: Record<string, unknown>;
}

export type WorkerReply =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; rows: unknown[]; affectedRows: number | undefined }
  | { type: 'error'; id: number; error: QueryFailure }
  | { type: 'closed'; id: number };

/** PostgreSQL's error fields, as pg-protocol's DatabaseError names them. */
const ERROR_FIELDS = [
  'code',
  'severity',
  'detail',
  'hint',
  'position',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'where',
  'routine',
] as const;

function failure(error: unknown): QueryFailure {
  const source = (error ?? {}) as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const name of ERROR_FIELDS) if (source[name] !== undefined) fields[name] = source[name];
  return { message: error instanceof Error ? error.message : String(error), fields };
}

async function open({ dbDir, templateFile }: WorkerStart): Promise<PGlite> {
  // A new data folder starts from the migrated template, which skips initdb; later starts reopen it.
  const template =
    templateFile && !existsSync(dbDir) && existsSync(templateFile)
      ? new Blob([readFileSync(templateFile)])
      : undefined;
  const pglite = await PGlite.create({ dataDir: dbDir, ...(template ? { loadDataDir: template } : {}) });
  // PGlite is one session for the thread's life: its settings are set once.
  await pglite.exec(SESSION_SETTINGS_SQL);
  return pglite;
}

async function serve(port: NonNullable<typeof parentPort>): Promise<void> {
  let pglite: PGlite;
  try {
    pglite = await open(workerData as WorkerStart);
  } catch (error) {
    port.postMessage({ type: 'failed', message: (error as Error).message } satisfies WorkerReply);
    return;
  }
  const query = createQueryRunner(pglite);
  const answer = async (request: WorkerRequest): Promise<void> => {
    if (request.type === 'close') {
      try {
        await pglite.close();
      } finally {
        port.postMessage({ type: 'closed', id: request.id } satisfies WorkerReply);
        port.close();
      }
      return;
    }
    let reply: WorkerReply;
    try {
      const result = await query(request.sql, request.params);
      reply = { type: 'result', id: request.id, rows: result.rows, affectedRows: result.affectedRows };
    } catch (error) {
      reply = { type: 'error', id: request.id, error: failure(error) };
    }
    port.postMessage(reply);
  };
  // One request at a time: a prepared statement's steps must not interleave with another's.
  let queue = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    queue = queue.then(() => answer(request)).catch(() => {});
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
}

if (parentPort) await serve(parentPort);
