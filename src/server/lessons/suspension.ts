/** What a suspension (or the deletion of an account) does to the person's lessons. */
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema';
import { releaseHold } from '../money/lesson-payments';
import { announce, type LessonDeps, type Lines } from './lesson-announcements';
import { expireDue } from './lesson-jobs';
import { ACCOUNT_CLOSED_REASONS, lessonRowColumns } from './lesson-records';

/** Stored with lessons cancelled so, for the record; never shown as a reason. */
const CANCEL_REASONS = ACCOUNT_CLOSED_REASONS;

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
  why: keyof typeof CANCEL_REASONS = 'suspended',
): Promise<number> {
  // A request whose time to answer has run out is expired, not cancelled, even if no job has
  // written it yet: it is marked so first, with its own mail, as a booking does.
  await expireDue(deps, trx, now, lines, [userId]);
  const upcoming = await trx
    .selectFrom('lessons')
    .select(['id', 'status'])
    .where((eb) => eb.or([eb('tutor_id', '=', userId), eb('student_id', '=', userId)]))
    .where('status', 'in', ['pending', 'confirmed'])
    .where('starts_at', '>', new Date(now))
    .forUpdate()
    .execute();
  if (upcoming.length === 0) return 0;
  const cancelled = await trx
    .updateTable('lessons')
    .set((eb) => ({
      status: 'cancelled',
      // Neither of the lesson's people called it off: Tutorlane did.
      cancelled_by: null,
      cancel_reason: CANCEL_REASONS[why],
      sequence: eb('sequence', '+', 1),
      updated_at: new Date(now),
    }))
    .where(
      'id',
      'in',
      upcoming.map((lesson) => lesson.id),
    )
    .returning(lessonRowColumns)
    .execute();
  const wasConfirmed = new Set(upcoming.filter((lesson) => lesson.status === 'confirmed').map((l) => l.id));
  for (const row of cancelled) {
    await releaseHold(trx, row.id, { actorId: null, now });
    await announce(deps, trx, lines, row, 'cancelled', row.tutor_id === userId ? 'student' : 'tutor', {
      cancelledBy: userId,
      suspended: true,
      // A request was never in anyone's calendar; a confirmed lesson is taken out of it.
      ...(wasConfirmed.has(row.id) ? { invitation: 'CANCEL' as const } : {}),
    });
  }
  return cancelled.length;
}
