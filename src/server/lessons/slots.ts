/**
 * The times a tutor offers: their availability less what their planned lessons (and a signed-in
 * student's own) keep busy. The rules are plain functions in src/shared/lessons/availability.ts;
 * what is added here is reading the busy times from the database.
 */

import { type Kysely, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { type Interval, offeredSlots } from '../../shared/lessons/availability';
import { MAX_BUFFER_MINUTES, TRIAL_MINUTES } from '../../shared/lessons/lesson-constants';
import type { SkipReason } from '../../shared/lessons/series';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type Listing, listedTutor } from '../platform/tutor-listing';
import { type AvailabilityView, availabilityOfRow, availabilityQuery } from './availability-store';
import {
  busyIntervals,
  studentBusy,
  studentBusyQuery,
  studentIntervals,
  tutorBusy,
  tutorBusyQuery,
} from './busy-times';
import { type Db, lessonMessages } from './lesson-records';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

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
  const { tutorId, studentId, from, to, now } = request;
  // The tutor, their availability and both people's busy times in one statement: on the embedded
  // store every statement is a round trip to the database's thread, which costs more than the rows.
  // The tutor's buffer is not known before the row is read, so the busy times are read for the
  // largest one (see tutorBusyQuery).
  const noLessons = sql<{ start: number; end: number }[]>`'[]'::json`;
  const row = await availabilityQuery(db)
    .innerJoin('tutor_profiles as tp', 'tp.user_id', 'u.id')
    .select([
      jsonArrayFrom(tutorBusyQuery(db, tutorId, { from, to, now }, MAX_BUFFER_MINUTES)).as('tutorBusy'),
      (studentId ? jsonArrayFrom(studentBusyQuery(db, studentId, { from, to, now })) : noLessons).as(
        'studentBusy',
      ),
    ])
    .where('tp.user_id', '=', tutorId)
    .where(listedTutor(listing))
    .executeTakeFirst();
  if (!row) throw new ApiError(404, lessonMessages.tutorNotFound, 'NOT_FOUND');
  const availability = availabilityOfRow(row);
  if (!(availability.trial.offered && request.minutes === TRIAL_MINUTES))
    checkLength(availability, request.minutes);
  return offeredSlots({
    availability,
    settings: availability,
    minutes: request.minutes,
    from,
    to,
    now,
    tutorLessons: busyIntervals(row.tutorBusy, availability.bufferMinutes),
    studentLessons: studentIntervals(row.studentBusy),
  });
}

export async function slotsOf(
  db: Db,
  availability: AvailabilityView,
  request: SlotRequest & { except?: string },
): Promise<Interval[]> {
  const { from, to, now, except } = request;
  const [tutorLessons, studentLessons] = await Promise.all([
    tutorBusy(db, request.tutorId, { from, to, now, except }, availability.bufferMinutes),
    request.studentId ? studentBusy(db, request.studentId, { from, to, now, except }) : [],
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
    tutorBusy(db, request.tutorId, { from, to, now }, availability.bufferMinutes),
    studentBusy(db, request.studentId, { from, to, now }),
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

/**
 * Slots as the API gives them, in ISO 8601. A month's answer holds some 1,800 instants on a few
 * dozen days at a few dozen times of day, and Date's toISOString for each cost more than working
 * out the slots: each day and each time of day is formatted once here, and the two joined.
 */
export function slotTexts(slots: Interval[]): { start: string; end: string }[] {
  const days = new Map<number, string>();
  const times = new Map<number, string>();
  const text = (at: number) => {
    const day = Math.floor(at / DAY);
    const time = at - day * DAY;
    let date = days.get(day);
    if (date === undefined) {
      date = new Date(day * DAY).toISOString().slice(0, 11);
      days.set(day, date);
    }
    let clock = times.get(time);
    if (clock === undefined) {
      clock = new Date(time).toISOString().slice(11);
      times.set(time, clock);
    }
    return date + clock;
  };
  return slots.map((slot) => ({ start: text(slot.start), end: text(slot.end) }));
}
