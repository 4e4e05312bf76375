/**
 * Ending a family link: a parent removes a child or unlinks a student, an admin unlinks them, or
 * the parent's account is deleted. What the parent paid for and has not taken place goes back to
 * the parent's wallet in the same transaction: every one-to-one lesson ahead is called off (both
 * people told, the hold released), every class seat ahead is given up (the seat goes on to the
 * waitlist), and every active package bought for the student is ended (its unused credits back).
 * A child without a login of their own is deleted with the link: nobody could act for them.
 */
import type { Transaction } from 'kysely';
import { DELETED_USER_NAME } from '../../shared/account-data';
import { closeClassesOf } from '../classes/class-changes';
import type { DB } from '../db/schema';
import type { LessonDeps, Lines } from '../lessons/lesson-announcements';
import { cancelBySchoolMove } from '../lessons/lifecycle/cancel-moves';
import { plannedAt } from '../lessons/lifecycle/lesson-states-sql';
import { endPackageIn } from '../money/packages';

/** The reason stored on each lesson the end of a link calls off. */
export const UNLINKED_REASON = 'family link removed';

export interface Unlinked {
  lessonsCancelled: number;
  packagesEnded: number;
  childDeleted: boolean;
}

export async function unlinkStudent(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  link: { parentId: string; studentId: string },
  by: { actorId: string | null; now: number },
): Promise<Unlinked> {
  const { parentId, studentId } = link;
  const { now } = by;
  const ahead = await trx
    .selectFrom('lessons')
    .select('id')
    .where('student_id', '=', studentId)
    .where('payer_id', '=', parentId)
    .where('class_session_id', 'is', null)
    .where(plannedAt(now))
    .where('starts_at', '>', new Date(now))
    .orderBy('id')
    .execute();
  let lessonsCancelled = 0;
  for (const { id } of ahead)
    if (
      await cancelBySchoolMove(deps, trx, lines, id, {
        why: 'cancelled',
        reason: UNLINKED_REASON,
        actorId: by.actorId,
        now,
      })
    )
      lessonsCancelled += 1;
  // The student's places in classes (the parent paid for every seat of a linked student).
  await closeClassesOf(deps, trx, studentId, now);
  const packages = await trx
    .selectFrom('lesson_packages')
    .select('id')
    .where('student_id', '=', studentId)
    .where('payer_id', '=', parentId)
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
  for (const { id } of packages) await endPackageIn(trx, id, by.actorId, now);
  const link_ = await trx
    .deleteFrom('family_links')
    .where('parent_id', '=', parentId)
    .where('student_id', '=', studentId)
    .returning('added_by_parent')
    .executeTakeFirst();
  const login = await trx
    .selectFrom('accounts')
    .select('id')
    .where('user_id', '=', studentId)
    .where('provider_id', '=', 'credential')
    .executeTakeFirst();
  const childDeleted = Boolean(link_?.added_by_parent) && !login;
  if (childDeleted) await deleteChildWithoutLogin(trx, studentId, now);
  return { lessonsCancelled, packagesEnded: packages.length, childDeleted };
}

/**
 * A child without a login, gone with their parent's link: their name is erased and the row marked
 * deleted (their past lessons stay in the tutor's history, as a deleted account's do).
 */
async function deleteChildWithoutLogin(trx: Transaction<DB>, childId: string, now: number) {
  await trx.deleteFrom('family_invitations').where('student_id', '=', childId).execute();
  await trx
    .updateTable('users')
    .set({
      display_name: DELETED_USER_NAME,
      birth_year: null,
      deleted_at: new Date(now),
      updated_at: new Date(now),
    })
    .where('id', '=', childId)
    .execute();
}
