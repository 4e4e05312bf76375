/**
 * Cross-site request forgery guard: a state-changing API request must come from our own origin.
 * Browsers always send Origin on such requests; a request without one (curl, a server) is allowed,
 * since it cannot ride on a visitor's cookies.
 */
import type { MiddlewareHandler } from 'hono';
import * as messages from '../../shared/messages';
import { errorResponse } from './api-error';
import type { AppEnv } from './app-env';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export function sameOriginOnly(trustedOrigins: string[]): MiddlewareHandler<AppEnv> {
  const own = new Set(trustedOrigins);
  return async (c, next) => {
    if (!safeMethods.has(c.req.method)) {
      const origin = c.req.header('origin');
      const fetchSite = c.req.header('sec-fetch-site');
      const foreign = origin ? !own.has(origin) : fetchSite === 'cross-site';
      if (foreign) return errorResponse(c, 403, messages.forbiddenOrigin, 'FORBIDDEN_ORIGIN');
    }
    await next();
  };
}
