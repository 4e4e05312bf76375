/**
 * Lesson reminders: each person of a confirmed lesson is mailed a day and an hour before it
 * starts, unless they turned that reminder off on their profile.
 *
 * `lesson_reminders` holds one row per reminder sent, written in the transaction that queues its
 * mail. Its primary key is what makes a reminder go out once, whatever number of servers run the
 * job and however often they restart: the second insert of the same key does nothing, and mails
 * nothing. The key holds the lesson's start, so a lesson moved to another time is reminded again
 * at its new time, while the reminders of its old time are kept as a record.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('reminder_day_before', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('reminder_hour_before', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();

  await db.schema
    .createTable('lesson_reminders')
    .addColumn('lesson_id', 'text', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('day', 'hour')`))
    // The lesson's start the reminder was about.
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('lesson_reminders_once', ['lesson_id', 'user_id', 'kind', 'starts_at'])
    .execute();

  // The job's work list: confirmed lessons by start, of which it reads the next day's.
  await sql`create index lessons_confirmed_start_idx on lessons (starts_at) where status = 'confirmed'`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
