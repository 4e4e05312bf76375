/**
 * The lessons' minute job: requests past their deadline become expired (both sides are mailed),
 * and confirmed lessons that have ended become completed (a student's first and third with a tutor
 * bring an invitation to review them). Safe with several servers on one
 * database: each change is one UPDATE that only touches rows still in the old status, so a row
 * is changed, and mailed about, by exactly one of them.
 */
import type { Logger } from '../logging/logger';
import { inviteToReview } from '../reviews/review-invites';
import { completeDue, expireDue, type LessonDeps, type Lines, pushLines } from './lessons';

export async function runLessonJobs(
  deps: LessonDeps,
  now = Date.now(),
): Promise<{ expired: number; completed: number }> {
  const lines: Lines = [];
  const expired = await deps.db.transaction().execute((trx) => expireDue(deps, trx, now, lines));
  if (expired > 0) deps.mailer.deliverSoon();
  await pushLines(deps, lines);
  // A student is asked to review the tutor after their first and their third completed lesson.
  const completed = await deps.db.transaction().execute(async (trx) => {
    const done = await completeDue(trx, now);
    await inviteToReview({ mailer: deps.mailer, appUrl: deps.mail.appUrl }, trx, done);
    return done.length;
  });
  if (completed > 0) deps.mailer.deliverSoon();
  return { expired, completed };
}

export function startLessonJobs(deps: LessonDeps, logger: Logger, everyMs = 60_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runLessonJobs(deps)
      .then(({ expired, completed }) => {
        if (expired || completed) logger.info({ expired, completed }, 'lessons updated');
      })
      .catch((error) => logger.warn({ err: (error as Error).message }, 'lesson job failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
