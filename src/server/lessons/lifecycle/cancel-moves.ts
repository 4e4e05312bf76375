/**
 * The cancellations: by the student (free, or with the late fee inside the lesson's window), by
 * the tutor (a reason inside the window, and counted), by an admin or a refund, and by Tutorlane
 * when one of the lesson's people is suspended or deletes their account. Each gives the price back
 * (all of it, or what the fee leaves) and tells whom it should.
 */
import type { Transaction } from 'kysely';
import { studentTerms, tutorTerms } from '../../../shared/lessons/cancellation-policy';
import { isPlanned } from '../../../shared/lessons/lesson-states';
import type { DB } from '../../db/schema';
import { ApiError } from '../../http/api-error';
import { chargeLateFee, releaseHold } from '../../money/lesson-payments';
import { announce, type LessonDeps, type Lines } from '../lesson-announcements';
import {
  ACCOUNT_CLOSED_REASONS,
  type LessonRow,
  lessonMessages,
  lessonPolicyOf,
  lessonRowColumns,
  statusAt,
} from '../lesson-records';
import { checkMove, storedFrom } from './lesson-moves';
import { plannedAt } from './lesson-states-sql';

/**
 * One of the lesson's people cancels the locked lesson, before its start. `userId` is the part
 * they cancel in (the tutor or the student); `actorId`, who the ledger names, when it is someone
 * else acting for the student (their parent).
 */
export async function cancelByPersonMove(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  row: LessonRow,
  by: { userId: string; actorId?: string; reason: string | undefined; now: number },
) {
  const { userId, reason, now } = by;
  const actorId = by.actorId ?? userId;
  const status = statusAt(row, now);
  if (!isPlanned(status)) throw new ApiError(409, lessonMessages.notActive, 'NOT_PLANNED');
  if (row.starts_at.getTime() <= now) throw new ApiError(409, lessonMessages.started, 'TOO_LATE');
  const byTutor = row.tutor_id === userId;
  checkMove(byTutor ? 'cancelByTutor' : 'cancelByStudent', row.status);
  const policy = lessonPolicyOf(row);
  const late = byTutor && tutorTerms(policy, now).late;
  if (late && !reason)
    throw new ApiError(400, lessonMessages.lateReason, 'VALIDATION_ERROR', { field: 'reason' });
  // The row is locked: of two cancellations at once, the second finds it cancelled, so one fee.
  const fee = byTutor
    ? 0
    : await chargeLateFee(trx, row.id, studentTerms(policy, now).feeCents, { actorId, now });
  // A tutor's cancellation, or a free one, gives the price back in full.
  if (fee === 0) await releaseHold(trx, row.id, { actorId, now });
  const updated = await trx
    .updateTable('lessons')
    .set((eb) => ({
      status: 'cancelled',
      cancelled_by: userId,
      cancel_reason: reason || null,
      cancel_fee_cents: fee,
      cancelled_late: late,
      sequence: eb('sequence', '+', 1),
      updated_at: new Date(now),
    }))
    .where('id', '=', row.id)
    .returning(lessonRowColumns)
    .executeTakeFirstOrThrow();
  await announce(deps, trx, lines, updated, 'cancelled', 'both', {
    reason: reason ?? null,
    cancelledBy: userId,
    ...(fee > 0 ? { lateFee: { amountCents: fee, currency: row.currency } } : {}),
    // A request was never in anyone's calendar; a confirmed lesson is taken out of it.
    ...(status === 'confirmed' ? { invitation: 'CANCEL' as const } : {}),
  });
}

/**
 * The school calls a lesson off: an admin cancelled it (its price given back in full), or
 * refunded it (the refund gave the money back first). Only a lesson still planned and not started
 * is called off (false otherwise: a lesson that took place stays as it is); both of its people are
 * told why (a confirmed lesson's invitation withdrawn).
 */
export async function cancelBySchoolMove(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  lessonId: string,
  by: { why: 'refunded' | 'cancelled'; reason: string; actorId: string | null; now: number },
): Promise<boolean> {
  const { now, reason } = by;
  const before = await trx
    .selectFrom('lessons')
    .select(['status', 'expires_at', 'ends_at'])
    .where('id', '=', lessonId)
    .where(plannedAt(now))
    .where('starts_at', '>', new Date(now))
    .forUpdate()
    .executeTakeFirst();
  if (!before) return false;
  checkMove('cancelByAdmin', before.status);
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
    ...(by.why === 'refunded' ? { refunded: true } : { byTeam: true }),
    reason,
    ...(before.status === 'confirmed' ? { invitation: 'CANCEL' as const } : {}),
  });
  // A refund has already given the money back; an admin's cancellation gives back the price.
  if (by.why === 'cancelled') await releaseHold(trx, lessonId, { actorId: by.actorId, now });
  return true;
}

/**
 * A suspended (or deleted) user's upcoming lessons, cancelled in the suspension's transaction:
 * each price given back, the other person of each mailed (a confirmed lesson's invitation
 * withdrawn), the suspended user not mailed about each. Expired requests were expired first.
 */
export async function cancelForAccountMove(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  userId: string,
  by: { why: keyof typeof ACCOUNT_CLOSED_REASONS; now: number },
): Promise<number> {
  const { now } = by;
  const move = by.why === 'suspended' ? 'cancelForSuspension' : 'cancelForDeletion';
  const upcoming = await trx
    .selectFrom('lessons')
    .select(['id', 'status'])
    .where((eb) => eb.or([eb('tutor_id', '=', userId), eb('student_id', '=', userId)]))
    .where('status', 'in', storedFrom(move))
    .where(plannedAt(now))
    .where('starts_at', '>', new Date(now))
    .forUpdate()
    .execute();
  if (upcoming.length === 0) return 0;
  const cancelled = await trx
    .updateTable('lessons')
    .set((eb) => ({
      status: 'cancelled',
      // Neither of the lesson's people called it off: Tutorlane did. Stored for the record only.
      cancelled_by: null,
      cancel_reason: ACCOUNT_CLOSED_REASONS[by.why],
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
