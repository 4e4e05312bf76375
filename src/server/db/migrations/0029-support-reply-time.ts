/**
 * How soon support answers, as a site setting: the contact page, a support conversation and the
 * contact form's mail promised 24 hours on every install, a promise no school had made. Null (the
 * default) promises nothing; an admin sets a number of hours, at most a week.
 *
 * Numbered 0025, not 0024: another change in flight takes that number.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('site_settings')
    .addColumn('support_reply_hours', 'smallint', (c) => c.check(sql`support_reply_hours between 1 and 168`))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
