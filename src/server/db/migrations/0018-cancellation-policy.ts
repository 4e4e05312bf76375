/**
 * Each tutor's cancellation policy: how many hours before a lesson free changes end, and what
 * share of the price a later cancellation by the student costs. The policy in force when a lesson
 * is booked is copied onto the lesson, so a tutor's later change only applies to later bookings;
 * lessons booked before this migration keep the rule they were booked under (24 hours, 100 %).
 * A lesson keeps its window in hours rather than a moment, because a moved lesson's free changes
 * end the same number of hours before its new start.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tutor_availability
    add column cancellation_window_hours integer not null default 24
      check (cancellation_window_hours in (0, 2, 4, 12, 24, 48)),
    add column late_cancel_fee_percent integer not null default 100
      check (late_cancel_fee_percent in (0, 50, 100))`.execute(db);
  await sql`alter table lessons
    add column cancel_window_hours integer not null default 24
      check (cancel_window_hours in (0, 2, 4, 12, 24, 48)),
    add column late_fee_percent integer not null default 100
      check (late_fee_percent in (0, 50, 100)),
    add column cancel_fee_cents integer check (cancel_fee_cents >= 0),
    add column cancelled_late boolean not null default false`.execute(db);
  // A late cancellation's fee is a payment state of its own: part of the hold settled, the rest released.
  await sql`alter table lessons drop constraint lessons_payment_status_check`.execute(db);
  await sql`alter table lessons add constraint lessons_payment_status_check
    check (payment_status in ('none', 'held', 'settled', 'released', 'refunded', 'fee'))`.execute(db);
  // Counted per tutor for admins.
  await sql`create index lessons_late_cancel_idx on lessons (tutor_id) where cancelled_late`.execute(db);
}
