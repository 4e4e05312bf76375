/**
 * Messages between a student and a tutor: one conversation per pair, its messages in the order
 * the database numbered them (the id only grows, so "everything after the last one I have" is one
 * query), what each side has read and been mailed about, blocks, and reports kept for moderation.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('student_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tutor_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The id of the last message each side has seen; 0 before their first read.
    .addColumn('student_read_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('tutor_read_id', 'bigint', (c) => c.notNull().defaultTo(0))
    // Whether a "you have unread messages" mail has gone out since that side last read.
    .addColumn('student_mailed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('tutor_mailed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_message_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_activity_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('conversations_pair', ['student_id', 'tutor_id'])
    .execute();
  await sql`create index conversations_tutor_idx on conversations (tutor_id, last_activity_at desc)`.execute(
    db,
  );
  await sql`create index conversations_student_idx on conversations (student_id, last_activity_at desc)`.execute(
    db,
  );

  await db.schema
    .createTable('messages')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) =>
      c.notNull().references('conversations.id').onDelete('cascade'),
    )
    // Null for a line the system writes (a lesson booked, moved, cancelled).
    .addColumn('sender_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull().check(sql`char_length(body) between 1 and 2000`))
    // A system line's lesson event: { event, lessonId, start, end }, so each reader sees their own zone.
    .addColumn('event', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index messages_conversation_idx on messages (conversation_id, id)`.execute(db);
  // The mail job looks for unread messages older than ten minutes.
  await sql`create index messages_created_idx on messages (created_at)`.execute(db);

  await db.schema
    .createTable('blocks')
    .addColumn('blocker_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blocked_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('blocks_pkey', ['blocker_id', 'blocked_id'])
    .execute();

  await db.schema
    .createTable('message_reports')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('message_id', 'bigint', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('reporter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`char_length(reason) between 1 and 500`))
    // The text as it was when reported.
    .addColumn('message_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', 'timestamptz')
    .execute();

  await db.schema
    .alterTable('users')
    .addColumn('message_mails', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
