/**
 * What autovacuum would do, for the embedded store. PGlite is PostgreSQL without its background
 * workers, so nothing refreshes the planner's statistics or the full-text index's own counts (kept
 * by VACUUM) as tutors arrive. Without them the planner misjudges the search index and reads every
 * profile for every search. Once a table's row count has drifted from
 * what the planner last saw by more than autovacuum's default threshold (50 rows + 10%), we run the
 * VACUUM ANALYZE autovacuum would have run. PostgreSQL servers have autovacuum and skip this.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema';

/** The tables whose plans depend on statistics: tutor search filters and ranks tutor_profiles. */
const WATCHED_TABLES = ['tutor_profiles'] as const;

const THRESHOLD_ROWS = 50;
const THRESHOLD_FRACTION = 0.1;

export function statisticsAreStale(plannerRows: number, liveRows: number): boolean {
  // reltuples is -1 until a table is first vacuumed or analysed.
  if (plannerRows < 0) return liveRows > 0;
  return Math.abs(liveRows - plannerRows) > THRESHOLD_ROWS + THRESHOLD_FRACTION * plannerRows;
}

/** Vacuums and analyses every watched table whose statistics are stale; returns their names. */
export async function refreshStaleStatistics(db: Kysely<DB>): Promise<string[]> {
  const refreshed: string[] = [];
  for (const table of WATCHED_TABLES) {
    const { rows } = await sql<{ plannerRows: number; liveRows: string }>`
      select c.reltuples as "plannerRows", (select count(*) from ${sql.table(table)}) as "liveRows"
      from pg_class c where c.oid = ${table}::regclass`.execute(db);
    const row = rows[0];
    if (!row || !statisticsAreStale(Number(row.plannerRows), Number(row.liveRows))) continue;
    await sql`vacuum analyze ${sql.table(table)}`.execute(db);
    refreshed.push(table);
  }
  return refreshed;
}
