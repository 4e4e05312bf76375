/**
 * One structured line per request: method, path (without query, which may carry tokens), status,
 * duration and client address. Headers and bodies are never logged.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logging/logger';
import type { AppEnv } from './app-env';
import { clientAddress } from './client-address';

export function requestLogger(logger: Logger, trustedProxies: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    const address = clientAddress(c, trustedProxies);
    const log = logger.child({ requestId });
    c.set('logger', log);
    c.set('requestId', requestId);
    c.set('clientAddress', address);
    await next();
    const status = c.res.status;
    const line = {
      method: c.req.method,
      path: c.req.path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      client: address,
    };
    if (status >= 500) log.error(line, 'request failed');
    else if (status === 401 || status === 403 || status === 429) log.warn(line, 'request refused');
    else if (c.req.path.startsWith('/api/')) log.info(line, 'request');
    else log.debug(line, 'request');
  };
}
