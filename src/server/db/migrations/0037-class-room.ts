/**
 * A class session's room: its chat, kept with the session as a lesson room's is kept with the
 * lesson. Who joined is not kept here: each student's seat is a lesson, and the room records a
 * join in lesson_attendance against the seats (migration 0007), so a seat reads, settles and may
 * be marked a no-show exactly as a one-to-one lesson does.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('class_session_chat')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('class_sessions.id').onDelete('cascade'))
    .addColumn('sender_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index class_session_chat_session_idx on class_session_chat (session_id, id)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
