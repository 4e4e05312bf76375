/**
 * The student's own reschedule of a lesson to another time the tutor offers (the move itself, as
 * a proposal's or an admin's, is the lifecycle's: ../lifecycle/time-moves.ts).
 */
import { ApiError } from '../../http/api-error';
import type { LessonDeps } from '../lesson-announcements';
import { type LessonView, lessonMessages } from '../lesson-records';
import { moveLesson } from '../lifecycle/time-moves';
import { change, checkMovable } from './lesson-change';

/**
 * The student moves a lesson to another time the tutor offers, of the same length, before its
 * free changes end (the lesson's window before its current start). It stays the same lesson (its id, its calendar UID); its own
 * current time does not count as taken.
 */
export function rescheduleLesson(
  deps: LessonDeps,
  userId: string,
  id: string,
  start: number,
  now: number,
): Promise<LessonView> {
  // A parent moves their child's lesson as the student (`as`) would.
  return change(deps, userId, id, now, async (trx, row, lines, as) => {
    if (row.student_id !== as) throw new ApiError(403, lessonMessages.studentMoves, 'FORBIDDEN');
    checkMovable(row, now);
    if (row.starts_at.getTime() === start)
      throw new ApiError(400, lessonMessages.sameTime, 'VALIDATION_ERROR');
    await moveLesson(deps, trx, lines, row, { start, now });
  });
}
