/**
 * One structured line per request: method, path (without query, which may carry tokens), status,
 * duration and client address. Headers and bodies are never logged. Handlers log through
 * `c.get('logger')`, which stamps the request id on every line; it costs nothing until used.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logging/logger';
import type { AppEnv } from './app-env';
import { clientAddress } from './client-address';

type LogMethod = (object: Record<string, unknown>, message?: string) => void;

/** The part of a logger a request handler uses, bound to one request. */
export interface RequestLogger {
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
}

class BoundLogger implements RequestLogger {
  constructor(
    private readonly logger: Logger,
    private readonly requestId: string,
  ) {}
  error: LogMethod = (object, message) =>
    this.logger.error({ requestId: this.requestId, ...object }, message);
  warn: LogMethod = (object, message) => this.logger.warn({ requestId: this.requestId, ...object }, message);
  info: LogMethod = (object, message) => this.logger.info({ requestId: this.requestId, ...object }, message);
  debug: LogMethod = (object, message) =>
    this.logger.debug({ requestId: this.requestId, ...object }, message);
}

export function requestLogger(logger: Logger, trustedProxies: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    const address = clientAddress(c, trustedProxies);
    const log = new BoundLogger(logger, requestId);
    c.set('logger', log);
    c.set('requestId', requestId);
    c.set('clientAddress', address);
    await next();
    const status = c.res.status;
    const level =
      status >= 500
        ? 'error'
        : status === 401 || status === 403 || status === 429
          ? 'warn'
          : c.req.path.startsWith('/api/')
            ? 'info'
            : 'debug';
    if (!logger.isLevelEnabled(level)) return;
    const line = {
      method: c.req.method,
      path: c.req.path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      client: address,
    };
    log[level](line, level === 'error' ? 'request failed' : level === 'warn' ? 'request refused' : 'request');
  };
}
