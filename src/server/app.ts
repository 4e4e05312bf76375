/**
 * Builds the Hono application from its dependencies. Nothing here listens on a port or reads the
 * environment, so tests call the same app in-process with their own database and config.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { messages } from '../shared/messages';
import type { Config } from './config/config';
import type { Database } from './db/database';
import { healthRoutes } from './health/health-routes';
import { ApiError, errorResponse } from './http/api-error';
import type { AppEnv } from './http/app-env';
import { requestLogger } from './http/request-logger';
import { mountStaticSite } from './http/static-site';
import type { Logger } from './logging/logger';

export interface AppDependencies {
  config: Config;
  database: Database;
  logger: Logger;
  /** The built browser app (dist/client); omitted in API tests. */
  clientDir?: string;
}

export const MAX_BODY_BYTES = 100 * 1024;

export function createApp(deps: AppDependencies) {
  const { config, database, logger } = deps;
  const app = new Hono<AppEnv>();

  app.use(requestLogger(logger, config.trustProxy));

  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => errorResponse(c, 413, messages.bodyTooLarge, 'BODY_TOO_LARGE'),
    }),
  );

  const api = new Hono<AppEnv>().route('/', healthRoutes(database));
  app.route('/api', api);
  app.all('/api/*', (c) => errorResponse(c, 404, messages.notFound, 'NOT_FOUND'));

  if (deps.clientDir) mountStaticSite(app, deps.clientDir);

  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error.status, error.message, error.code);
    if (error instanceof HTTPException && error.status < 500) {
      return errorResponse(c, error.status, error.message || messages.invalidRequest);
    }
    c.var.logger?.error({ err: error }, 'unhandled error');
    return errorResponse(c, 500, messages.unexpectedError, 'INTERNAL');
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
