/**
 * The lessons' minute job: requests past their deadline become expired (both sides are mailed),
 * and confirmed lessons that have ended become completed (a student's first and third with a tutor
 * bring an invitation to review them). Safe with several servers on one
 * database: each change is one UPDATE that only touches rows still in the old status, so a row
 * is changed, and mailed about, by exactly one of them.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { Logger } from '../logging/logger';
import { releaseHold, settleHolds } from '../money/lesson-payments';
import { type MinuteJobObserver, startMinuteJob } from '../platform/minute-job';
import { announce, type LessonDeps, type Lines, pushLines } from './lesson-announcements';
import { lessonRowColumns } from './lesson-records';

/** A lesson the job completed. */
export interface CompletedLesson {
  id: string;
  tutor_id: string;
  student_id: string;
}

export interface LessonJobDeps extends LessonDeps {
  /**
   * What follows lessons' completion, in the transaction that completed them: the reviews'
   * invitations (src/server/reviews/review-invites.ts). Passed in, so that lessons need not import
   * the reviews, which read lessons.
   */
  afterCompleted(trx: Transaction<DB>, completed: CompletedLesson[]): Promise<void>;
}

/**
 * Marks every request whose deadline has passed as expired and mails both sides, once: with
 * several servers on one database, each row is updated (and mailed) by whichever gets it first;
 * the others find it no longer pending. `among` limits it to the lessons of some users.
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
    .where('status', '=', 'pending')
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

/**
 * Marks confirmed lessons that have ended as completed, and returns them: the one UPDATE decides
 * which server saw each one complete, so what follows from it (a mail) happens once.
 */
export async function completeDue(db: Kysely<DB>, now: number): Promise<CompletedLesson[]> {
  return db
    .updateTable('lessons')
    .set({ status: 'completed', updated_at: new Date(now) })
    .where('status', '=', 'confirmed')
    .where('ends_at', '<=', new Date(now))
    .returning(['id', 'tutor_id', 'student_id'])
    .execute();
}

export async function runLessonJobs(
  deps: LessonJobDeps,
  now = Date.now(),
): Promise<{ expired: number; completed: number }> {
  const lines: Lines = [];
  const expired = await deps.db.transaction().execute((trx) => expireDue(deps, trx, now, lines));
  if (expired > 0) deps.mailer.deliverSoon();
  await pushLines(deps, lines);
  // What follows completion is done in the transaction that completed them, so it happens once.
  const completed = await deps.db.transaction().execute(async (trx) => {
    const done = await completeDue(trx, now);
    await settleHolds(
      trx,
      done.map((lesson) => lesson.id),
      now,
    );
    await deps.afterCompleted(trx, done);
    return done.length;
  });
  if (completed > 0) deps.mailer.deliverSoon();
  return { expired, completed };
}

export const startLessonJobs = (
  deps: LessonJobDeps,
  logger: Logger,
  everyMs?: number,
  observe?: MinuteJobObserver,
) =>
  startMinuteJob(
    {
      run: () => runLessonJobs(deps),
      done: ({ expired, completed }, log) => {
        if (expired || completed) log.info({ expired, completed }, 'lessons updated');
      },
      failure: 'lesson job failed',
      name: 'lessons',
    },
    logger,
    everyMs,
    observe,
  );
