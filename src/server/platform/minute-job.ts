/**
 * A job that runs every minute (and once, a second after start, so what fell due while the server
 * was down is done at once). A pass never overlaps the one before; a failed pass is logged and the
 * next one tries again. Several servers may run the same job: each job decides in the database
 * which server does each piece of work.
 *
 * Stopping waits for the pass in progress: the server closes the database (and then its log) only
 * after it, so a pass is never cut off halfway nor logs into a closed stream.
 */
import type { Logger } from '../logging/logger';

const FIRST_PASS_MS = 1_000;

/**
 * Told of every pass (the metrics count and time them); `job` is the job's short name, `seconds`
 * how long the pass took.
 */
export type MinuteJobObserver = (job: string, outcome: 'ok' | 'failed', seconds: number) => void;

export function startMinuteJob<Result>(
  job: {
    run(): Promise<Result>;
    /** Logs what a pass did, when it did something. */
    done(result: Result, logger: Logger): void;
    /** Names the job in a failed pass's log line. */
    failure: string;
    /** The job's short name, as the metrics label it. */
    name: string;
  },
  logger: Logger,
  everyMs = 60_000,
  observe?: MinuteJobObserver,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const pass = () => {
    if (running) return;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    running = job
      .run()
      .then((result) => {
        observe?.(job.name, 'ok', seconds());
        job.done(result, logger);
      })
      .catch((error) => {
        observe?.(job.name, 'failed', seconds());
        logger.warn({ err: (error as Error).message }, job.failure);
      })
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(pass, FIRST_PASS_MS);
  const timer = setInterval(pass, everyMs);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
