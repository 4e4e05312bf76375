/**
 * Housekeeping removes a backlog of expired rows bigger than one of its statements may delete
 * (PostgreSQL ends a statement at its second and rolls it back), and nothing that has not expired;
 * a table it cannot clear does not keep it from clearing the others.
 */
import { sql } from 'kysely';
import type { Pool } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLEANUP_BATCH, removeExpired } from '../../src/server/maintenance/cleanup';
import { createTestDatabase, type TestDatabase, testStore } from '../support/test-database';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.destroy();
});

/** The rate limit counters whose key is like `pattern`. */
const countersLike = (pattern: string) =>
  database.db.selectFrom('rate_limits').select('key').where('key', 'like', pattern).execute();

it('clears a backlog of expired counters a batch at a time, and keeps the live ones', async () => {
  const now = Date.now();
  const expired = 2 * CLEANUP_BATCH + 10;
  // As a server back from a long outage, or counters filled by an attack, would find them.
  await sql`insert into rate_limits (key, points, expire)
    select 'backlog:' || n, 1, ${now - 60_000} from generate_series(1, ${expired}) as n`.execute(database.db);
  await sql`insert into rate_limits (key, points, expire)
    select 'live:' || n, 1, ${now + 60_000} from generate_series(1, 5) as n`.execute(database.db);

  // Each statement the pass sends, with the rows it deleted from the counters.
  const deleted: number[] = [];
  const watched = database.db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      if (args.result.numAffectedRows !== undefined && deleted.length < 100)
        deleted.push(Number(args.result.numAffectedRows));
      return args.result;
    },
  });
  await removeExpired(watched, new Date(now));

  expect(await countersLike('backlog:%')).toHaveLength(0);
  expect(await countersLike('live:%')).toHaveLength(5);
  expect(Math.max(...deleted)).toBeLessThanOrEqual(CLEANUP_BATCH);
  expect(deleted.reduce((sum, rows) => sum + rows, 0)).toBe(expired);
});

if (testStore === 'postgres') {
  it('still clears the other tables when one of them cannot be cleared within its second', async () => {
    const now = Date.now();
    await sql`insert into rate_limits (key, points, expire) values ('stale', 1, ${now - 60_000})`.execute(
      database.db,
    );
    // Another session holds the sessions table: their delete waits past its second and is ended.
    const holder = await (database as unknown as { pool: Pool }).pool.connect();
    try {
      await holder.query('begin; lock table sessions in access exclusive mode');
      await expect(removeExpired(database.db, new Date(now))).rejects.toThrow(/statement timeout/);
      expect(await countersLike('stale')).toHaveLength(0);
    } finally {
      await holder.query('rollback');
      holder.release();
    }
  });
}
