/**
 * src/server/db/pglite-queries.ts builds results itself instead of through PGlite's query(): for
 * every kind of statement, with parameters and without, what it answers must be what query()
 * answers, rows, values, field list and counts alike, and errors must carry the same fields.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryRunner, type QueryRunner } from '../../src/server/db/pglite-queries';

let pglite: PGlite;
let run: QueryRunner;

beforeAll(async () => {
  pglite = await PGlite.create();
  run = createQueryRunner(pglite);
  await pglite.exec(`
    create table kinds (
      id integer primary key, name text, at timestamptz, day date, big bigint, price numeric(8, 2),
      ratio double precision, bytes bytea, tags text[], counts integer[], meta jsonb, done boolean,
      ref uuid
    );
    insert into kinds values
      (1, 'Ada', '2026-01-02T03:04:05.678Z', '2026-01-02', 9007199254740993, 12.50, 0.25,
       '\\x00ff', '{a,"b c"}', '{1,2}', '{"x": [1, "two"]}', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
      (2, null, null, null, null, null, null, null, null, null, null, null, null);
  `);
}, 60_000);

afterAll(async () => {
  await pglite.close();
});

/** What a statement answers, run inside a transaction that is rolled back: both runs see one state. */
async function answer(query: QueryRunner, sql: string, params: unknown[]) {
  const alone = /^(begin|commit)$/.test(sql);
  if (!alone) await query('begin', []);
  try {
    const { rows, affectedRows, fields } = await query(sql, params);
    return { rows, affectedRows, fields };
  } finally {
    if (!alone) await query('rollback', []);
  }
}
const byQuery: QueryRunner = (sql, params) => pglite.query(sql, [...params]);

describe('queries on PGlite, prepared and parsed by us', () => {
  const statements: [string, unknown[]][] = [
    ['select * from kinds order by id', []],
    ['select * from kinds where id = $1', [1]],
    ['select * from kinds where id = $1', [2]],
    ['select * from kinds where id = $1', [3]],
    ['select id, name as id from kinds order by 1', []],
    ['select count(*) as n, sum(price) as total from kinds where name = any($1::text[])', [['Ada', 'Bo']]],
    [
      'select $1::jsonb as doc, $2::timestamptz as at, $3::bytea as raw',
      [{ k: [1, null] }, new Date(0), new Uint8Array([7])],
    ],
    ['update kinds set done = $1 where id >= $2', [false, 1]],
    ['update kinds set done = true where id = 1', []],
    ['insert into kinds (id, name) values ($1, $2), ($3, $4)', [3, 'Cy', 4, null]],
    ['delete from kinds where id > 1', []],
    ['begin', []],
    ['commit', []],
  ];

  it.each(statements)('answers %s as query() does', async (sql, params) => {
    const ours = await answer(run, sql, params);
    expect(ours).toEqual(await answer(byQuery, sql, params));
    if (/^(insert|update|delete)/.test(sql)) expect(ours.affectedRows).toBeGreaterThan(0);
  });

  it('parses values into the types query() gives', async () => {
    const { rows } = await run('select * from kinds where id = $1', [1]);
    expect(rows[0]).toMatchObject({
      at: new Date('2026-01-02T03:04:05.678Z'),
      big: 9007199254740993n,
      bytes: new Uint8Array([0, 255]),
      tags: ['a', 'b c'],
      counts: [1, 2],
      meta: { x: [1, 'two'] },
      done: expect.any(Boolean),
    });
  });

  it('fails as query() does, with the same error fields, with parameters and without', async () => {
    for (const [sql, params] of [
      ['insert into kinds (id) values ($1)', [1]],
      ['insert into kinds (id) values (1)', []],
      ['select nope from kinds', []],
      ['select 1; select 2', []],
    ] as [string, unknown[]][]) {
      const ours = await run(sql, params).catch((error: Error) => error);
      const theirs = (await pglite.query(sql, params).catch((error: Error) => error)) as Error & {
        code: string;
      };
      expect(theirs).toBeInstanceOf(Error);
      expect(ours).toBeInstanceOf(Error);
      expect(ours).toMatchObject({ message: theirs.message, code: theirs.code });
    }
    // The connection is usable after every failure.
    expect((await run('select 1 as one', [])).rows).toEqual([{ one: 1 }]);
  });
});
