/**
 * Progress: the tutor's notes on a lesson that took place (what was covered, the homework), a
 * student's learning goals per subject with milestones either side may tick, and the dates on
 * which each goal was completed, so an achievement keeps the day it was earned.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lesson_notes')
    .addColumn('lesson_id', 'text', (c) => c.primaryKey().references('lessons.id').onDelete('cascade'))
    .addColumn('covered', 'text', (c) => c.notNull())
    .addColumn('homework', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('goals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('student_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('target_date', 'date')
    // Set when the last milestone is ticked, cleared when one is unticked again; the first such
    // day stays, as the day the achievement was earned.
    .addColumn('completed_at', 'timestamptz')
    .addColumn('first_completed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index goals_student_idx on goals (student_id, created_at)`.execute(db);
  await db.schema
    .createTable('goal_milestones')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('goal_id', 'text', (c) => c.notNull().references('goals.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('done_at', 'timestamptz')
    .addColumn('done_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index goal_milestones_goal_idx on goal_milestones (goal_id, created_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
