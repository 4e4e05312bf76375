/**
 * What a booking reads before it writes, in one statement: the times its tutor's lessons and
 * classes and its student's own lessons keep busy around it (read through ../busy-times.ts as the
 * slots list reads them, so a time is offered here exactly when that list offers it), whether one
 * of the pair's requests is past its deadline (the booking expires it first), and whether the
 * student has a package that may pay. Nothing is locked: the database's constraints settle
 * bookings sent at once, and the package and the balance are locked only on the paths that need
 * them.
 */

import { type Expression, sql } from 'kysely';
import { offeredSlots } from '../../../shared/lessons/availability';
import type { AvailabilityView } from '../availability-store';
import { busyIntervals, studentBusyQuery, studentIntervals, tutorBusyQuery } from '../busy-times';
import type { Db } from '../lesson-records';
import { storedFrom } from '../lifecycle/lesson-moves';

export interface BookingCheck {
  tutorId: string;
  studentId: string;
  start: number;
  minutes: number;
  now: number;
  /** Whether to look for a package that may pay (payments on, not a trial, none named). */
  packages: boolean;
}

export interface BookingFacts {
  /** Whether the time is offered: free for both, within the tutor's hours and booking rules. */
  offered: boolean;
  /** Whether one of the pair's requests is past its deadline, to be expired first. */
  due: boolean;
  /** Whether the student has an active package for this tutor and length. */
  packages: boolean;
}

type Kind = 'tutor' | 'student' | 'due' | 'package';

export async function bookingFacts(
  db: Db,
  availability: AvailabilityView,
  check: BookingCheck,
): Promise<BookingFacts> {
  const { tutorId, studentId, start, now } = check;
  const from = start;
  const to = start + 1;
  const kind = (name: Kind) => sql<Kind>`${name}::text`.as('kind');
  // The rows that only say something is there have no times (read only by their kind).
  const none = sql<number | null>`null::double precision`;
  const tutorBusy = tutorBusyQuery(db, tutorId, { from, to, now }, availability.bufferMinutes).select(
    kind('tutor'),
  );
  const studentBusy = studentBusyQuery(db, studentId, { from, to, now }).select([
    none.as('blocked'),
    kind('student'),
  ]);
  // A row of its kind when `query` finds anything.
  const whether = (name: Kind, query: Expression<unknown>) =>
    db
      .selectNoFrom([none.as('start'), none.as('end'), none.as('blocked'), kind(name)])
      .where((eb) => eb.exists(query));
  const pairsDue = () =>
    db
      .selectFrom('lessons')
      .select('id')
      .where('status', 'in', storedFrom('expire'))
      .where('expires_at', '<=', new Date(now))
      .where((eb) =>
        eb.or([eb('tutor_id', 'in', [tutorId, studentId]), eb('student_id', 'in', [tutorId, studentId])]),
      );
  // The row without times first, so that the union's columns may be null.
  let query = whether('due', pairsDue()).unionAll(tutorBusy).unionAll(studentBusy);
  if (check.packages)
    query = query.unionAll(
      whether(
        'package',
        db
          .selectFrom('lesson_packages')
          .select('id')
          .where('student_id', '=', studentId)
          .where('tutor_id', '=', tutorId)
          .where('minutes', '=', check.minutes)
          .where('status', '=', 'active'),
      ),
    );
  const rows = await query.execute();
  // A busy row always has its times; a student's has no buffer of its own.
  const busyOf = (wanted: Kind) =>
    rows
      .filter((row) => row.kind === wanted)
      .map((row) => ({
        start: Number(row.start),
        end: Number(row.end),
        blocked: Number(row.blocked ?? row.end),
      }));
  const tutorBusyTimes = busyIntervals(busyOf('tutor'), availability.bufferMinutes);
  const studentBusyTimes = studentIntervals(busyOf('student'));
  const offered = offeredSlots({
    availability,
    settings: availability,
    minutes: check.minutes,
    from,
    to,
    now,
    tutorLessons: tutorBusyTimes,
    studentLessons: studentBusyTimes,
  });
  return {
    offered: offered.some((slot) => slot.start === start),
    due: rows.some((row) => row.kind === 'due'),
    packages: rows.some((row) => row.kind === 'package'),
  };
}
