/**
 * An admin lists the lessons still to come, and cancels or moves any planned lesson that has not
 * started, for a reason both of its people are told. Each is audited in the lesson's own transaction; a cancellation gives the held
 * price back to the student in full.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { LessonStatus } from '../../shared/lessons/lesson-schemas';
import type { DB, LessonPaymentStatus } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { LessonDeps } from '../lessons/lesson-announcements';
import { adminChange, checkUpcoming } from '../lessons/lesson-changes/lesson-change';
import type { LessonRow, LessonView } from '../lessons/lesson-records';
import { lessonMessages, statusAt } from '../lessons/lesson-records';
import { cancelBySchoolMove } from '../lessons/lifecycle/cancel-moves';
import { plannedAt } from '../lessons/lifecycle/lesson-states-sql';
import { moveLesson } from '../lessons/lifecycle/time-moves';
import { type Actor, recordAudit } from '../platform/audit-log';

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
    await cancelBySchoolMove(deps, trx, lines, row.id, { why: 'cancelled', reason, actorId: actor.id, now });
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
    checkUpcoming(row, now);
    if (row.starts_at.getTime() === move.start)
      throw new ApiError(400, lessonMessages.sameTime, 'VALIDATION_ERROR');
    await moveLesson(deps, trx, lines, row, {
      start: move.start,
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

/** A lesson as the admins' list shows it: the lesson, and how often its tutor cancelled late. */
export interface AdminLessonRow {
  id: string;
  start: string;
  end: string;
  minutes: number;
  status: LessonStatus;
  subject: string;
  price: { amountCents: number; currency: string };
  /** Whether its price is held from the student's balance ("held"), or nothing was paid ("none"). */
  payment: { status: LessonPaymentStatus; amountCents: number; currency: string };
  tutor: { id: string; displayName: string; email: string; lateCancellations: number };
  student: { id: string; displayName: string; email: string };
}

export const ADMIN_LESSONS_LIMIT = 100;

/**
 * The planned lessons that have not ended, soonest first, at most ADMIN_LESSONS_LIMIT; `search`
 * keeps those whose tutor's or student's name or email contains it. Each tutor row counts their
 * cancellations inside a lesson's window, for admins to see who calls lessons off late.
 */
export async function listAdminLessons(
  db: Kysely<DB>,
  search: string | undefined,
  now: number,
): Promise<AdminLessonRow[]> {
  let query = db
    .selectFrom('lessons as l')
    .innerJoin('users as t', 't.id', 'l.tutor_id')
    .innerJoin('users as s', 's.id', 'l.student_id')
    .select([
      'l.id',
      'l.starts_at',
      'l.ends_at',
      'l.minutes',
      'l.status',
      'l.expires_at',
      'l.subject',
      'l.price_cents',
      'l.currency',
      'l.payment_status',
      'l.tutor_id',
      't.display_name as tutor_name',
      't.email as tutor_email',
      'l.student_id',
      's.display_name as student_name',
      's.email as student_email',
      (eb) =>
        eb
          .selectFrom('lessons as late')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('late.tutor_id', '=', 'l.tutor_id')
          .where('late.cancelled_late', '=', true)
          .as('late_cancellations'),
    ])
    // Planned as the lessons read now: a request past its deadline reads expired, and a lesson
    // whose end has passed reads completed, so neither is left to cancel or move.
    .where(plannedAt(now, 'l'));
  const words = search?.trim();
  if (words) {
    // LIKE's own wildcards in what was typed are taken literally.
    const pattern = `%${words.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['t.display_name']), 'like', pattern),
        eb(eb.fn('lower', ['t.email']), 'like', pattern),
        eb(eb.fn('lower', ['s.display_name']), 'like', pattern),
        eb(eb.fn('lower', ['s.email']), 'like', pattern),
      ]),
    );
  }
  const rows = await query.orderBy('l.starts_at').orderBy('l.id').limit(ADMIN_LESSONS_LIMIT).execute();
  return rows.map((row) => ({
    id: row.id,
    start: row.starts_at.toISOString(),
    end: row.ends_at.toISOString(),
    minutes: row.minutes,
    status: statusAt(row, now),
    subject: row.subject,
    price: { amountCents: row.price_cents, currency: row.currency },
    payment: { status: row.payment_status, amountCents: row.price_cents, currency: row.currency },
    tutor: {
      id: row.tutor_id,
      displayName: row.tutor_name,
      email: row.tutor_email,
      lateCancellations: row.late_cancellations ?? 0,
    },
    student: { id: row.student_id, displayName: row.student_name, email: row.student_email },
  }));
}
