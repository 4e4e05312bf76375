/**
 * Ending a family link: a parent removes a child or unlinks a student, an admin unlinks them, or
 * the parent's account is deleted. What the parent paid for and has not taken place goes back to
 * the parent's wallet in the same transaction: every one-to-one lesson ahead is called off (both
 * people told, the hold released), every class seat ahead is given up (the seat goes on to the
 * waitlist), and every active package bought for the student is ended (its unused credits back).
 * A child without a login of their own is deleted with the link, erased as a deleted account is:
 * nobody could act for them.
 */
import type { Transaction } from 'kysely';
import { closeClassesOf } from '../classes/class-changes';
import type { DB } from '../db/schema';
import type { LessonDeps, Lines } from '../lessons/lesson-announcements';
import { cancelBySchoolMove } from '../lessons/lifecycle/cancel-moves';
import { plannedAt } from '../lessons/lifecycle/lesson-states-sql';
import { endPackageIn } from '../money/packages';
import { closeAccountIn, eraseTracesIn, placeholderEmail } from './account-erasure';

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
  if (childDeleted) await deleteChildWithoutLogin(deps, trx, lines, { parentId, childId: studentId }, now);
  return { lessonsCancelled, packagesEnded: packages.length, childDeleted };
}

/**
 * Every family link of someone whose account is being deleted, ended: a parent's children let go
 * (those without a login erased), and a student's own link to the parent who paid for them. Run in
 * the deletion's transaction, before their own sign-in is erased.
 */
export async function endFamilyOf(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  userId: string,
  now: number,
): Promise<Unlinked[]> {
  const links = await trx
    .selectFrom('family_links')
    .select(['parent_id', 'student_id'])
    .where((eb) => eb.or([eb('parent_id', '=', userId), eb('student_id', '=', userId)]))
    .orderBy('student_id')
    .forUpdate()
    .execute();
  const ended: Unlinked[] = [];
  for (const link of links)
    ended.push(
      await unlinkStudent(
        deps,
        trx,
        lines,
        { parentId: link.parent_id, studentId: link.student_id },
        { actorId: userId, now },
      ),
    );
  return ended;
}

/**
 * A child without a login, gone with their parent's link: erased as a deleted account is (their past
 * lessons stay in the tutor's history under "Deleted user"). A child goes by a first name alone, so
 * the outbox's mails are searched for it only among those to the people who knew the child: the
 * parent and the tutors of their lessons and classes.
 */
async function deleteChildWithoutLogin(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  link: { parentId: string; childId: string },
  now: number,
) {
  const { parentId, childId } = link;
  const child = await trx
    .selectFrom('users')
    .select(['email', 'display_name'])
    .where('id', '=', childId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  if (!child) return;
  const knewThem = await trx
    .selectFrom('users')
    .select('email')
    .where((eb) =>
      eb.or([
        eb('id', '=', parentId),
        eb('id', 'in', eb.selectFrom('lessons').select('tutor_id').where('student_id', '=', childId)),
        eb(
          'id',
          'in',
          eb
            .selectFrom('class_enrolments as e')
            .innerJoin('classes as c', 'c.id', 'e.class_id')
            .select('c.tutor_id')
            .where('e.student_id', '=', childId),
        ),
      ]),
    )
    .execute();
  const placeholder = placeholderEmail();
  await closeAccountIn(deps, trx, lines, childId, placeholder, now);
  await eraseTracesIn(
    trx,
    { id: childId, email: child.email.toLowerCase(), name: child.display_name },
    placeholder,
    now,
    knewThem.map((row) => row.email.toLowerCase()),
  );
}
