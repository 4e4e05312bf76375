/**
 * `npm run move-to-postgres -- URL`: copies the embedded store (DATA_DIR, server stopped) into an
 * empty PostgreSQL database. The target is migrated first, so its schema is the one the code
 * expects; then every table is copied in one transaction, parents before the tables that refer to
 * them, with each table's triggers paused so rows arrive exactly as they were (the ledger's running
 * balances, the append-only logs), and the counters behind generated ids moved past the copied
 * ids. Row counts are compared before the transaction commits: a difference rolls everything back.
 *
 * Rows travel as JSON (row_to_json out, json_populate_recordset in), which carries every column
 * type the schema uses (timestamps, bytea photos, arrays, jsonb) the same way on both sides.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { CommandResult } from '../admin/admin-command';
import { ConfigError, loadConfig } from '../config/config';
import { DataDirLockedError } from '../db/data-dir-lock';
import { type Database, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { serverRunningMessage } from './backup-commands';

const BATCH = 500;
const MIGRATION_TABLES = new Set(['schema_migrations', 'schema_migrations_lock']);

const failed = (error: string, exitCode = 1): CommandResult => ({ output: '', error, exitCode });

interface Table {
  name: string;
  columns: string[];
  /** Tables this one refers to (foreign keys), itself excluded. */
  parents: string[];
  /** Columns whose values come from a sequence (serial or identity). */
  sequenced: string[];
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The public tables of a database, their copyable columns, foreign keys and sequenced columns. */
async function describe(db: Kysely<unknown>): Promise<Table[]> {
  const { rows: columns } = await sql<{ table: string; column: string; sequenced: boolean }>`
    select c.relname as table, a.attname as column,
      (a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid), '') like 'nextval(%') as sequenced
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
    where c.relkind = 'r' and a.attgenerated = ''
    order by c.relname, a.attnum`.execute(db);
  const { rows: keys } = await sql<{ child: string; parent: string }>`
    select distinct c.relname as child, p.relname as parent
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_class p on p.oid = k.confrelid
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
    where k.contype = 'f' and c.oid <> p.oid`.execute(db);
  const tables = new Map<string, Table>();
  for (const row of columns) {
    if (MIGRATION_TABLES.has(row.table)) continue;
    const table = tables.get(row.table) ?? { name: row.table, columns: [], parents: [], sequenced: [] };
    table.columns.push(row.column);
    if (row.sequenced) table.sequenced.push(row.column);
    tables.set(row.table, table);
  }
  for (const key of keys) tables.get(key.child)?.parents.push(key.parent);
  return [...tables.values()];
}

/** Parents before children; a cycle between tables (none today) would stop the move. */
function dependencyOrder(tables: Table[]): Table[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: Table[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: Table) => {
    if (state.get(table.name) === 'done') return;
    if (state.get(table.name) === 'visiting')
      throw new Error(`tables refer to each other in a cycle (${table.name})`);
    state.set(table.name, 'visiting');
    for (const parent of table.parents) {
      const found = byName.get(parent);
      if (found) visit(found);
    }
    state.set(table.name, 'done');
    ordered.push(table);
  };
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(table);
  return ordered;
}

