/**
 * The embedded store (src/server/db/database.ts): PGlite on its own thread, reached through Comlink
 * and kysely-pglite-dialect. Values come back as they were stored, errors keep PostgreSQL's fields,
 * transactions stay whole, the calling thread keeps running while the database works, and what was
 * written survives a reopen.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/database';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tutorlane-embedded-'));
  dirs.push(dir);
  return dir;
}

let database: Database;
let dataDir: string;
let db: Kysely<Record<string, Record<string, unknown>>>;

beforeAll(async () => {
  dataDir = tempDir();
  database = await openDatabase({ dataDir, migrate: false });
  db = database.db as unknown as typeof db;
  await sql`create table things (id text primary key, at timestamptz, bytes bytea, tags text[],
      meta jsonb, done boolean, amount integer)`.execute(db);
}, 60_000);

afterAll(async () => {
  await database.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the embedded store', () => {
  it('returns every kind of value as it was stored', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    await db
      .insertInto('things')
      .values({
        id: 'a',
        at,
        bytes: new Uint8Array([0, 1, 255]),
        tags: ['x', 'y z'],
        meta: JSON.stringify({ nested: [1, 'two'] }),
        done: false,
        amount: 42,
      })
      .execute();
    const row = await db.selectFrom('things').selectAll().where('id', '=', 'a').executeTakeFirstOrThrow();
    expect(row).toEqual({
      id: 'a',
      at,
      bytes: new Uint8Array([0, 1, 255]),
      tags: ['x', 'y z'],
      meta: { nested: [1, 'two'] },
      done: false,
      amount: 42,
    });
  });

  it("fails a query with PostgreSQL's error code and constraint", async () => {
    await db.insertInto('things').values({ id: 'dup' }).execute();
    const error = await db
      .insertInto('things')
      .values({ id: 'dup' })
      .execute()
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: '23505', constraint: 'things_pkey' });
  });

  it('keeps a transaction whole: nothing of a failed one remains, and others wait for it', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('things').values({ id: 'half' }).execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.selectFrom('things').select('id').where('id', '=', 'half').execute()).toEqual([]);
  });

  it('keeps the calling thread running while a query takes its time', async () => {
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 10);
    const started = performance.now();
    // pg_sleep does not sleep in PGlite: real work takes the time.
    await sql`select count(*) from generate_series(1, 2000000)`.execute(db);
    const took = performance.now() - started;
    clearInterval(timer);
    expect(took).toBeGreaterThan(100);
    // A database on this thread would have held every timer until the query was done.
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(took / 10 / 3));
  });

  it('keeps what was written across a close and a reopen, and frees the folder for the next server', async () => {
    const dir = tempDir();
    const first = await openDatabase({ dataDir: dir, migrate: false });
    await sql`create table notes (body text)`.execute(first.db);
    await sql`insert into notes values ('kept')`.execute(first.db);
    await first.close();
    const second = await openDatabase({ dataDir: dir, migrate: false });
    const { rows } = await sql<{ body: string }>`select body from notes`.execute(second.db);
    await second.close();
    expect(rows).toEqual([{ body: 'kept' }]);
  });

  it('refuses a data folder that is not a database, and leaves it free', async () => {
    const dir = tempDir();
    const { writeFileSync, mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'db'));
    writeFileSync(join(dir, 'db', 'PG_VERSION'), 'not a version');
    await expect(openDatabase({ dataDir: dir, migrate: false })).rejects.toThrow();
    rmSync(join(dir, 'db'), { recursive: true });
    const again = await openDatabase({ dataDir: dir, migrate: false });
    await again.close();
  });
});
