/**
 * Support conversations: a person (a student or a tutor) and the school's support, which is every
 * admin at once. Such a row names the person in `requester_id` and leaves the pair's columns
 * empty; it keeps the person's read mark and mail flag, and one read mark and mail flag that all
 * admins share. Each person has at most one, which the unique constraint settles when two
 * requests race.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table conversations alter column student_id drop not null`.execute(db);
  await sql`alter table conversations alter column tutor_id drop not null`.execute(db);
  await db.schema
    .alterTable('conversations')
    .addColumn('requester_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('requester_read_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('requester_mailed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('support_read_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('support_mailed', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // A conversation is either a student and a tutor, or a person and support: never a mix.
  await sql`alter table conversations add constraint conversations_kind check (
      (requester_id is null and student_id is not null and tutor_id is not null)
      or (requester_id is not null and student_id is null and tutor_id is null))`.execute(db);
  await sql`alter table conversations add constraint conversations_one_support unique (requester_id)`.execute(
    db,
  );
  // Admins' inboxes list every support conversation, the latest first.
  await sql`create index conversations_support_idx on conversations (last_activity_at desc)
    where requester_id is not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
