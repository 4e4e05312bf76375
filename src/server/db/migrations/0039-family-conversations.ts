/**
 * A tutor's conversation with a parent about one of their children (issue 54).
 *
 * Such a conversation is a pair row whose student side is the PARENT (they read, write and are
 * mailed as a pair's student is, with the same read mark and mail flag) and whose
 * `about_student_id` names the child it is about. A parent has one conversation per tutor and
 * child, so a parent of two children taught by one tutor keeps their two subjects apart. Every
 * other pair keeps `about_student_id` null and stays one per student and tutor.
 *
 * The one unique pair becomes two partial unique indexes (a null is never equal to another in a
 * unique constraint): one for the plain pairs, one for the pairs about a child. Deleting the child
 * deletes the conversations about them, as deleting either side of any pair does.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table conversations
    add column about_student_id text references users(id) on delete cascade`.execute(db);
  await sql`alter table conversations drop constraint conversations_pair`.execute(db);
  await sql`create unique index conversations_pair on conversations (student_id, tutor_id)
    where about_student_id is null`.execute(db);
  await sql`create unique index conversations_pair_about on conversations (student_id, tutor_id, about_student_id)
    where about_student_id is not null`.execute(db);
  // Only a pair is about a child, and never about the person on its student side.
  await sql`alter table conversations add constraint conversations_about check (
      about_student_id is null
      or (class_id is null and requester_id is null and about_student_id <> student_id))`.execute(db);
  // A tutor's schedule and a child's lesson lines find the conversation about that child.
  await sql`create index conversations_about_idx on conversations (about_student_id)
    where about_student_id is not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
