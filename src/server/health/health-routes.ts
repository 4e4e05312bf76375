/**
 * GET /api/health: 200 with `ready: true` when the database answers and its migrations are done,
 * 503 with `ready: false` otherwise (for load balancers, readiness probes and uptime checks). A mail
 * backlog never makes a server unready: mail waits in the outbox and goes out later. A background ping keeps the answer fresh once a second, so a health check never
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
  // database.ready resolves once the database is open and migrated (a failed migration stops the
  // server); API requests wait for it, so this is a second look rather than the usual answer.
  let migrated = false;
  database.ready.then(
    () => {
      migrated = true;
    },
    () => {},
  );
  return new Hono<AppEnv>().get('/health', async (c) => {
    if (!migrated)
      return c.json(
        {
          status: 'unavailable' as const,
          ready: false as const,
          message: 'The database is still being prepared',
        },
        503,
      );
    return (await monitor.current())
      ? c.json({ status: 'ok' as const, ready: true as const, database: database.kind }, 200)
      : c.json(
          { status: 'unavailable' as const, ready: false as const, message: 'The database is not answering' },
          503,
        );
  });
}
