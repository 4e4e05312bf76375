import { type Kysely, Migrator, sql } from 'kysely';
import { migrations } from './migrations';

const MIGRATION_TABLE = 'schema_migrations';

/** True when every migration in the code has run: the usual restart, answered by one query. */
async function upToDate(db: Kysely<unknown>): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db);
    const done = new Set(rows.map((row) => row.name));
    return Object.keys(migrations).every((name) => done.has(name));
  } catch {
    // No migration table yet: a first start.
    return false;
  }
}

/**
 * Brings the schema up to date. Kysely's migrator takes a lock, so servers starting together are
 * safe; it is skipped when nothing is pending, which keeps restarts fast.
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  if (await upToDate(db)) return [];
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
