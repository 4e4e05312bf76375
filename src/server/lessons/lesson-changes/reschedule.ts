/** Rescheduling: the student moves a lesson to another time the tutor offers. */
import { requestExpiresAt } from '../../../shared/lessons/availability';
import { ApiError } from '../../http/api-error';
import { readAvailability } from '../availability-store';
import { announce, type LessonDeps } from '../lesson-announcements';
import { type LessonView, lessonMessages, lessonRowColumns } from '../lesson-records';
import { slotsOf } from '../slots';
import { change, checkChangeable } from './lesson-change';

/**
 * The student moves a lesson to another time the tutor offers, of the same length, more than 24
 * hours before its current start. It stays the same lesson (its id, its calendar UID); its own
 * current time does not count as taken.
 */
export function rescheduleLesson(
  deps: LessonDeps,
  userId: string,
  id: string,
  start: number,
  now: number,
): Promise<LessonView> {
  return change(deps, userId, id, now, async (trx, row, lines) => {
    if (row.student_id !== userId) throw new ApiError(403, lessonMessages.studentMoves, 'FORBIDDEN');
    const status = checkChangeable(row, now);
    if (row.starts_at.getTime() === start)
      throw new ApiError(400, lessonMessages.sameTime, 'VALIDATION_ERROR');
    const availability = await readAvailability(trx, row.tutor_id);
    const offered = await slotsOf(trx, availability, {
      tutorId: row.tutor_id,
      studentId: row.student_id,
      from: start,
      to: start + 1,
      minutes: row.minutes,
      now,
      except: row.id,
    });
    if (!offered.some((slot) => slot.start === start))
      throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
    const end = start + row.minutes * 60_000;
    const created = await trx
      .selectFrom('lessons')
      .select('created_at')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    const updated = await trx
      .updateTable('lessons')
      .set((eb) => ({
        starts_at: new Date(start),
        ends_at: new Date(end),
        blocked_until: new Date(end + availability.bufferMinutes * 60_000),
        sequence: eb('sequence', '+', 1),
        expires_at:
          status === 'pending' ? new Date(requestExpiresAt(created.created_at.getTime(), start)) : null,
        updated_at: new Date(now),
      }))
      .where('id', '=', row.id)
      .returning(lessonRowColumns)
      .executeTakeFirstOrThrow();
    if (status === 'confirmed')
      await announce(deps, trx, lines, updated, 'rescheduled', 'both', {
        previousStart: row.starts_at,
        invitation: 'REQUEST',
      });
    else await announce(deps, trx, lines, updated, 'request-moved', 'both', { previousStart: row.starts_at });
  });
}
