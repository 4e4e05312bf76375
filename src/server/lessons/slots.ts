/**
 * The times a tutor offers: their availability less what their planned lessons (and a signed-in
 * student's own) keep busy. The rules are plain functions in src/shared/lessons/availability.ts;
 * what is added here is reading the busy times from the database.
 */

import type { Kysely } from 'kysely';
import { type Interval, offeredSlots } from '../../shared/lessons/availability';
import { TRIAL_MINUTES } from '../../shared/lessons/lesson-constants';
import { PLANNED_STATUSES } from '../../shared/lessons/lesson-states';
import type { SkipReason } from '../../shared/lessons/series';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type Listing, listedTutor } from '../platform/tutor-listing';
import { type AvailabilityView, availabilityOfRow, availabilityQuery } from './availability-store';
import { type Db, lessonMessages } from './lesson-records';
import { holdsTimeAt } from './lifecycle/lesson-states-sql';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * What the tutor's planned lessons keep busy around [from, to). Each lesson is stretched by what
 * it stored as its own buffer beyond today's, so a slot offered here is one the database accepts
 * (the constraint compares the buffers the lessons were booked with).
 */
async function tutorBusy(
  db: Db,
  tutorId: string,
  from: number,
  to: number,
  now: number,
  bufferMinutes: number,
  except?: string,
) {
  let query = db
    .selectFrom('lessons')
    .select(['starts_at', 'ends_at', 'blocked_until'])
    .where('tutor_id', '=', tutorId)
    .where('status', 'in', PLANNED_STATUSES)
    .where(holdsTimeAt(now))
    .where('starts_at', '<', new Date(to + 2 * HOUR + bufferMinutes * 60_000))
    .where('blocked_until', '>', new Date(from - 2 * HOUR - bufferMinutes * 60_000));
  if (except) query = query.where('id', '<>', except);
  // A class's sessions keep the tutor's time too (its seats are lessons, kept out of the constraint
  // one-to-one lessons share, and counted here through their sessions).
  query = query.where('class_session_id', 'is', null);
  const classes = db
    .selectFrom('class_sessions')
    .select(['starts_at', 'ends_at', 'blocked_until'])
    .where('tutor_id', '=', tutorId)
    .where('status', '=', 'scheduled')
    .where('starts_at', '<', new Date(to + 2 * HOUR + bufferMinutes * 60_000))
    .where('blocked_until', '>', new Date(from - 2 * HOUR - bufferMinutes * 60_000));
  const rows = [...(await query.execute()), ...(await classes.execute())];
  const buffer = bufferMinutes * 60_000;
  return rows.map(
    (row): Interval => ({
      start: row.starts_at.getTime(),
      end: Math.max(row.ends_at.getTime(), row.blocked_until.getTime() - buffer),
    }),
  );
}

async function studentBusy(
  db: Db,
  studentId: string,
  from: number,
  to: number,
  now: number,
  except?: string,
) {
  let query = db
    .selectFrom('lessons')
    .select(['starts_at', 'ends_at'])
    .where('student_id', '=', studentId)
    .where('status', 'in', PLANNED_STATUSES)
    .where(holdsTimeAt(now))
    .where('starts_at', '<', new Date(to))
    .where('ends_at', '>', new Date(from));
  if (except) query = query.where('id', '<>', except);
  const rows = await query.execute();
  return rows.map((row): Interval => ({ start: row.starts_at.getTime(), end: row.ends_at.getTime() }));
}

/**
 * A listed tutor's booking facts, or null: only a tutor in the search can be booked. One query
 * with their availability: every slot list and every booking starts here.
 */
export async function bookableTutor(db: Db, tutorId: string, listing: Listing) {
  const row = await availabilityQuery(db)
    .innerJoin('tutor_profiles as tp', 'tp.user_id', 'u.id')
    .select(['u.id', 'u.display_name', 'u.email', 'tp.subjects', 'tp.hourly_rate'])
    .where('tp.user_id', '=', tutorId)
    .where(listedTutor(listing))
    .executeTakeFirst();
  if (!row) return null;
  const { id, display_name, email, time_zone, subjects, hourly_rate } = row;
  return { id, display_name, email, time_zone, subjects, hourly_rate, availability: availabilityOfRow(row) };
}

