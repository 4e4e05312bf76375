/**
 * What every change to an existing lesson shares: the lesson locked for it, one transaction with
 * its mails and lines, and the 24-hour rule for cancelling and moving. The database settles two
 * requests for one time: the exclusion constraints of the lessons table refuse the second
 * (23P01), which is answered 409, never 500.
 */
import type { Transaction } from 'kysely';
import { canChange } from '../../../shared/lessons/availability';
import type { DB } from '../../db/schema';
import { ApiError } from '../../http/api-error';
import { type LessonDeps, type Lines, pushLines } from '../lesson-announcements';
import { findLesson } from '../lesson-queries';
import {
  isPlanned,
  type LessonRow,
  type LessonView,
  lessonMessages,
  lessonRowColumns,
  statusAt,
} from '../lesson-records';

/** 23P01 (exclusion_violation): the time was taken by a request that got there first. */
export const isOverlap = (error: unknown) => (error as { code?: string } | null)?.code === '23P01';

/** The lesson locked for a change by one of its participants, or 404. */
async function lockLesson(trx: Transaction<DB>, userId: string, id: string): Promise<LessonRow> {
  const row = await trx
    .selectFrom('lessons')
    .select(lessonRowColumns)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('tutor_id', '=', userId), eb('student_id', '=', userId)]))
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new ApiError(404, lessonMessages.notFound, 'NOT_FOUND');
  return row;
}

/** Runs a change in a transaction, then hands the mails to the worker and reads the lesson back. */
export async function change(
  deps: LessonDeps,
  userId: string,
  id: string,
  now: number,
  work: (trx: Transaction<DB>, row: LessonRow, lines: Lines) => Promise<void>,
): Promise<LessonView> {
  const lines: Lines = [];
  try {
    await deps.db.transaction().execute(async (trx) => work(trx, await lockLesson(trx, userId, id), lines));
  } catch (error) {
    if (isOverlap(error)) throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
    throw error;
  }
  deps.mailer.deliverSoon();
  await pushLines(deps, lines);
  return findLesson(deps.db, userId, id, now);
}

export function checkChangeable(row: LessonRow, now: number) {
  const status = statusAt(row, now);
  if (!isPlanned(status)) throw new ApiError(409, lessonMessages.notActive, 'NOT_PLANNED');
  if (!canChange(row.starts_at.getTime(), now)) throw new ApiError(409, lessonMessages.cutoff, 'TOO_LATE');
  return status;
}
