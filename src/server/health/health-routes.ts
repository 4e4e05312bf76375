import { Hono } from 'hono';
import type { Database } from '../db/database';
import type { AppEnv } from '../http/app-env';

/** GET /api/health: 200 when the database answers, 503 when it does not (for load balancers). */
export function healthRoutes(database: Database) {
  return new Hono<AppEnv>().get('/health', async (c) => {
    c.header('Cache-Control', 'no-store');
    try {
      await database.ping(1500);
      return c.json({ status: 'ok', database: database.kind });
    } catch (error) {
      c.var.logger.error({ err: (error as Error).message }, 'health check: database unavailable');
      return c.json({ status: 'unavailable', message: 'The database is not answering' }, 503);
    }
  });
}
