/**
 * Cancelling: either of a lesson's people calls it off before it starts, under the cancellation
 * policy fixed on the lesson when it was booked (src/shared/lessons/cancellation-policy.ts). The
 * student pays the late fee inside the window; the tutor gives a reason there, and is counted.
 * The move itself, its money and its mails, is the lifecycle's (../lifecycle/cancel-moves.ts).
 */
import type { LessonDeps } from '../lesson-announcements';
import type { LessonView } from '../lesson-records';
import { cancelByPersonMove } from '../lifecycle/cancel-moves';
import { change } from './lesson-change';

/**
 * Either participant cancels, before the start; a parent cancels their child's lesson as the
 * student would (the fee and the mails are the student's), and is the one the ledger names.
 */
export function cancelLesson(
  deps: LessonDeps,
  userId: string,
  id: string,
  reason: string | undefined,
  now: number,
): Promise<LessonView> {
  return change(deps, userId, id, now, (trx, row, lines, as) =>
    cancelByPersonMove(deps, trx, lines, row, { userId: as, actorId: userId, reason, now }),
  );
}
