/**
 * The class sessions a tutor teaches, each once, as the schedule, the dashboard and the calendar
 * feed show them. A student's seat in a session is a lesson row, so the tutor has one row per
 * student per session there; these read the session itself instead, so a session is shown once
 * with how many students hold a seat, and a session nobody has joined yet is shown too.
 */
import { sql } from 'kysely';
import type { Db } from './lesson-records';

/** A class session as its tutor's schedule shows it (docs/api.md, "Dashboard, schedule and contact"). */
export interface TaughtSession {
  /** The session's id. */
  id: string;
  classId: string;
  title: string;
  subject: string;
  /** ISO 8601 UTC. */
  start: string;
  end: string;
  minutes: number;
  /** `ended` once its end has passed; `cancelled` only where asked for (the calendar feed). */
  status: 'scheduled' | 'ended' | 'cancelled';
  /** Students holding a seat in it (or who held one, once it took place). */
  students: number;
  seats: number;
  /** What each student pays for it. */
  price: { amountCents: number; currency: string };
}

/** The seats that count as taken in a session: held now, or held when it took place. */
export const SEAT_STATUSES = ['confirmed', 'completed', 'no_show'] as const;

/**
 * The tutor's class sessions that overlap [from, to), by start: those not cancelled, or with
 * `cancelled` those called off too (a subscribed calendar removes them).
 */
export async function taughtSessions(
  db: Db,
  tutorId: string,
  from: number,
  to: number,
  now: number,
  options: { cancelled?: boolean } = {},
): Promise<TaughtSession[]> {
  const rows = await db
    .selectFrom('class_sessions as s')
    .innerJoin('classes as c', 'c.id', 's.class_id')
    .select([
      's.id',
      's.class_id',
      's.starts_at',
      's.ends_at',
      's.status',
      'c.title',
      'c.subject',
      'c.minutes',
      'c.seats',
      'c.price_cents',
      'c.currency',
      (eb) =>
        eb
          .selectFrom('lessons as l')
          .select(sql<string>`count(*)`.as('count'))
          .whereRef('l.class_session_id', '=', 's.id')
          .where('l.status', 'in', SEAT_STATUSES)
          .as('students'),
    ])
    .where('s.tutor_id', '=', tutorId)
    .where('s.status', 'in', options.cancelled ? ['scheduled', 'cancelled'] : ['scheduled'])
    .where('s.starts_at', '<', new Date(to))
    .where('s.ends_at', '>', new Date(from))
    .orderBy('s.starts_at')
    .orderBy('s.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    classId: row.class_id,
    title: row.title,
    subject: row.subject,
    start: row.starts_at.toISOString(),
    end: row.ends_at.toISOString(),
    minutes: row.minutes,
    status: row.status === 'cancelled' ? 'cancelled' : row.ends_at.getTime() <= now ? 'ended' : 'scheduled',
    students: Number(row.students ?? 0),
    seats: row.seats,
    price: { amountCents: row.price_cents, currency: row.currency },
  }));
}
