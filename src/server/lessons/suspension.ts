/** What a suspension (or the deletion of an account) does to the person's lessons. */
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { LessonDeps, Lines } from './lesson-announcements';
import type { ACCOUNT_CLOSED_REASONS } from './lesson-records';
import { expireDue } from './lifecycle/answer-moves';
import { cancelForAccountMove } from './lifecycle/cancel-moves';

/**
 * A suspended user's upcoming lessons (not yet started, and not expired), cancelled in the
 * suspension's transaction: the other person of each is mailed (a confirmed lesson's invitation
 * withdrawn) and a line goes into their conversation; the suspended user is not mailed about each.
 * A deleted account's lessons go the same way: to the other person it is an account no longer active.
 */
export async function cancelLessonsOfSuspended(
  deps: LessonDeps,
  trx: Transaction<DB>,
  userId: string,
  now: number,
  lines: Lines,
  why: keyof typeof ACCOUNT_CLOSED_REASONS = 'suspended',
): Promise<number> {
  // A request whose time to answer has run out is expired, not cancelled, even if no job has
  // written it yet: it is marked so first, with its own mail, as a booking does.
  await expireDue(deps, trx, now, lines, [userId]);
  return cancelForAccountMove(deps, trx, lines, userId, { why, now });
}
