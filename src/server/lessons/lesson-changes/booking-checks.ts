/**
 * What a booking reads before it writes, in one statement: the times its tutor's lessons and
 * classes and its student's own lessons keep busy around it (by the rules ../slots.ts reads them
 * with, so a time is offered here exactly when the slots list offers it), whether one of the
 * pair's requests is past its deadline (the booking expires it first), and whether the student has
 * a package that may pay. Nothing is locked: the database's constraints settle bookings sent at
 * once, and the package and the balance are locked only on the paths that need them.
 */

import { type Expression, sql } from 'kysely';
import { type Interval, offeredSlots } from '../../../shared/lessons/availability';
import { PLANNED_STATUSES } from '../../../shared/lessons/lesson-states';
import type { AvailabilityView } from '../availability-store';
import type { Db } from '../lesson-records';
import { storedFrom } from '../lifecycle/lesson-moves';
import { holdsTimeAt } from '../lifecycle/lesson-states-sql';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

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

type Kind = 'tutor' | 'class' | 'student' | 'due' | 'package';

export async function bookingFacts(
  db: Db,
  availability: AvailabilityView,
  check: BookingCheck,
): Promise<BookingFacts> {
  const { tutorId, studentId, start, now } = check;
  const from = start;
  const to = start + 1;
  const margin = 2 * HOUR + availability.bufferMinutes * 60_000;
  const kind = (name: Kind) => sql<Kind>`${name}::text`.as('kind');
  // The rows that only say something is there have no times (read only by their kind).
  const none = sql<Date>`null::timestamptz`;
  const tutorLessons = db
    .selectFrom('lessons')
    .select([kind('tutor'), 'starts_at', 'ends_at', 'blocked_until'])
    .where('tutor_id', '=', tutorId)
    .where('status', 'in', PLANNED_STATUSES)
    .where(holdsTimeAt(now))
    .where('starts_at', '<', new Date(to + margin))
    .where('blocked_until', '>', new Date(from - margin))
    // A class's seats are counted through its sessions, below.
    .where('class_session_id', 'is', null);
  const classes = db
    .selectFrom('class_sessions')
    .select([kind('class'), 'starts_at', 'ends_at', 'blocked_until'])
    .where('tutor_id', '=', tutorId)
    .where('status', '=', 'scheduled')
    .where('starts_at', '<', new Date(to + margin))
    .where('blocked_until', '>', new Date(from - margin));
  const studentLessons = db
    .selectFrom('lessons')
    .select([kind('student'), 'starts_at', 'ends_at', 'blocked_until'])
    .where('student_id', '=', studentId)
    .where('status', 'in', PLANNED_STATUSES)
    .where(holdsTimeAt(now))
    .where('starts_at', '<', new Date(to + DAY))
    .where('ends_at', '>', new Date(from));
  // A row of its kind when `query` finds anything.
  const whether = (name: Kind, query: Expression<unknown>) =>
    db
      .selectNoFrom([kind(name), none.as('starts_at'), none.as('ends_at'), none.as('blocked_until')])
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
  let query = tutorLessons.unionAll(classes).unionAll(studentLessons).unionAll(whether('due', pairsDue()));
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
  const buffer = availability.bufferMinutes * 60_000;
  const tutorBusy: Interval[] = [];
  const studentBusy: Interval[] = [];
  for (const row of rows) {
    if (row.kind === 'due' || row.kind === 'package') continue;
    if (row.kind === 'student')
      studentBusy.push({ start: row.starts_at.getTime(), end: row.ends_at.getTime() });
    // Each stretched by the buffer it was booked with beyond today's, as the constraint compares.
    else
      tutorBusy.push({
        start: row.starts_at.getTime(),
        end: Math.max(row.ends_at.getTime(), row.blocked_until.getTime() - buffer),
      });
  }
  const offered = offeredSlots({
    availability,
    settings: availability,
    minutes: check.minutes,
    from,
    to,
    now,
    tutorLessons: tutorBusy,
    studentLessons: studentBusy,
  });
  return {
    offered: offered.some((slot) => slot.start === start),
    due: rows.some((row) => row.kind === 'due'),
    packages: rows.some((row) => row.kind === 'package'),
  };
}