async function count(db: Kysely<unknown>, table: string): Promise<number> {
  const { rows } = await sql<{
    count: number;
  }>`select count(*)::int as count from ${sql.table(table)}`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

export async function moveToPostgres(args: string[]): Promise<CommandResult> {
  const [url, ...rest] = args;
  if (!url || rest.length > 0 || !/^postgres(ql)?:\/\//.test(url))
    return failed('Usage: npm run move-to-postgres -- postgres://user:password@host:5432/database', 2);

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig({ ...process.env, DATABASE_URL: undefined });
  } catch (error) {
    if (error instanceof ConfigError) return failed(error.message);
    throw error;
  }
  if (!existsSync(join(config.dataDir, 'db')))
    return failed(`There is no embedded database in ${config.dataDir} (DATA_DIR) to move.`);

  let source: Database;
  try {
    source = await openDatabase({ dataDir: config.dataDir });
  } catch (error) {
    if (error instanceof DataDirLockedError) return failed(serverRunningMessage(error, 'copied'));
    return failed(`Could not open the embedded database: ${(error as Error).message}`);
  }
  // No query timeout: copying a large table is allowed to take its time.
  const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {});
  const target = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  const lines: string[] = [];
  try {
    let existing: string[];
    try {
      const { rows } = await sql<{ name: string }>`
        select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p')`.execute(target);
      existing = rows.map((row) => row.name);
    } catch (error) {
      return failed(`Could not reach the PostgreSQL database: ${(error as Error).message}`);
    }
    if (existing.length > 0)
      return failed(
        `The PostgreSQL database is not empty (it has ${existing.length} table${existing.length === 1 ? '' : 's'}, such as ${existing[0]}). Give an empty database: nothing was copied.`,
      );

    await migrateToLatest(target);
    const sourceDb = source.db as unknown as Kysely<unknown>;
    const tables = dependencyOrder(await describe(sourceDb));
    const targetNames = new Set((await describe(target)).map((table) => table.name));
    const missing = tables.filter((table) => !targetNames.has(table.name));
    if (missing.length > 0)
      throw new Error(`the migrated database lacks ${missing.map((t) => t.name).join(', ')}`);

    const counts = new Map<string, number>();
    await target.transaction().execute(async (trx) => {
      // The rows the migrations wrote (the site settings' one row, the subject catalogue) are
      // replaced by the copied ones, children first.
      for (const table of [...tables].reverse()) {
        await sql.raw(`alter table ${ident(table.name)} disable trigger user`).execute(trx);
        await sql.raw(`delete from ${ident(table.name)}`).execute(trx);
      }
      for (const table of tables) {
        const columns = sql.join(table.columns.map((column) => sql.ref(column)));
        let copied = 0;
        for (let offset = 0; ; offset += BATCH) {
          // ctid: the order rows lie in, stable while nothing else writes (the store is ours alone).
          const { rows } = await sql<{ rows: string | null }>`
            select json_agg(to_json(t))::text as rows
            from (select * from ${sql.table(table.name)} order by ctid limit ${BATCH} offset ${offset}) t`.execute(
            sourceDb,
          );
          const batch = rows[0]?.rows;
          if (!batch) break;
          const result = await sql`
            insert into ${sql.table(table.name)} (${columns}) overriding system value
            select ${columns} from json_populate_recordset(null::${sql.table(table.name)}, ${batch}::json)`.execute(
            trx,
          );
          copied += Number(result.numAffectedRows ?? 0);
        }
        for (const column of table.sequenced) {
          await sql`
            select setval(pg_get_serial_sequence(${ident(table.name)}, ${column}),
              coalesce((select max(${sql.ref(column)}) from ${sql.table(table.name)}), 0) + 1, false)`.execute(
            trx,
          );
        }
        await sql.raw(`alter table ${ident(table.name)} enable trigger user`).execute(trx);
        counts.set(table.name, copied);
      }
      // Compared inside the transaction: a difference means nothing is kept.
      for (const table of tables) {
        const [from, to] = [
          await count(sourceDb, table.name),
          await count(trx as unknown as Kysely<unknown>, table.name),
        ];
        if (from !== to) throw new Error(`${table.name} has ${from} rows here but ${to} in PostgreSQL`);
      }
    });

    const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
    lines.push(
      `Copied ${total} rows in ${tables.length} tables from ${config.dataDir} into PostgreSQL; every table's row count matches.`,
      ...tables
        .filter((table) => (counts.get(table.name) ?? 0) > 0)
        .map((table) => `  ${table.name}: ${counts.get(table.name)}`),
      '',
      'Start every server with these two settings (the secret keeps everyone signed in and their links valid):',
      `  DATABASE_URL=${url}`,
      `  AUTH_SECRET=${config.authSecret}`,
      '',
      `The embedded store in ${config.dataDir} was not changed; keep it until the servers run well on PostgreSQL.`,
    );
    return { output: lines.join('\n'), error: '', exitCode: 0 };
  } catch (error) {
    return failed(
      `The move failed: ${(error as Error).message}. No row was kept in PostgreSQL (the copy is one transaction), though its tables may have been created: drop and create the database again before the next try. The embedded store was not changed.`,
    );
  } finally {
    await target.destroy().catch(() => {});
    await source.close().catch(() => {});
  }
}
