/**
 * One open report per reporter and message: a second report of the same message, while the first
 * still waits for a moderator, adds nothing to the queue (the route answers it as the first one).
 * The database decides, so reports sent at once cannot slip past each other.
 *
 * Open duplicates made before are settled as dismissed, the oldest of each staying open, so that
 * the index can be built; their reasons stay in the table.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update message_reports r
    set resolved_at = now(), resolution = 'dismissed', resolved_by = 'duplicate of an open report'
    where r.resolved_at is null
      and exists (
        select 1 from message_reports older
        where older.message_id = r.message_id
          and older.reporter_id = r.reporter_id
          and older.resolved_at is null
          and older.id < r.id
      )`.execute(db);
  await sql`create unique index message_reports_one_open_idx on message_reports (message_id, reporter_id)
    where resolved_at is null`.execute(db);
}
