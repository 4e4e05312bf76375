/**
 * What keeps a tutor's and a student's time busy, as two PL/pgSQL functions (decision 0047). The
 * slots a tutor offers, a booking's check, a moved lesson's and a weekly series' all read them:
 * the rule is written here once, where it was written twice in TypeScript, and each connection
 * plans the functions' statements once and keeps the plans, where the same statements sent inside
 * every slots request were planned afresh each time.
 *
 * A time is held by a confirmed lesson (one that has ended still holds the tutor's buffer after
 * it) and by a request still waiting for its answer: one whose deadline (`expires_at`, the lapse
 * src/shared/lessons/lesson-states.ts names) has not passed at `p_now`. A class's seats are
 * lessons too, kept out of the one-to-one constraint; the tutor's time is held by the class's
 * scheduled sessions instead. Instants come as epoch milliseconds, which both callers want: the
 * slots pass them on as JSON numbers, and the booking compares them as numbers. date_part gives a
 * double, where extract gives a numeric that costs more to work out and to print.
 *
 * tutor_busy gives the tutor's lessons and class sessions that start before `p_before` and whose
 * buffer ends after `p_after`, with the end of that buffer (`blocked_ms`): the caller stretches each
 * by the buffer it was booked with, as the database's constraint compares. student_busy gives the
 * student's lessons overlapping [p_from, p_to). `p_except` leaves out a lesson being moved.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function tutor_busy(p_tutor text, p_after timestamptz, p_before timestamptz, p_now timestamptz, p_except text)
    returns table (start_ms double precision, end_ms double precision, blocked_ms double precision)
    language plpgsql stable as $$
    begin
      return query
        select date_part('epoch', l.starts_at) * 1000, date_part('epoch', l.ends_at) * 1000,
               date_part('epoch', l.blocked_until) * 1000
          from lessons l
          where l.tutor_id = p_tutor
            and (l.status = 'confirmed' or (l.status = 'pending' and (l.expires_at is null or l.expires_at > p_now)))
            and l.starts_at < p_before and l.blocked_until > p_after
            and l.class_session_id is null
            and (p_except is null or l.id <> p_except)
        union all
        select date_part('epoch', s.starts_at) * 1000, date_part('epoch', s.ends_at) * 1000,
               date_part('epoch', s.blocked_until) * 1000
          from class_sessions s
          where s.tutor_id = p_tutor and s.status = 'scheduled'
            and s.starts_at < p_before and s.blocked_until > p_after;
    end $$`.execute(db);

  await sql`create function student_busy(p_student text, p_from timestamptz, p_to timestamptz, p_now timestamptz, p_except text)
    returns table (start_ms double precision, end_ms double precision)
    language plpgsql stable as $$
    begin
      return query
        select date_part('epoch', l.starts_at) * 1000, date_part('epoch', l.ends_at) * 1000
          from lessons l
          where l.student_id = p_student
            and (l.status = 'confirmed' or (l.status = 'pending' and (l.expires_at is null or l.expires_at > p_now)))
            and l.starts_at < p_to and l.ends_at > p_from
            and (p_except is null or l.id <> p_except);
    end $$`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
