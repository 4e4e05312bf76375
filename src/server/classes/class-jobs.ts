/**
 * The classes' minute job: each class whose decision time has come is held, or cancelled for
 * want of students (./class-changes.ts). Safe with several servers on one database: each class
 * is decided in a transaction holding its row, and only while it is still undecided.
 */
import type { Logger } from '../logging/logger';
import { type MinuteJobObserver, startMinuteJob } from '../platform/minute-job';
import { decideClasses } from './class-changes';
import type { ClassDeps } from './enrolment';

export const runClassJobs = (deps: ClassDeps, now = Date.now()) => decideClasses(deps, now);

export const startClassJobs = (
  deps: ClassDeps,
  logger: Logger,
  everyMs?: number,
  observe?: MinuteJobObserver,
) =>
  startMinuteJob(
    {
      run: () => runClassJobs(deps),
      done: ({ held, cancelled }, log) => {
        if (held || cancelled) log.info({ held, cancelled }, 'classes decided');
      },
      failure: 'class job failed',
      name: 'classes',
    },
    logger,
    everyMs,
    observe,
  );
