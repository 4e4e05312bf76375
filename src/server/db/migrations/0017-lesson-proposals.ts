/**
 * A tutor's proposal of a new time for a planned lesson: at most one open at a time, kept on the
 * lesson itself (a new proposal replaces the last). It stands until the student answers, the
 * lesson moves or ends, or the lesson starts; nothing has to clear it at the start, since it is
 * read as gone from then on.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('lessons')
    .addColumn('proposed_start', 'timestamptz')
    .addColumn('proposed_end', 'timestamptz')
    .addColumn('proposal_note', 'text')
    .addColumn('proposed_at', 'timestamptz')
    .execute();
  // All four are set together or none is: half a proposal could not be shown or accepted.
  await sql`alter table lessons add constraint lessons_proposal_whole_check check (
    (proposed_start is null and proposed_end is null and proposal_note is null and proposed_at is null)
    or (proposed_start is not null and proposed_end is not null and proposal_note is not null
        and proposed_at is not null and proposed_end > proposed_start))`.execute(db);
}
