/** Cancelling: either of a lesson's people calls it off, more than 24 hours before its start. */
import { releaseHold } from '../../money/lesson-payments';
import { announce, type LessonDeps } from '../lesson-announcements';
import { type LessonView, lessonRowColumns } from '../lesson-records';
import { change, checkChangeable } from './lesson-change';

/** Either participant cancels, more than 24 hours before the start. */
export function cancelLesson(
  deps: LessonDeps,
  userId: string,
  id: string,
  reason: string | undefined,
  now: number,
): Promise<LessonView> {
  return change(deps, userId, id, now, async (trx, row, lines) => {
    const status = checkChangeable(row, now);
    const updated = await trx
      .updateTable('lessons')
      .set((eb) => ({
        status: 'cancelled',
        cancelled_by: userId,
        cancel_reason: reason || null,
        sequence: eb('sequence', '+', 1),
        updated_at: new Date(now),
      }))
      .where('id', '=', row.id)
      .returning(lessonRowColumns)
      .executeTakeFirstOrThrow();
    // Cancelled under the rules in force (more than 24 hours ahead): the price goes back in full.
    await releaseHold(trx, row.id, { actorId: userId, now });
    await announce(deps, trx, lines, updated, 'cancelled', 'both', {
      reason: reason ?? null,
      cancelledBy: userId,
      // A request was never in anyone's calendar; a confirmed lesson is taken out of it.
      ...(status === 'confirmed' ? { invitation: 'CANCEL' as const } : {}),
    });
  });
}
