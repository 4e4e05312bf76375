/**
 * Operators: the admin flag (beside `role`, which stays student or tutor), suspension, tutor
 * verification with its history and the snapshot of what was approved, moderation (hidden messages
 * and reviews, how each report was settled) and the audit log, which the database itself keeps
 * append-only.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('is_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('suspended_at', 'timestamptz')
    .addColumn('suspension_reason', 'text')
    .execute();

  await db.schema
    .alterTable('tutor_profiles')
    .addColumn('verification_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('none')
        .check(sql`verification_status in ('none', 'requested', 'approved', 'declined')`),
    )
    .addColumn('verification_requested_at', 'timestamptz')
    .addColumn('approved_at', 'timestamptz')
    // What the admin saw when approving: a later change of either is shown to admins.
    .addColumn('approved_rate', 'integer')
    .addColumn('approved_subjects', sql`text[]`)
    .execute();
  await sql`create index tutor_profiles_verification_idx on tutor_profiles (verification_requested_at)
    where verification_status = 'requested'`.execute(db);

  await db.schema
    .createTable('tutor_verifications')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('tutor_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull().check(sql`event in ('requested', 'approved', 'declined')`))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('admin_name', 'text')
    .addColumn('hourly_rate', 'integer')
    .addColumn('subjects', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index tutor_verifications_tutor_idx on tutor_verifications (tutor_id, id)`.execute(db);

  await db.schema.alterTable('messages').addColumn('hidden_at', 'timestamptz').execute();
  await db.schema.alterTable('reviews').addColumn('hidden_at', 'timestamptz').execute();
  await db.schema
    .alterTable('message_reports')
    .addColumn('resolution', 'text', (c) => c.check(sql`resolution in ('dismissed', 'hidden', 'suspended')`))
    .addColumn('resolved_by', 'text')
    .execute();
  await db.schema
    .alterTable('review_reports')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolution', 'text', (c) => c.check(sql`resolution in ('dismissed', 'hidden', 'suspended')`))
    .addColumn('resolved_by', 'text')
    .execute();
  await sql`create index message_reports_open_idx on message_reports (created_at) where resolved_at is null`.execute(
    db,
  );
  await sql`create index review_reports_open_idx on review_reports (created_at) where resolved_at is null`.execute(
    db,
  );

  // No foreign keys: an entry names its actor and target as they were, and outlives their accounts.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('actor_id', 'text')
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Append-only below the application too: a bug or a hand-typed query cannot rewrite history.
  await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'The audit log is append-only';
    end
  $$`.execute(db);
  await sql`create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
