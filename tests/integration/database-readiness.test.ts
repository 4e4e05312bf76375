/**
 * Database.probe, the health check's question, on both stores: a database that is busy (a queue
 * of queries, one long query, a full pool) is ready; one that is closed, or that owes an answer
 * and gives none for its stall limit, is not, and is ready again once it moves.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/database';
import type { DB } from '../../src/server/db/schema';
import { createPostgresDatabase } from '../support/postgres-database';

const STALL_MS = 2000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dataDir: string;
let embedded: Database;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tutorlane-readiness-'));
  embedded = await openDatabase({ dataDir, migrate: false, stallMs: STALL_MS });
}, 60_000);

afterAll(async () => {
  await embedded.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The probe's verdict: 'ready', or why not. */
const verdict = (database: Database) =>
  database.probe().then(
    () => 'ready',
    (error: Error) => error.message,
  );

/** A transaction holding the store's one connection until released, running `work` meanwhile. */
function holdConnection(
  database: Database,
  work: (trx: Transaction<DB>) => Promise<unknown> = async () => {},
) {
  let holding = true;
  const held = database.db.transaction().execute(async (trx) => {
    await sql`select 1`.execute(trx);
    while (holding) {
      await work(trx);
      await sleep(10);
    }
  });
  return {
    get holding() {
      return holding;
    },
    async release() {
      holding = false;
      await held;
    },
  };
}

describe('the embedded store', () => {
  it('is ready while its queue moves, even when the probe waits longer than the stall limit', async () => {
    // Queries answered one after another, the connection held throughout: the probe's own query
    // waits behind them all, and only the answers the thread keeps giving tell busy from stuck.
    const busy = holdConnection(embedded, (trx) =>
      sql`select count(*) from generate_series(1, 1000)`.execute(trx),
    );
    const released = sleep(STALL_MS + 1500).then(() => busy.release());
    expect(await verdict(embedded)).toBe('ready');
    await sleep(STALL_MS);
    expect(busy.holding).toBe(true);
    expect(await verdict(embedded)).toBe('ready');
    await released;
  });

  it('is ready through a short silence, not once it outlasts the stall limit, and again when work moves', async () => {
    // The connection held while nothing reaches the thread: a long query, a backup or a
    // transaction waiting on something that never comes looks the same from outside.
    const silent = holdConnection(embedded);
    expect(await verdict(embedded)).toBe('ready');
    await sleep(STALL_MS);
    expect(await verdict(embedded)).toMatch(/has answered nothing for \d+ s/);
    await silent.release();
    expect(await verdict(embedded)).toBe('ready');
  });

  it('is ready while a backup is read', async () => {
    const dump = embedded.dump?.();
    expect(await verdict(embedded)).toBe('ready');
    expect((await dump)?.byteLength).toBeGreaterThan(0);
  });

  it('is not ready once closed', async () => {
    await embedded.close();
    expect(await verdict(embedded)).toBe('The embedded database is closed');
  });
});

describe('PostgreSQL', () => {
  it('is ready while requests hold every pooled connection, and not once closed', async (context) => {
    const created = await createPostgresDatabase('tutorlane_readiness');
    if (!created) {
      context.skip('no PostgreSQL answers on 127.0.0.1:5432');
      return;
    }
    onTestFinished(() => created.drop());
    const database = await openDatabase({
      dataDir: '',
      databaseUrl: `postgres://postgres@127.0.0.1:5432/${created.name}`,
      migrate: false,
      poolSize: 1,
    });
    let release = () => {};
    const held = database.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    // A query from the pool now waits for the one connection, and gives up after a second.
    await expect(database.ping(1500)).rejects.toThrow();
    expect(await verdict(database)).toBe('ready');
    release();
    await held;
    await database.close();
    expect(await verdict(database)).toBe('The database is closed');
  });
});
