/**
 * Two-factor sign-in, kept by Better Auth's two-factor plugin: a flag on the account, and one row
 * per account holding its authenticator secret and backup codes (both encrypted with the auth
 * secret), whether the first code confirmed it, and the plugin's own count of failed codes.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('two_factor_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable('two_factors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // One setup per account: a second enable replaces the row's secret rather than adding one.
    .addColumn('user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('backup_codes', 'text', (c) => c.notNull())
    .addColumn('verified', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('failed_verification_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    // When it was set up; the plugin writes no dates of its own.
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
