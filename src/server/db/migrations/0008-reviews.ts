/**
 * Reviews: one per student and tutor (editable), from a student with a completed lesson with that
 * tutor; the tutor's one public answer; reports into the moderation queue beside reported
 * messages. Each tutor's count and sum of ratings are kept on the profile, in the same
 * transaction as the review, so the search can sort and filter by rating without reading reviews.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tutor_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('student_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('rating', 'integer', (c) => c.notNull().check(sql`rating between 1 and 5`))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('edited_at', 'timestamptz')
    .addColumn('answer', 'text')
    .addColumn('answered_at', 'timestamptz')
    .addUniqueConstraint('reviews_pair', ['student_id', 'tutor_id'])
    .execute();
  await sql`create index reviews_tutor_idx on reviews (tutor_id, created_at desc)`.execute(db);
  await db.schema
    .createTable('review_reports')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('review_id', 'text', (c) => c.notNull().references('reviews.id').onDelete('cascade'))
    .addColumn('reporter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('review_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('tutor_profiles')
    .addColumn('rating_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rating_sum', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
