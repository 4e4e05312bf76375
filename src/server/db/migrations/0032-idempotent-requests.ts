/**
 * The answers to requests that moved money, kept under the Idempotency-Key their client sent, so a
 * retry (a timeout, a second click, a reload) gets the first answer again instead of moving the
 * money twice. A key belongs to one person, one method and one path: the same key on another route,
 * or another person's, is another request. Kept in the database, not in a server's memory, so the
 * answer survives a restart and any server of several finds it; rows older than a day are removed
 * by the housekeeping pass.
 *
 * A row is `running` while its first request runs (`attempt` names that run, `started_at` when it
 * began: a run that a dead server left is taken over after a while) and `done` once its answer is
 * kept. A request that failed leaves no row, so its retry runs afresh.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotent_requests')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().check(sql`char_length(key) between 1 and 200`))
    // A digest of the request's body: the same key with another body is refused, not replayed.
    .addColumn('body_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('running', 'done')`))
    .addColumn('attempt', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('content_type', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotent_requests_pkey', ['user_id', 'method', 'path', 'key'])
    // A finished row holds its answer; a running one holds none yet.
    .addCheckConstraint(
      'idempotent_requests_answer',
      sql`(state = 'done') = (status is not null and response_body is not null)`,
    )
    .execute();
  await sql`create index idempotent_requests_created_idx on idempotent_requests (created_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
