/**
 * How a lesson ends once it took place: completed when its end passes (the minute job), or
 * marked a no-show by its tutor. Either way its hold is settled: the commission stored on the
 * lesson to the school, the rest to the tutor.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { settleHold, settleHolds } from '../../money/lesson-payments';
import { checkMove, storedFrom } from './lesson-moves';

/** A lesson the job completed. */
export interface CompletedLesson {
  id: string;
  tutor_id: string;
  student_id: string;
}

/**
 * Marks confirmed lessons that have ended as completed, settles their holds, and returns them:
 * the one UPDATE decides which server saw each one complete, so what follows from it (a mail, a
 * settlement) happens once.
 */
export async function completeDue(trx: Transaction<DB>, now: number): Promise<CompletedLesson[]> {
  const done = await trx
    .updateTable('lessons')
    .set({ status: 'completed', updated_at: new Date(now) })
    .where('status', 'in', storedFrom('complete'))
    .where('ends_at', '<=', new Date(now))
    .returning(['id', 'tutor_id', 'student_id'])
    .execute();
  await settleHolds(
    trx,
    done.map((lesson) => lesson.id),
    now,
  );
  return done;
}

/**
 * The tutor marks the locked lesson's student a no-show (the room's rules, checked by the caller,
 * say when): it is paid as a lesson that took place, since the tutor kept the time.
 */
export async function markNoShowMove(trx: Transaction<DB>, lessonId: string, now: number) {
  const row = await trx
    .selectFrom('lessons')
    .select('status')
    .where('id', '=', lessonId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  checkMove('markNoShow', row.status);
  await trx
    .updateTable('lessons')
    .set({ status: 'no_show', updated_at: new Date(now) })
    .where('id', '=', lessonId)
    .execute();
  await settleHold(trx, lessonId, now);
}
