/**
 * Trial lessons. A tutor may offer one short first lesson at a price of their choosing (free up to
 * the half-hour price of their rate), kept with their booking settings; a lesson booked as one is
 * marked `trial`.
 *
 * A student takes at most one trial with each tutor, and the database decides it, so two
 * bookings sent at once cannot both slip past the check the booking makes first. A trial that
 * never took place (cancelled, declined or expired) does not use it up: the student was given
 * nothing, so they may book the trial again. One that took place, or was missed (no-show), does.
 *
 * The search finds tutors who offer a trial through a small partial index of those who do.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tutor_availability')
    .addColumn('trial_offered', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('trial_price_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`alter table tutor_availability add constraint tutor_availability_trial_price_check
    check (trial_price_cents >= 0)`.execute(db);
  await sql`create index tutor_availability_trial_idx on tutor_availability (user_id)
    where trial_offered`.execute(db);
  await db.schema
    .alterTable('lessons')
    .addColumn('trial', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create unique index lessons_one_trial_idx on lessons (student_id, tutor_id)
    where trial and status not in ('cancelled', 'declined', 'expired')`.execute(db);
}
