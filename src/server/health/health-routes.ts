/**
 * GET /api/health: 200 when the database answers, 503 when it does not (for load balancers and
 * uptime checks). A background ping keeps the answer fresh once a second, so a health check never
 * queues behind real queries and costs the database nothing however often it is asked.
 */
import { Hono } from 'hono';
import type { Database } from '../db/database';
import type { AppEnv } from '../http/app-env';
import type { Logger } from '../logging/logger';

export interface HealthMonitor {
  /** The last known state; pings now when it is older than two intervals. */
  current(): Promise<boolean>;
  stop(): void;
}

export function createHealthMonitor(database: Database, logger: Logger, everyMs = 1000): HealthMonitor {
  let healthy = false;
  let checkedAt = 0;
  let checking: Promise<boolean> | undefined;
  const check = () => {
    checking ??= database
      .ping(Math.min(everyMs, 1500))
      .then(
        () => true,
        (error: Error) => {
          if (healthy) logger.error({ err: error.message }, 'health check: database unavailable');
          return false;
        },
      )
      .then((ok) => {
        healthy = ok;
        checkedAt = Date.now();
        checking = undefined;
        return ok;
      });
    return checking;
  };
  const timer = setInterval(() => void check(), everyMs);
  timer.unref();
  return {
    current: () => (Date.now() - checkedAt <= 2 * everyMs ? Promise.resolve(healthy) : check()),
    stop: () => clearInterval(timer),
  };
}

export function healthRoutes(database: Database, monitor: HealthMonitor) {
  return new Hono<AppEnv>().get('/health', async (c) =>
    (await monitor.current())
      ? c.json({ status: 'ok' as const, database: database.kind }, 200)
      : c.json({ status: 'unavailable' as const, message: 'The database is not answering' }, 503),
  );
}
