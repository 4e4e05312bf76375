/**
 * Two-factor sign-in, per session and per code. A session records whether it proved a second
 * factor (a code at sign-in, a trusted device, or the code that turned two-factor on): where
 * admins must use two-factor, only such a session opens the console and Support. An authenticator
 * code is taken once per account: the codes accepted in the last few minutes are kept, one row
 * each, so a second use of one (from a second pending sign-in, at the same instant) is refused by
 * the primary key.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('two_factor_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('used_two_factor_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    // Past this, the code can no longer be accepted anyway and the row may go.
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('used_two_factor_codes_pkey', ['user_id', 'code'])
    .execute();
  await db.schema
    .createIndex('used_two_factor_codes_expires_at')
    .on('used_two_factor_codes')
    .column('expires_at')
    .execute();

  // The sessions an admin with two-factor on holds today were made before any session said what it
  // proved, so none of them can show it: they end, and the admin signs in once more with a code.
  await sql`delete from sessions
    where user_id in (select id from users where is_admin and two_factor_enabled)`.execute(db);
}
