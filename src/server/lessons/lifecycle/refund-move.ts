/**
 * An admin's refund of one lesson: what the ledger holds for it goes back to the student (its
 * hold, or what its settlement gave the tutor and the school), and a lesson still planned is
 * called off, since a refunded lesson is not given for free.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { refundLessonPayment } from '../../money/lesson-payments';
import type { LessonDeps, Lines } from '../lesson-announcements';
import { cancelBySchoolMove } from './cancel-moves';
import { checkMove } from './lesson-moves';

export async function refundMove(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  lessonId: string,
  by: { actorId: string; reason: string; now: number },
) {
  const row = await trx
    .selectFrom('lessons')
    .select('status')
    .where('id', '=', lessonId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  checkMove('refund', row.status);
  await refundLessonPayment(trx, lessonId, by);
  await cancelBySchoolMove(deps, trx, lines, lessonId, { why: 'refunded', ...by });
}
