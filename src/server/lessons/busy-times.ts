/**
 * The times a tutor's and a student's planned lessons keep busy, read through the database's
 * tutor_busy and student_busy (migration 0045, decision 0047), which hold the rule of what keeps a
 * time: the slots offered (../slots.ts) and a booking's check (lesson-changes/booking-checks.ts)
 * both read them here, so a time is offered exactly when a booking of it is accepted.
 */

import { sql } from 'kysely';
import type { Interval } from '../../shared/lessons/availability';
import type { Db } from './lesson-records';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

interface TutorBusyRow {
  start_ms: number;
  end_ms: number;
  blocked_ms: number;
}

interface StudentBusyRow {
  start_ms: number;
  end_ms: number;
}

/** Instants in epoch milliseconds: the times around [from, to) as they read at `now`. */
export interface BusyRange {
  from: number;
  to: number;
  now: number;
  /** A lesson being moved, whose own time keeps nothing busy. */
  except?: string | undefined;
}

/**
 * The tutor's planned lessons and class sessions around slots starting in [from, to), as `start`,
 * `end` and `blocked` (the end of the buffer each was booked with), in epoch milliseconds. The
 * range is widened by the longest lesson (two hours) and by `reachMinutes` of buffer on each side
 * (the tutor's buffer, or the largest one can set when it is not known yet: a lesson further off
 * overlaps no slot, so reading it changes nothing).
 */
export function tutorBusyQuery(db: Db, tutorId: string, range: BusyRange, reachMinutes: number) {
  const before = new Date(range.to + 2 * HOUR + reachMinutes * 60_000);
  const after = new Date(range.from - 2 * HOUR - reachMinutes * 60_000);
  const { now, except } = range;
  return db
    .selectFrom(
      sql<TutorBusyRow>`tutor_busy(${tutorId}, ${after}, ${before}, ${new Date(now)}, ${except ?? null})`.as(
        'busy',
      ),
    )
    .select(['busy.start_ms as start', 'busy.end_ms as end', 'busy.blocked_ms as blocked']);
}

/**
 * The student's planned lessons around slots starting in [from, to), as `start` and `end` in epoch
 * milliseconds: those overlapping [from, to + a day), a day being longer than any lesson.
 */
export function studentBusyQuery(db: Db, studentId: string, range: BusyRange) {
  const { from, to, now, except } = range;
  return db
    .selectFrom(
      sql<StudentBusyRow>`student_busy(${studentId}, ${new Date(from)}, ${new Date(to + DAY)}, ${new Date(now)}, ${except ?? null})`.as(
        'busy',
      ),
    )
    .select(['busy.start_ms as start', 'busy.end_ms as end']);
}

/**
 * What the tutor's busy times keep busy: each lesson is stretched by what it stored as its own
 * buffer beyond today's, so a slot offered here is one the database accepts (the constraint
 * compares the buffers the lessons were booked with). Numbers may come as text through JSON.
 */
export const busyIntervals = (
  rows: { start: number | string; end: number | string; blocked: number | string }[],
  bufferMinutes: number,
) =>
  rows.map(
    (row): Interval => ({
      start: Math.round(Number(row.start)),
      end: Math.max(Math.round(Number(row.end)), Math.round(Number(row.blocked)) - bufferMinutes * 60_000),
    }),
  );

export const studentIntervals = (rows: { start: number | string; end: number | string }[]) =>
  rows.map((row): Interval => ({ start: Math.round(Number(row.start)), end: Math.round(Number(row.end)) }));

/** The tutor's busy times around the range, each stretched as busyIntervals says. */
export const tutorBusy = async (db: Db, tutorId: string, range: BusyRange, bufferMinutes: number) =>
  busyIntervals(await tutorBusyQuery(db, tutorId, range, bufferMinutes).execute(), bufferMinutes);

export const studentBusy = async (db: Db, studentId: string, range: BusyRange) =>
  studentIntervals(await studentBusyQuery(db, studentId, range).execute());
