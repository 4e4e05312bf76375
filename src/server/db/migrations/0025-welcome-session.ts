/**
 * The session in which a user first opened their dashboard after verifying: that session greets
 * them "Welcome", every later sign-in "Welcome back". A plain id, not a key to the sessions table:
 * the greeting must stay "back" after that session has ended and its row is gone.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('welcomed_session_id', 'text').execute();
  // Accounts verified before this column existed have been greeted already; '' is no session's id.
  await sql`update users set welcomed_session_id = '' where email_verified`.execute(db);
}
