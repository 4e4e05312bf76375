/**
 * Lessons: a tutor's availability and booking settings, the lessons booked, and each user's
 * private calendar feed. Double bookings are refused by the database itself: two exclusion
 * constraints (btree_gist, which PGlite ships as a contrib extension) keep the pending and
 * confirmed lessons of one tutor, widened by the tutor's buffer, and of one student from
 * overlapping, whatever requests race each other.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists btree_gist`.execute(db);

  // Kept in the tutor's time zone (users.time_zone): the windows are wall-clock times, the
  // overrides keyed by the tutor's local date. Both are checked by the API before they get here.
  await db.schema
    .createTable('tutor_availability')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('weekly', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('overrides', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('lesson_minutes', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{60}'`))
    .addColumn('slot_step_minutes', 'integer', (c) =>
      c.notNull().defaultTo(30).check(sql`slot_step_minutes in (15, 30, 60)`),
    )
    .addColumn('minimum_notice_hours', 'integer', (c) =>
      c.notNull().defaultTo(12).check(sql`minimum_notice_hours between 0 and 168`),
    )
    .addColumn('booking_horizon_days', 'integer', (c) =>
      c.notNull().defaultTo(60).check(sql`booking_horizon_days between 1 and 365`),
    )
    .addColumn('buffer_minutes', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`buffer_minutes between 0 and 60`),
    )
    .addColumn('instant_booking', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('lessons')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tutor_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('student_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('minutes', 'integer', (c) => c.notNull().check(sql`minutes in (30, 45, 60, 90, 120)`))
    // The end of the lesson plus the tutor's buffer at booking: what the lesson keeps the tutor
    // from. (Stored rather than computed in the constraint: timestamptz arithmetic is not
    // immutable, and an exclusion constraint's expressions must be.)
    .addColumn('blocked_until', 'timestamptz', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(sql`status in ('pending', 'confirmed', 'declined', 'expired', 'cancelled', 'completed')`),
    )
    // A request's deadline for the tutor's answer.
    .addColumn('expires_at', 'timestamptz')
    // Rises with every change a calendar must apply (a new time, a cancellation).
    .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('idempotency_key', 'text')
    .addColumn('cancelled_by', 'text')
    .addColumn('cancel_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('lessons_ends_after_start', sql`ends_at > starts_at and blocked_until >= ends_at`)
    .addUniqueConstraint('lessons_student_idempotency_key', ['student_id', 'idempotency_key'])
    .execute();
  await sql`alter table lessons add constraint lessons_tutor_no_overlap
    exclude using gist (tutor_id with =, tstzrange(starts_at, blocked_until) with &&)
    where (status in ('pending', 'confirmed'))`.execute(db);
  await sql`alter table lessons add constraint lessons_student_no_overlap
    exclude using gist (student_id with =, tstzrange(starts_at, ends_at) with &&)
    where (status in ('pending', 'confirmed'))`.execute(db);
  // A person's lessons in a range (their schedule), and the jobs' work lists.
  await sql`create index lessons_tutor_starts_idx on lessons (tutor_id, starts_at)`.execute(db);
  await sql`create index lessons_student_starts_idx on lessons (student_id, starts_at)`.execute(db);
  await sql`create index lessons_pending_expiry_idx on lessons (expires_at) where status = 'pending'`.execute(
    db,
  );
  await sql`create index lessons_confirmed_end_idx on lessons (ends_at) where status = 'confirmed'`.execute(
    db,
  );

  // One secret address per user for calendar apps to subscribe to; a new token revokes the old.
  await db.schema
    .createTable('calendar_feeds')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // A lesson's mail carries its calendar invitation (iCalendar text and its METHOD).
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('calendar', 'text')
    .addColumn('calendar_method', 'text')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
