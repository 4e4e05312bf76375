/**
 * What autovacuum would do, for the embedded store. PGlite is PostgreSQL without its background
 * workers, so nothing gathers the planner's statistics as data arrives: a table never analysed is
 * planned from guesses (the ledger's hundreds of thousands of entries as a few pages), and the
 * full-text index's own counts (kept by VACUUM) go stale as tutors arrive. Once a table has changed
 * by more than autovacuum's default threshold (50 rows + 10% of what the planner last saw), we run
 * the ANALYZE autovacuum would have run; `tutor_profiles` is vacuumed too, for its search index.
 * PostgreSQL servers have autovacuum and skip this.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema';

/** Tables also vacuumed: a full-text index keeps its pending entries and counts until VACUUM. */
const VACUUMED_TABLES: readonly string[] = ['tutor_profiles'];

const THRESHOLD_ROWS = 50;
const THRESHOLD_FRACTION = 0.1;
/** Below this many pages at the last ANALYZE, its rows per page do not say how many rows a new page holds. */
const MEASURED_PAGES = 10;

/**
 * Whether the planner's row count (`reltuples`, -1 before the first ANALYZE) is stale, given how
 * many rows changed since by the best count we have.
 */
export function statisticsAreStale(plannerRows: number, changedRows: number): boolean {
  if (plannerRows < 0) return changedRows > 0;
  return changedRows > THRESHOLD_ROWS + THRESHOLD_FRACTION * plannerRows;
}

/**
 * Each table's planner row count and two cheap measures of how much it changed since: the rows
 * written, updated or deleted as this process's statistics counted them (they start again at zero
 * with each start, as autovacuum's do after a crash), and the growth of its file, in rows at the
 * density ANALYZE last saw (which survives a restart, so a store filled while the server was down,
 * by a seed or a move, is caught at the next start). Neither reads the table itself.
 */
const changesQuery = () => sql<{
  table: string;
  plannerRows: number;
  changed: number | string;
  grown: number | string;
}>`
  select c.relname as "table", c.reltuples as "plannerRows",
    s.n_mod_since_analyze as changed,
    case
      when c.relpages >= ${MEASURED_PAGES} and c.reltuples >= 1
        then (now.pages - c.relpages) * c.reltuples / c.relpages
      -- Never analysed, or too small for its density to mean much (a row on a page): any new
      -- page counts as a change past the threshold.
      when now.pages > greatest(c.relpages, 0) then greatest(c.reltuples, 0) + ${THRESHOLD_ROWS} + 1
      else 0
    end as grown
  from pg_class c join pg_stat_user_tables s on s.relid = c.oid
    cross join lateral (
      select pg_relation_size(c.oid) / current_setting('block_size')::int as pages) now
  where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
  order by c.relname`;

/** Analyses (and for a search table, vacuums) every table whose statistics are stale; returns their names. */
export async function refreshStaleStatistics(db: Kysely<DB>): Promise<string[]> {
  // The writes' counts wait up to a second to be shared; counted after an ANALYZE they would ask
  // for another. The embedded store's one connection shares them at the end of this statement.
  await sql`select pg_stat_force_next_flush()`.execute(db);
  const { rows } = await changesQuery().execute(db);
  const stale = rows.filter((row) =>
    statisticsAreStale(Number(row.plannerRows), Math.max(Number(row.changed), Math.abs(Number(row.grown)))),
  );
  for (const { table } of stale)
    if (VACUUMED_TABLES.includes(table)) await sql`vacuum analyze ${sql.table(table)}`.execute(db);
    else await sql`analyze ${sql.table(table)}`.execute(db);
  return stale.map((row) => row.table);
}