export interface SlotRequest {
  tutorId: string;
  from: number;
  to: number;
  minutes: number;
  /** A signed-in student: their own lessons are not offered over. */
  studentId?: string | undefined;
  now: number;
}

export function checkLength(availability: AvailabilityView, minutes: number) {
  if (!availability.lessonMinutes.includes(minutes)) {
    throw new ApiError(
      400,
      {
        text: /*i18n*/ "minutes must be one of this tutor's lesson lengths: {lengths}",
        values: { lengths: availability.lessonMinutes.join(', ') },
      },
      'VALIDATION_ERROR',
    );
  }
}

/**
 * The times a listed tutor offers in [from, to) for lessons of `minutes`. A tutor who offers a
 * trial offers its length too, even when their own lengths leave it out: the trial is booked in it.
 */
export async function findSlots(db: Kysely<DB>, request: SlotRequest, listing: Listing): Promise<Interval[]> {
  const tutor = await bookableTutor(db, request.tutorId, listing);
  if (!tutor) throw new ApiError(404, lessonMessages.tutorNotFound, 'NOT_FOUND');
  if (!(tutor.availability.trial.offered && request.minutes === TRIAL_MINUTES))
    checkLength(tutor.availability, request.minutes);
  return slotsOf(db, tutor.availability, request);
}

export async function slotsOf(
  db: Db,
  availability: AvailabilityView,
  request: SlotRequest & { except?: string },
): Promise<Interval[]> {
  const { from, to, now } = request;
  const [tutorLessons, studentLessons] = await Promise.all([
    tutorBusy(db, request.tutorId, from, to, now, availability.bufferMinutes, request.except),
    request.studentId ? studentBusy(db, request.studentId, from, to + DAY, now, request.except) : [],
  ]);
  return offeredSlots({
    availability,
    settings: availability,
    minutes: request.minutes,
    from,
    to,
    now,
    tutorLessons,
    studentLessons,
  });
}

/**
 * Whether each of `starts` is offered, by the same rule a single booking is checked with, and if
 * not, why: the first busy time or setting that keeps it from being offered. A weekly series asks
 * this of all its weeks at once.
 */
export async function judgeStarts(
  db: Db,
  availability: AvailabilityView,
  request: { tutorId: string; studentId: string; starts: number[]; minutes: number; now: number },
): Promise<{ start: number; reason: SkipReason | null }[]> {
  const { starts, minutes, now } = request;
  if (starts.length === 0) return [];
  const from = Math.min(...starts);
  const to = Math.max(...starts) + 1;
  const [tutorLessons, studentLessons] = await Promise.all([
    tutorBusy(db, request.tutorId, from, to, now, availability.bufferMinutes),
    studentBusy(db, request.studentId, from, to + DAY, now),
  ]);
  const offeredWith = (start: number, tutor: Interval[], student: Interval[]) =>
    offeredSlots({
      availability,
      settings: availability,
      minutes,
      from: start,
      to: start + 1,
      now,
      tutorLessons: tutor,
      studentLessons: student,
    }).some((slot) => slot.start === start);
  return starts.map((start) => {
    if (offeredWith(start, tutorLessons, studentLessons)) return { start, reason: null };
    if (start >= now + availability.bookingHorizonDays * DAY) return { start, reason: 'beyond_horizon' };
    if (start < now + availability.minimumNoticeHours * HOUR) return { start, reason: 'too_soon' };
    if (!offeredWith(start, [], [])) return { start, reason: 'unavailable' };
    if (!offeredWith(start, tutorLessons, [])) return { start, reason: 'taken' };
    return { start, reason: 'own_lesson' };
  });
}
