/**
 * GET /api/health: 200 with `ready: true` when the database can answer and its migrations are
 * done, 503 with `ready: false` when it cannot (for load balancers, readiness probes and uptime
 * checks). Busy is not down: a database working through a burst of requests or a backup is ready,
 * a stopped, unreachable or stuck one is not (Database.probe says which). A mail backlog never
 * makes a server unready either: mail waits in the outbox and goes out later. A background probe
 * keeps the answer fresh once a second, so a health check costs the database nothing however
 * often it is asked.
 */

import { Hono } from 'hono';
import type { Database } from '../db/database';
import type { AppEnv } from '../http/app-env';
import { languageOf } from '../http/language';
import { translate } from '../i18n/translations';
import type { Logger } from '../logging/logger';

export interface HealthMonitor {
  /** The last known state; probes now when it is older than two intervals. */
  current(): Promise<boolean>;
  stop(): void;
}

export function createHealthMonitor(database: Database, logger: Logger, everyMs = 1000): HealthMonitor {
  let healthy = false;
  let checkedAt = 0;
  let checking: Promise<boolean> | undefined;
  const check = () => {
    checking ??= database
      .probe()
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
          message: translate(languageOf(c), /*i18n*/ 'The database is still being prepared'),
        },
        503,
      );
    return (await monitor.current())
      ? c.json({ status: 'ok' as const, ready: true as const, database: database.kind }, 200)
      : c.json(
          {
            status: 'unavailable' as const,
            ready: false as const,
            message: translate(languageOf(c), /*i18n*/ 'The database is not answering'),
          },
          503,
        );
  });
}
