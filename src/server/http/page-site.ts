/**
 * The part of the site that needs no database: the built app's pages and assets for a visitor who
 * is not signed in. The server answers these from the moment its port is open, while the database
 * is still opening (issue #6, start-up to first 200); the API, a signed-in visitor's page and a
 * tutor's page wait for the database. Both sites start from the same base: one log line per
 * request and the security headers.
 */
import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import { tutorPath } from '../../shared/routes';
import { SESSION_COOKIE } from '../accounts/session';
import type { Config } from '../config/config';
import type { Logger } from '../logging/logger';
import { publicConfig } from '../public-config/public-config-routes';
import type { AppEnv } from './app-env';
import { requestLogger } from './request-logger';
import { securityHeaders } from './security-headers';
import { mountStaticSite } from './static-site';

/** A Hono app with what every response of ours carries. */
export function createSiteBase(config: Config, logger: Logger): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestLogger(logger, config.trustProxy));
  app.use(securityHeaders({ https: config.secure, recaptcha: Boolean(config.recaptcha) }));
  return app;
}

/** Pages (nobody signed in) and assets, from the built app alone. */
export function createPageSite(deps: { config: Config; logger: Logger; clientDir: string }): Hono<AppEnv> {
  const app = createSiteBase(deps.config, deps.logger);
  mountStaticSite(app, deps.clientDir, { publicConfig: publicConfig(deps.config) });
  return app;
}

const tutorPagePrefix = tutorPath('');

/** Whether the page site can answer this request as the whole app would, without the database. */
export function servableWithoutDatabase(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (path.startsWith('/api/')) return false;
  // Whether a tutor's page exists (200 or 404) is in the database.
  if (path.startsWith(tutorPagePrefix)) return false;
  // A signed-in visitor's page carries who is signed in.
  return !req.headers.cookie?.includes(SESSION_COOKIE);
}
