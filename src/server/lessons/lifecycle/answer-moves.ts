/**
 * The moves of a request: the tutor confirms or declines it, or its deadline passes and it
 * expires. A decline and an expiry give the held price back to where it came from.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { releaseHold } from '../../money/lesson-payments';
import { announce, announceSeries, type LessonDeps, type Lines } from '../lesson-announcements';
import { type LessonRow, lessonRowColumns } from '../lesson-records';
import { checkMove, storedFrom } from './lesson-moves';

type Answer = 'accept' | 'decline';

/** Writes the answer to one locked request and moves its money; its mail is the caller's. */
async function writeAnswer(
  trx: Transaction<DB>,
  row: LessonRow,
  answer: Answer,
  by: { actorId: string; now: number },
): Promise<LessonRow> {
  checkMove(answer === 'accept' ? 'confirm' : 'decline', row.status);
  const updated = await trx
    .updateTable('lessons')
    .set({
      status: answer === 'accept' ? 'confirmed' : 'declined',
      expires_at: null,
      updated_at: new Date(by.now),
    })
    .where('id', '=', row.id)
    .returning(lessonRowColumns)
    .executeTakeFirstOrThrow();
  if (answer === 'decline') await releaseHold(trx, row.id, by);
  return updated;
}

/** The tutor's answer to one locked request: confirmed (an invitation to both), or declined. */
export async function answerMove(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  row: LessonRow,
  answer: Answer,
  by: { actorId: string; now: number },
) {
  const updated = await writeAnswer(trx, row, answer, by);
  if (answer === 'accept')
    await announce(deps, trx, lines, updated, 'confirmed', 'both', { invitation: 'REQUEST' });
  else await announce(deps, trx, lines, updated, 'declined', 'both');
}

/** The tutor's one answer to a series' waiting weeks (locked), told in one mail. */
export async function answerWeeksMove(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  rows: LessonRow[],
  answer: Answer,
  by: { actorId: string; now: number },
) {
  const updated: LessonRow[] = [];
  for (const row of rows) updated.push(await writeAnswer(trx, row, answer, by));
  await announceSeries(deps, trx, lines, updated, answer === 'accept' ? 'confirmed' : 'declined', 'both');
}

/**
 * Marks every request whose deadline has passed as expired, gives its price back and mails both
 * sides, once: with several servers on one database, each row is updated (and mailed) by whichever
 * gets it first; the others find it no longer pending. `among` limits it to the lessons of some users.
 */
export async function expireDue(
  deps: LessonDeps,
  trx: Transaction<DB>,
  now: number,
  lines: Lines,
  among?: string[],
) {
  let update = trx
    .updateTable('lessons')
    .set({ status: 'expired', updated_at: new Date(now) })
    .where('status', 'in', storedFrom('expire'))
    .where('expires_at', '<=', new Date(now));
  if (among?.length)
    update = update.where((eb) => eb.or([eb('tutor_id', 'in', among), eb('student_id', 'in', among)]));
  const expired = await update.returning(lessonRowColumns).execute();
  for (const row of expired) {
    await releaseHold(trx, row.id, { actorId: null, now });
    await announce(deps, trx, lines, row, 'expired', 'both');
  }
  return expired.length;
}
