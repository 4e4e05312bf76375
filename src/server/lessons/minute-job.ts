/**
 * A job that runs every minute (and once, a second after start, so what fell due while the server
 * was down is done at once). A pass never overlaps the one before; a failed pass is logged and the
 * next one tries again. Several servers may run the same job: each job decides in the database
 * which server does each piece of work.
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
): () => void {
  let running = false;
  const pass = () => {
    if (running) return;
    running = true;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    job
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
        running = false;
      });
  };
  const first = setTimeout(pass, FIRST_PASS_MS);
  const timer = setInterval(pass, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
