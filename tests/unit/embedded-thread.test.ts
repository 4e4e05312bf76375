/**
 * The embedded database's thread (src/server/db/embedded-thread.ts, pglite-worker.ts): what goes in
 * comes back as PGlite gives it, errors keep PostgreSQL's fields, prepared statements survive a
 * table changing shape, transactions stay whole, and the calling thread keeps running while the
 * database works.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EmbeddedDatabaseError,
  type EmbeddedQueries,
  embeddedDialect,
  startEmbeddedThread,
} from '../../src/server/db/embedded-thread';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tutorlane-thread-'));
  dirs.push(dir);
  return dir;
}

let thread: EmbeddedQueries;
let dataDir: string;
let db: Kysely<Record<string, Record<string, unknown>>>;

beforeAll(async () => {
  dataDir = tempDir();
  thread = await startEmbeddedThread({ dbDir: join(dataDir, 'db'), templateFile: undefined });
  db = new Kysely({ dialect: embeddedDialect(thread) });
  await thread.query(
    `create table things (id text primary key, at timestamptz, bytes bytea, tags text[], meta jsonb,
      done boolean, amount integer)`,
    [],
  );
}, 60_000);

afterAll(async () => {
  await db.destroy();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the embedded database thread', () => {
  it('returns every kind of value as it was stored', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    await thread.query(
      'insert into things (id, at, bytes, tags, meta, done, amount) values ($1, $2, $3, $4, $5, $6, $7)',
      ['a', at, new Uint8Array([0, 1, 255]), ['x', 'y z'], { nested: [1, 'two'] }, false, 42],
    );
    const { rows } = await thread.query('select * from things where id = $1', ['a']);
    expect(rows).toEqual([
      {
        id: 'a',
        at,
        bytes: new Uint8Array([0, 1, 255]),
        tags: ['x', 'y z'],
        meta: { nested: [1, 'two'] },
        done: false,
        amount: 42,
      },
    ]);
    // The second call runs the statement prepared by the first: the same answer.
    expect((await thread.query('select * from things where id = $1', ['a'])).rows).toEqual(rows);
  });

  it('counts the rows a statement changed', async () => {
    await thread.query('insert into things (id, amount) values ($1, $2), ($3, $4)', ['b', 1, 'c', 1]);
    const result = await thread.query('update things set amount = amount + $1 where id in ($2, $3)', [
      1,
      'b',
      'c',
    ]);
    expect(result.affectedRows).toBe(2);
  });

  it("keeps PostgreSQL's error fields, and the next query still runs", async () => {
    const error = await thread.query('insert into things (id) values ($1)', ['a']).catch((e) => e);
    expect(error).toBeInstanceOf(EmbeddedDatabaseError);
    expect(error).toMatchObject({ code: '23505', constraint: 'things_pkey' });
    expect(error.message).toMatch(/duplicate key/);
    const syntax = await thread.query('select from where $1', [1]).catch((e) => e);
    expect(syntax).toMatchObject({ code: '42601' });
    expect((await thread.query('select id from things where id = $1', ['a'])).rows).toEqual([{ id: 'a' }]);
  });

  it('prepares a statement again when its table changes shape', async () => {
    const before = await thread.query('select * from things where id = $1', ['b']);
    expect(Object.keys(before.rows[0] as object)).not.toContain('note');
    await thread.query('alter table things add column note text', []);
    const after = await thread.query('select * from things where id = $1', ['b']);
    expect(after.rows[0]).toMatchObject({ id: 'b', note: null });
  });

  it('keeps a transaction whole: a rollback undoes it, and nobody else runs inside it', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('things').values({ id: 'rolled-back' }).execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await thread.query('select id from things where id = $1', ['rolled-back'])).rows).toEqual([]);

    // Two transactions at once: each reads, waits, then writes what it read plus one. Run one after
    // the other, as one connection must, they add two; interleaved, they would add one.
    await thread.query('insert into things (id, amount) values ($1, $2)', ['counter', 0]);
    const addOne = () =>
      db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('things')
          .select('amount')
          .where('id', '=', 'counter')
          .executeTakeFirstOrThrow();
        await new Promise((resolve) => setTimeout(resolve, 20));
        await trx
          .updateTable('things')
          .set({ amount: (row.amount as number) + 1 })
          .where('id', '=', 'counter')
          .execute();
      });
    await Promise.all([addOne(), addOne()]);
    const { rows } = await thread.query('select amount from things where id = $1', ['counter']);
    expect(rows).toEqual([{ amount: 2 }]);
  });

  it('leaves the calling thread free while a query runs', async () => {
    const events: string[] = [];
    const slow = sql`select pg_sleep(0.3)`.execute(db).then(() => events.push('query done'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    events.push('timer ran');
    await slow;
    expect(events).toEqual(['timer ran', 'query done']);
  });
});

describe('opening and closing the embedded database thread', () => {
  it('keeps what was written across a close and a reopen, and refuses queries once closed', async () => {
    const dbDir = join(tempDir(), 'db');
    const first = await startEmbeddedThread({ dbDir, templateFile: undefined });
    await first.query('create table notes (body text)', []);
    await first.query('insert into notes values ($1)', ['kept']);
    await first.close();
    await expect(first.query('select 1', [])).rejects.toThrow('The embedded database is closed');

    const second = await startEmbeddedThread({ dbDir, templateFile: undefined });
    expect((await second.query('select body from notes', [])).rows).toEqual([{ body: 'kept' }]);
    await second.close();
  }, 60_000);

  it('rejects with the reason when the database cannot open', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'db'), 'not a folder');
    await expect(startEmbeddedThread({ dbDir: join(dir, 'db'), templateFile: undefined })).rejects.toThrow();
  }, 60_000);
});
