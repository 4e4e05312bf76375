/**
 * The embedded store has no autovacuum: the server refreshes the planner's statistics itself as
 * tables change, so a text search uses the full-text index instead of reading every profile. The
 * same function is harmless on PostgreSQL. And every session plans
 * for data in memory (src/server/db/planner-settings.ts), so a search whose words match many tutors
 * reads its category's index rather than every profile.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateDemoTutors, insertDemoTutors } from '../../src/server/demo/demo-tutors';
import { refreshStaleStatistics } from '../../src/server/maintenance/planner-statistics';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  // On PostgreSQL, autovacuum would otherwise race this test for the same work.
  for (const table of ['tutor_profiles', 'users'])
    await sql`alter table ${sql.table(table)} set (autovacuum_enabled = false)`.execute(database.db);
});
afterAll(async () => {
  await database.destroy();
});

const plannerRows = async () =>
  Number(
    (
      await sql<{
        rows: number;
      }>`select reltuples as rows from pg_class where relname = 'tutor_profiles'`.execute(database.db)
    ).rows[0]?.rows,
  );

const plan = async (query: ReturnType<typeof sql>) =>
  (await sql<Record<string, string>>`explain ${query}`.execute(database.db)).rows
    .map((row) => Object.values(row)[0])
    .join('\n');

const textSearchPlan = () =>
  plan(sql`select user_id from tutor_profiles
    where published and search_document @@ to_tsquery('english', 'algebra:*')`);

it('refreshes stale statistics once tutors arrive, and then leaves them until the table changes', async () => {
  // Whatever the migrations wrote is analysed once; then nothing has changed.
  await refreshStaleStatistics(database.db);
  expect(await refreshStaleStatistics(database.db)).toEqual([]);

  // One tutor: a table analysed on one page, whose rows per page say nothing of the next pages.
  const tutors = generateDemoTutors(2000, 7);
  await insertDemoTutors(database.db, tutors.slice(0, 1), { photos: false });
  expect(await refreshStaleStatistics(database.db)).toContain('tutor_profiles');
  expect(await plannerRows()).toBe(1);

  await insertDemoTutors(database.db, tutors.slice(1), { photos: false });
  // As after a restart (or a seed while the server was down): no count of the writes survives,
  // and the tables' growth on disk still shows them.
  await database.db.connection().execute(async (connection) => {
    await sql`select pg_stat_force_next_flush()`.execute(connection);
    await sql`select pg_stat_reset()`.execute(connection);
  });
  const refreshed = await refreshStaleStatistics(database.db);
  expect(refreshed).toContain('tutor_profiles');
  expect(refreshed).toContain('users');
  expect(await plannerRows()).toBe(2000);
  expect(await textSearchPlan()).toContain('tutor_profiles_search_idx');

  // 100 more is within autovacuum's threshold (50 + 10% of 2,000): nothing to do.
  await insertDemoTutors(database.db, generateDemoTutors(2100, 7).slice(2000), { photos: false });
  expect(await refreshStaleStatistics(database.db)).not.toContain('tutor_profiles');

  // Deleting leaves the file as large as it was: the count of rows changed shows it.
  await database.db.connection().execute(async (connection) => {
    await sql`delete from tutor_profiles where user_id in (
      select user_id from tutor_profiles order by user_id limit 400)`.execute(connection);
    await sql`select pg_stat_force_next_flush()`.execute(connection);
  });
  await expect.poll(() => refreshStaleStatistics(database.db)).toContain('tutor_profiles');
  expect(await plannerRows()).toBe(1700);
}, 60_000);

it('reads the category index for a search whose words match half the tutors, on every connection', async () => {
  // The tutors of the test above: "exam" is in about half of them, Math & Science a quarter.
  const matches = await sql<{ count: string }>`select count(*) from tutor_profiles
    where published and search_document @@ to_tsquery('english', 'exam:*')`.execute(database.db);
  expect(Number(matches.rows[0]?.count)).toBeGreaterThan(700);
  // Side by side, so a PostgreSQL pool answers on several connections.
  const plans = await Promise.all(
    Array.from({ length: 4 }, () =>
      plan(sql`select user_id from tutor_profiles
        where published and search_document @@ to_tsquery('english', 'exam:*')
          and categories @> array['Math & Science']::text[] and hourly_rate between 40 and 90`),
    ),
  );
  for (const found of plans) {
    expect(found).toContain('tutor_profiles_categories_idx');
    expect(found).not.toContain('Seq Scan');
  }
}, 60_000);
