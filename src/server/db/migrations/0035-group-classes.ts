/**
 * Group classes: a tutor's class of 2 to 5 seats over one or more sessions, the students enrolled
 * and waiting, and each student's seat in each session.
 *
 * A seat is a lesson (lessons.class_session_id): its price is held, settled after the session,
 * given back or kept as a late fee by the same moves and ledger entries as a one-to-one lesson's,
 * and it reaches schedules, receipts, reviews and the data export as a lesson does.
 *
 * The database keeps every rule that a race could break:
 * - `classes.seats_taken` is counted in the enrolment's transaction and checked against `seats`,
 *   so of students enrolling at once no more than the seats get in;
 * - waiting positions are unique per class (checked at commit, so a queue moves up in one
 *   statement);
 * - a student holds at most one live seat per session;
 * - a tutor's class sessions never overlap each other (an exclusion constraint), and never
 *   overlap their one-to-one lessons: the two live in two tables, so a trigger on each takes the
 *   same per-tutor transaction lock and looks at the other table, raising the exclusion violation
 *   a lesson's own overlap raises (23P01, answered 409 SLOT_UNAVAILABLE).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table classes (
    id text primary key,
    tutor_id text not null references users(id) on delete cascade,
    title text not null check (char_length(title) between 1 and 120),
    subject text not null,
    language text not null,
    description text not null default '' check (char_length(description) <= 4000),
    minutes integer not null check (minutes in (30, 45, 60, 90, 120)),
    seats integer not null check (seats between 2 and 5),
    min_students integer not null,
    seats_taken integer not null default 0,
    price_cents integer not null check (price_cents >= 0),
    currency text not null,
    status text not null default 'scheduled' check (status in ('scheduled', 'cancelled')),
    -- When the minute job decided the class is held (or when it was created, for a class made
    -- less than 24 hours before its first session): from then on it is never cancelled for want
    -- of students.
    decided_at timestamptz,
    cancelled_by text,
    cancel_reason text,
    cancelled_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint classes_min_students check (min_students between 1 and seats),
    constraint classes_seats_taken check (seats_taken between 0 and seats)
  )`.execute(db);
  await sql`create index classes_tutor_idx on classes (tutor_id)`.execute(db);

  await sql`create table class_sessions (
    id text primary key,
    class_id text not null references classes(id) on delete cascade,
    tutor_id text not null references users(id) on delete cascade,
    starts_at timestamptz not null,
    ends_at timestamptz not null,
    -- The end plus the tutor's buffer, as a lesson's (see migration 0005).
    blocked_until timestamptz not null,
    status text not null default 'scheduled' check (status in ('scheduled', 'cancelled')),
    constraint class_sessions_ends_after_start check (ends_at > starts_at and blocked_until >= ends_at),
    constraint class_sessions_tutor_no_overlap
      exclude using gist (tutor_id with =, tstzrange(starts_at, blocked_until) with &&)
      where (status = 'scheduled')
  )`.execute(db);
  await sql`create index class_sessions_class_idx on class_sessions (class_id, starts_at)`.execute(db);
  await sql`create index class_sessions_starts_idx on class_sessions (starts_at) where status = 'scheduled'`.execute(
    db,
  );

  await sql`create table class_enrolments (
    class_id text not null references classes(id) on delete cascade,
    student_id text not null references users(id) on delete cascade,
    status text not null check (status in ('enrolled', 'waitlisted', 'left', 'removed', 'cancelled')),
    position integer check (position >= 1),
    idempotency_key text,
    enrolled_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    primary key (class_id, student_id),
    constraint class_enrolments_waiting_position check ((status = 'waitlisted') = (position is not null)),
    constraint class_enrolments_position unique (class_id, position) deferrable initially deferred
  )`.execute(db);
  await sql`create index class_enrolments_student_idx on class_enrolments (student_id)`.execute(db);

  await sql`alter table lessons add column class_session_id text references class_sessions(id) on delete cascade`.execute(
    db,
  );
  // A one-to-one lesson keeps the tutor's time to itself; a class session's seats share it.
  await sql`alter table lessons drop constraint lessons_tutor_no_overlap`.execute(db);
  await sql`alter table lessons add constraint lessons_tutor_no_overlap
    exclude using gist (tutor_id with =, tstzrange(starts_at, blocked_until) with &&)
    where (status in ('pending', 'confirmed') and class_session_id is null)`.execute(db);
  await sql`create unique index lessons_one_seat_idx on lessons (class_session_id, student_id)
    where class_session_id is not null and status in ('pending', 'confirmed')`.execute(db);

  await sql`create function tutor_time_lock(tutor text) returns void language sql as $$
    select pg_advisory_xact_lock(hashtextextended('tutor-time:' || tutor, 0))
  $$`.execute(db);

  await sql`create function lessons_outside_class_sessions() returns trigger language plpgsql as $$
    begin
      if new.class_session_id is null and new.status in ('pending', 'confirmed') then
        perform tutor_time_lock(new.tutor_id);
        if exists (
          select 1 from class_sessions s
          where s.tutor_id = new.tutor_id and s.status = 'scheduled'
            and tstzrange(s.starts_at, s.blocked_until) && tstzrange(new.starts_at, new.blocked_until)
        ) then
          raise exception 'the tutor teaches a class at this time'
            using errcode = 'exclusion_violation', constraint = 'class_sessions_tutor_no_overlap';
        end if;
      end if;
      return new;
    end
  $$`.execute(db);
  await sql`create trigger lessons_outside_class_sessions
    before insert or update of starts_at, blocked_until, status on lessons
    for each row execute function lessons_outside_class_sessions()`.execute(db);

  await sql`create function class_sessions_outside_lessons() returns trigger language plpgsql as $$
    begin
      if new.status = 'scheduled' then
        perform tutor_time_lock(new.tutor_id);
        if exists (
          select 1 from lessons l
          where l.tutor_id = new.tutor_id and l.class_session_id is null
            and l.status in ('pending', 'confirmed')
            and tstzrange(l.starts_at, l.blocked_until) && tstzrange(new.starts_at, new.blocked_until)
        ) then
          raise exception 'the tutor has a lesson at this time'
            using errcode = 'exclusion_violation', constraint = 'class_sessions_tutor_no_overlap';
        end if;
      end if;
      return new;
    end
  $$`.execute(db);
  await sql`create trigger class_sessions_outside_lessons
    before insert or update of starts_at, blocked_until, status on class_sessions
    for each row execute function class_sessions_outside_lessons()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
