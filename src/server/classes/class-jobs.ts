/**
 * The classes' minute job: each class whose decision time has come is held, or cancelled for
 * want of students (./class-changes.ts); the fees of seats given up late are paid once their
 * session has taken place (./seats.ts). Safe with several servers on one database: each class
 * is decided in a transaction holding its row, and only while it is still undecided.
 */
import type { Logger } from '../logging/logger';
import { type MinuteJobObserver, startMinuteJob } from '../platform/minute-job';
import { decideClasses } from './class-changes';
import type { ClassDeps } from './enrolment';
import { settleKeptFees } from './seats';

export async function runClassJobs(deps: ClassDeps, now = Date.now()) {
  const decided = await decideClasses(deps, now);
  const feesPaid = await settleKeptFees(deps.db, now);
  return { ...decided, feesPaid };
}

export const startClassJobs = (
  deps: ClassDeps,
  logger: Logger,
  everyMs?: number,
  observe?: MinuteJobObserver,
) =>
  startMinuteJob(
    {
      run: () => runClassJobs(deps),
      done: ({ held, cancelled, feesPaid }, log) => {
        if (held || cancelled || feesPaid) log.info({ held, cancelled, feesPaid }, 'classes decided');
      },
      failure: 'class job failed',
      name: 'classes',
    },
    logger,
    everyMs,
    observe,
  );
