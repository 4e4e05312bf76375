/**
 * A lesson called off by the school rather than by one of its people: an admin refunded it, or
 * cancelled it for a reason of their own.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema';
import { announce, type LessonDeps, type Lines } from './lesson-announcements';
import { lessonRowColumns } from './lesson-records';

/**
 * Cancels the lesson if it is still planned and has not started, and tells both of its people
 * (a confirmed lesson's invitation withdrawn). A lesson that took place is left as it is. The
 * mails say why the school called it off: a refund (the default), or an admin's cancellation.
 */
export async function callOffLesson(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lessonId: string,
  reason: string,
  now: number,
  lines: Lines,
  why: 'refunded' | 'cancelled' = 'refunded',
): Promise<boolean> {
  const before = await trx
    .selectFrom('lessons')
    .select('status')
    .where('id', '=', lessonId)
    .where('status', 'in', ['pending', 'confirmed'])
    .where('starts_at', '>', new Date(now))
    .forUpdate()
    .executeTakeFirst();
  if (!before) return false;
  const row = await trx
    .updateTable('lessons')
    .set((eb) => ({
      status: 'cancelled',
      // Neither of the lesson's people called it off: Tutorlane did.
      cancelled_by: null,
      cancel_reason: reason,
      sequence: eb('sequence', '+', 1),
      updated_at: new Date(now),
    }))
    .where('id', '=', lessonId)
    .returning(lessonRowColumns)
    .executeTakeFirstOrThrow();
  await announce(deps, trx, lines, row, 'cancelled', 'both', {
    ...(why === 'refunded' ? { refunded: true } : { byTeam: true }),
    reason,
    ...(before.status === 'confirmed' ? { invitation: 'CANCEL' as const } : {}),
  });
  return true;
}
