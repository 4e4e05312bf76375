/**
 * The lessons' minute job: requests past their deadline become expired (both sides are mailed),
 * and confirmed lessons that have ended become completed, their holds settled (a student's first
 * and third with a tutor bring an invitation to review them), each through its move in
 * ./lifecycle. Safe with several servers on one
 * database: each change is one UPDATE that only touches rows still in the old status, so a row
 * is changed, and mailed about, by exactly one of them.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { Logger } from '../logging/logger';
import { type MinuteJobObserver, startMinuteJob } from '../platform/minute-job';
import { type LessonDeps, type Lines, pushLines } from './lesson-announcements';
import { expireDue } from './lifecycle/answer-moves';
import { type CompletedLesson, completeDue } from './lifecycle/end-moves';

export type { CompletedLesson };

export interface LessonJobDeps extends LessonDeps {
  /**
   * What follows lessons' completion, in the transaction that completed them: the reviews'
   * invitations (src/server/reviews/review-invites.ts). Passed in, so that lessons need not import
   * the reviews, which read lessons.
   */
  afterCompleted(trx: Transaction<DB>, completed: CompletedLesson[]): Promise<void>;
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
