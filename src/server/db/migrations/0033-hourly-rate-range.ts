/**
 * The hourly rates tutors may ask become a site setting, in whole units of the school's currency:
 * the table's own check (5 to 500) fitted dollars only, and refused a yen school's ¥3,000. The
 * table now asks only for a rate above zero; the range is the application's check, against the
 * setting (null: the currency's default range). Both ends are set together, the lower below the
 * upper.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tutor_profiles drop constraint tutor_profiles_hourly_rate_check`.execute(db);
  await sql`alter table tutor_profiles add constraint tutor_profiles_hourly_rate_check check (hourly_rate > 0)`.execute(
    db,
  );
  await db.schema
    .alterTable('site_settings')
    .addColumn('hourly_rate_min', 'integer')
    .addColumn('hourly_rate_max', 'integer')
    .execute();
  await db.schema
    .alterTable('site_settings')
    .addCheckConstraint(
      'site_settings_hourly_rate_range_check',
      sql`(hourly_rate_min is null and hourly_rate_max is null) or (hourly_rate_min > 0 and hourly_rate_min < hourly_rate_max)`,
    )
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
