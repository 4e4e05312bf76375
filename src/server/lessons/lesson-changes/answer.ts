/** The tutor's answer to a request: accepted, it is confirmed; declined, its time is free again. */
import { ApiError } from '../../http/api-error';
import { releaseHold } from '../../money/lesson-payments';
import { announce, type LessonDeps } from '../lesson-announcements';
import { type LessonView, lessonMessages, lessonRowColumns, statusAt } from '../lesson-records';
import { change } from './lesson-change';

/** The tutor's answer to a request. */
export function answerRequest(
  deps: LessonDeps,
  userId: string,
  id: string,
  answer: 'accept' | 'decline',
  now: number,
): Promise<LessonView> {
  return change(deps, userId, id, now, async (trx, row, lines) => {
    if (row.tutor_id !== userId) throw new ApiError(403, lessonMessages.tutorAnswers, 'FORBIDDEN');
    const status = statusAt(row, now);
    if (status === 'expired') throw new ApiError(409, lessonMessages.requestExpired, 'REQUEST_EXPIRED');
    if (status !== 'pending') throw new ApiError(409, lessonMessages.notPending, 'NOT_PENDING');
    const updated = await trx
      .updateTable('lessons')
      .set({
        status: answer === 'accept' ? 'confirmed' : 'declined',
        expires_at: null,
        updated_at: new Date(now),
      })
      .where('id', '=', row.id)
      .returning(lessonRowColumns)
      .executeTakeFirstOrThrow();
    if (answer === 'accept')
      await announce(deps, trx, lines, updated, 'confirmed', 'both', { invitation: 'REQUEST' });
    else {
      await releaseHold(trx, row.id, { actorId: userId, now });
      await announce(deps, trx, lines, updated, 'declined', 'both');
    }
  });
}
