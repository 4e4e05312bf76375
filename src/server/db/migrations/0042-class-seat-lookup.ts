/**
 * The seats of a class session, found by their session whatever their status: a dashboard's or a
 * schedule's count of a session's students (confirmed, completed, no-show) reads them per lesson
 * shown. lessons_one_seat_idx holds only the seats still pending or confirmed, so without this
 * index each count scanned every lesson. One-to-one lessons (no session) are left out of it.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index lessons_class_session_idx on lessons (class_session_id)
    where class_session_id is not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
