/**
 * A verification link that has been used is remembered until it would have expired, so opening it
 * a second time can say the email is already verified instead of calling the link invalid.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_verification_tokens').addColumn('used_at', 'timestamptz').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
