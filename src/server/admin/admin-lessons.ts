/**
 * An admin cancels or moves any planned lesson that has not started, for a reason both of its
 * people are told. Each is audited in the lesson's own transaction; a cancellation gives the held
 * price back to the student in full.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { callOffLesson } from '../lessons/call-off';
import type { LessonDeps } from '../lessons/lesson-announcements';
import { adminChange, checkUpcoming } from '../lessons/lesson-changes/lesson-change';
import { moveLesson } from '../lessons/lesson-changes/reschedule';
import type { LessonRow, LessonView } from '../lessons/lesson-records';
import { lessonMessages } from '../lessons/lesson-records';
import { releaseHold } from '../money/lesson-payments';
import { type Actor, recordAudit } from './audit-log';

/** The lesson as the log names it: its subject, its id and its two people as they were. */
async function lessonTarget(trx: Transaction<DB>, row: LessonRow) {
  const names = await trx
    .selectFrom('users')
    .select(['id', 'display_name'])
    .where('id', 'in', [row.tutor_id, row.student_id])
    .execute();
  const name = (id: string) => names.find((user) => user.id === id)?.display_name ?? id;
  return {
    id: row.id,
    label: `${row.subject} lesson ${row.id} (tutor ${name(row.tutor_id)}, student ${name(row.student_id)})`,
  };
}

export function adminCancelLesson(
  deps: LessonDeps,
  actor: Actor,
  id: string,
  reason: string,
  now: number,
): Promise<LessonView> {
  return adminChange(deps, id, now, async (trx, row, lines) => {
    checkUpcoming(row, now);
    await callOffLesson(deps, trx, row.id, reason, now, lines, 'cancelled');
    await releaseHold(trx, row.id, { actorId: actor.id, now });
    const when = row.starts_at.toISOString();
    await recordAudit(trx, actor, 'lesson.cancelled', await lessonTarget(trx, row), `${when}: ${reason}`);
  });
}

export function adminMoveLesson(
  deps: LessonDeps,
  actor: Actor,
  id: string,
  move: { start: number; reason: string },
  now: number,
): Promise<LessonView> {
  return adminChange(deps, id, now, async (trx, row, lines) => {
    const status = checkUpcoming(row, now);
    if (row.starts_at.getTime() === move.start)
      throw new ApiError(400, lessonMessages.sameTime, 'VALIDATION_ERROR');
    if (status !== 'pending' && status !== 'confirmed') return;
    await moveLesson(deps, trx, lines, row, {
      start: move.start,
      status,
      now,
      extra: { byTeam: true, reason: move.reason },
    });
    const from = row.starts_at.toISOString();
    const to = new Date(move.start).toISOString();
    await recordAudit(
      trx,
      actor,
      'lesson.moved',
      await lessonTarget(trx, row),
      `${from} to ${to}: ${move.reason}`,
    );
  });
}
