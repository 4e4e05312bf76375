/**
 * One structured line per request: method, path (without query, which may carry tokens), status,
 * duration and client address. Headers and bodies are never logged. Handlers log through
 * `c.get('logger')`, which stamps the request id on every line; it costs nothing until used.
 *
 * What is worth a line: a failure (error), a refusal or a slow answer (warn), every other API
 * request (info) unless `everyRequest` is off, as for a person reading a terminal, who then sees
 * only what needs their attention; pages and assets at debug.
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

/** An answer that took longer than this is logged as slow. */
export const SLOW_REQUEST_MS = 1000;

export function requestLogger(
  logger: Logger,
  trustedProxies: number,
  options: { everyRequest: boolean; slowMs?: number } = { everyRequest: true },
): MiddlewareHandler<AppEnv> {
  const slowMs = options.slowMs ?? SLOW_REQUEST_MS;
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
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const refused = status === 401 || status === 403 || status === 429;
    const slow = ms >= slowMs;
    const level =
      status >= 500
        ? 'error'
        : refused || slow
          ? 'warn'
          : c.req.path.startsWith('/api/') && options.everyRequest
            ? 'info'
            : 'debug';
    if (!logger.isLevelEnabled(level)) return;
    const line = { method: c.req.method, path: c.req.path, status, ms, client: address };
    const message =
      level === 'error'
        ? 'request failed'
        : refused
          ? 'request refused'
          : level === 'warn'
            ? 'slow request'
            : 'request';
    log[level](line, message);
  };
}
