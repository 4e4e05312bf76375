/**
 * Who may still take a tutor's trial lesson: a student takes one trial with each tutor, and only
 * before any other lesson with them. Booking checks it first; the database's unique index of one
 * trial per student and tutor (migration 0016) settles bookings sent at once.
 */
import { TRIAL_BLOCKING_STATUSES } from '../../shared/lessons/trials';
import type { Db } from './lesson-records';
import { statusReadIn } from './lifecycle/lesson-states-sql';

/**
 * Whether the student had a lesson with the tutor that stands in the way of a trial: one planned
 * or that took place (read as it is now: a request past its deadline has expired, and does not).
 */
export async function hadLessonWith(db: Db, studentId: string, tutorId: string, now: number) {
  const found = await db
    .selectFrom('lessons')
    .select('id')
    .where('student_id', '=', studentId)
    .where('tutor_id', '=', tutorId)
    .where(statusReadIn(TRIAL_BLOCKING_STATUSES, now))
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}
