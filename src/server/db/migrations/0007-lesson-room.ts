/**
 * The lesson room: who joined a lesson's room and when (so a lesson shows whether both attended,
 * and a tutor can mark a student who never came as a no-show), the room's text chat, kept with
 * the lesson, and a place for live frames too large for a NOTIFY payload.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table lessons drop constraint lessons_status_check`.execute(db);
  await sql`alter table lessons add constraint lessons_status_check
    check (status in ('pending', 'confirmed', 'declined', 'expired', 'cancelled', 'completed', 'no_show'))`.execute(
    db,
  );
  await db.schema
    .createTable('lesson_attendance')
    .addColumn('lesson_id', 'text', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('first_joined_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_joined_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('lesson_attendance_pk', ['lesson_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('lesson_chat')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('lesson_id', 'text', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('sender_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index lesson_chat_lesson_idx on lesson_chat (lesson_id, id)`.execute(db);
  await db.schema
    .createTable('live_payloads')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
