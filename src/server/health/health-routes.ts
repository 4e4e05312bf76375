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
  /** The last known state while it is fresh, without waiting; undefined when it is stale. */
  fresh(): boolean | undefined;
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
  const fresh = () => (Date.now() - checkedAt <= 2 * everyMs ? healthy : undefined);
  return {
    fresh,
    current: () => {
      const known = fresh();
      return known === undefined ? check() : Promise.resolve(known);
    },
    stop: () => clearInterval(timer),
  };
}

export const HEALTH_PATH = '/api/health';

/** The health answer for a state: status, body and headers, the same on both paths below. */
export function healthAnswer(kind: string, healthy: boolean) {
  return {
    status: healthy ? 200 : 503,
    body: JSON.stringify(
      healthy
        ? { status: 'ok', database: kind }
        : { status: 'unavailable', message: 'The database is not answering' },
    ),
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  };
}

export function healthRoutes(database: Database, monitor: HealthMonitor) {
  const answers = { up: healthAnswer(database.kind, true), down: healthAnswer(database.kind, false) };
  return new Hono<AppEnv>().get('/health', async (c) => {
    const answer = (await monitor.current()) ? answers.up : answers.down;
    return c.body(answer.body, answer.status as 200 | 503, answer.headers);
  });
}
