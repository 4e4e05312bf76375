/**
 * Each person's language (null until they choose one: pages then follow their browser, mails the
 * school's default) and the school's default language, set in Site settings (null: DEFAULT_LANGUAGE).
 * No check lists the languages: adding one is a catalogue and a line of code, not a migration;
 * the application accepts only the languages it has catalogues for.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'text').execute();
  await db.schema.alterTable('site_settings').addColumn('default_language', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
