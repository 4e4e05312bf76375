/**
 * Weekly series: a student books the same time every week in one go. Each week is still an
 * ordinary lesson row (its own id, status, money and changes); the series only ties them together
 * so they can be announced, answered and called off at once.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lesson_series')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tutor_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('student_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The weeks asked for, skipped ones included (2 to 26).
    .addColumn('weeks', 'integer', (c) => c.notNull().check(sql`weeks between 2 and 26`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('lessons')
    .addColumn('series_id', 'text', (c) => c.references('lesson_series.id').onDelete('set null'))
    .execute();
  await sql`create index lessons_series_idx on lessons (series_id) where series_id is not null`.execute(db);
}
