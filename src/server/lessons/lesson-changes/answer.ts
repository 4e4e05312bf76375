/** The tutor's answer to a request: accepted, it is confirmed; declined, its time is free again. */
import { ApiError } from '../../http/api-error';
import type { LessonDeps } from '../lesson-announcements';
import { type LessonView, lessonMessages, statusAt } from '../lesson-records';
import { answerMove } from '../lifecycle/answer-moves';
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
    await answerMove(deps, trx, lines, row, answer, { actorId: userId, now });
  });
}
