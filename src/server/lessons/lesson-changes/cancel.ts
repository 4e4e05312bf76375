/**
 * Cancelling: either of a lesson's people calls it off before it starts, under the cancellation
 * policy fixed on the lesson when it was booked (src/shared/lessons/cancellation-policy.ts). The
 * student pays the late fee inside the window; the tutor gives a reason there, and is counted.
 */
import { studentTerms, tutorTerms } from '../../../shared/lessons/cancellation-policy';
import { ApiError } from '../../http/api-error';
import { chargeLateFee, releaseHold } from '../../money/lesson-payments';
import { announce, type LessonDeps } from '../lesson-announcements';
import {
  isPlanned,
  type LessonView,
  lessonMessages,
  lessonPolicyOf,
  lessonRowColumns,
  statusAt,
} from '../lesson-records';
import { change } from './lesson-change';

/** Either participant cancels, before the start. */
export function cancelLesson(
  deps: LessonDeps,
  userId: string,
  id: string,
  reason: string | undefined,
  now: number,
): Promise<LessonView> {
  return change(deps, userId, id, now, async (trx, row, lines) => {
    const status = statusAt(row, now);
    if (!isPlanned(status)) throw new ApiError(409, lessonMessages.notActive, 'NOT_PLANNED');
    if (row.starts_at.getTime() <= now) throw new ApiError(409, lessonMessages.started, 'TOO_LATE');
    const policy = lessonPolicyOf(row);
    const byTutor = row.tutor_id === userId;
    const late = byTutor && tutorTerms(policy, now).late;
    if (late && !reason)
      throw new ApiError(400, lessonMessages.lateReason, 'VALIDATION_ERROR', { field: 'reason' });
    // The row is locked: of two cancellations at once, the second finds it cancelled, so one fee.
    const fee = byTutor
      ? 0
      : await chargeLateFee(trx, row.id, studentTerms(policy, now).feeCents, { actorId: userId, now });
    // A tutor's cancellation, or a free one, gives the price back in full.
    if (fee === 0) await releaseHold(trx, row.id, { actorId: userId, now });
    const updated = await trx
      .updateTable('lessons')
      .set((eb) => ({
        status: 'cancelled',
        cancelled_by: userId,
        cancel_reason: reason || null,
        cancel_fee_cents: fee,
        cancelled_late: late,
        sequence: eb('sequence', '+', 1),
        updated_at: new Date(now),
      }))
      .where('id', '=', row.id)
      .returning(lessonRowColumns)
      .executeTakeFirstOrThrow();
    await announce(deps, trx, lines, updated, 'cancelled', 'both', {
      reason: reason ?? null,
      cancelledBy: userId,
      ...(fee > 0 ? { lateFee: { amountCents: fee, currency: row.currency } } : {}),
      // A request was never in anyone's calendar; a confirmed lesson is taken out of it.
      ...(status === 'confirmed' ? { invitation: 'CANCEL' as const } : {}),
    });
  });
}
