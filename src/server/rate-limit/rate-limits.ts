/**
 * Rate limits (rate-limiter-flexible). On PostgreSQL the counters live in the rate_limits table,
 * so every server counts together; on the embedded store (one process) they live in memory.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { messages } from '../../shared/messages';
import { errorResponse } from '../http/api-error';
import type { AppEnv } from '../http/app-env';

export interface RateLimitRule {
  points: number;
  durationSeconds: number;
}

/** The limits of issue #5: the numbers users and attackers meet. */
export const rateLimitRules = {
  signIn: { points: 5, durationSeconds: 60 },
  signUp: { points: 5, durationSeconds: 60 },
  /** Verification and reset mails per email address, the one sent at sign-up included. */
  accountMail: { points: 5, durationSeconds: 60 * 60 },
  contact: { points: 5, durationSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof rateLimitRules;

export interface RateLimiters {
  /** Consumes one point; resolves with the seconds to wait when the limit is reached, else null. */
  consume(name: RateLimitName, key: string): Promise<number | null>;
}

export function createRateLimiters(options: {
  pool?: pg.Pool | undefined;
  rules?: Partial<typeof rateLimitRules>;
}): RateLimiters {
  const rules = { ...rateLimitRules, ...options.rules };
  const limiters = Object.fromEntries(
    Object.entries(rules).map(([name, rule]) => {
      const common = { keyPrefix: name, points: rule.points, duration: rule.durationSeconds };
      const limiter = options.pool
        ? new RateLimiterPostgres({
            ...common,
            storeClient: options.pool,
            tableName: 'rate_limits',
            tableCreated: true,
            clearExpiredByTimeout: false,
          })
        : new RateLimiterMemory(common);
      return [name, limiter];
    }),
  ) as Record<RateLimitName, RateLimiterMemory | RateLimiterPostgres>;

  return {
    async consume(name, key) {
      try {
        await limiters[name].consume(key);
        return null;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        throw rejection;
      }
    },
  };
}

export function tooManyRequests(c: Context, retryAfterSeconds: number) {
  c.header('Retry-After', String(retryAfterSeconds));
  c.header('Cache-Control', 'no-store');
  return errorResponse(c, 429, messages.tooManyRequests, 'TOO_MANY_REQUESTS');
}

/** Limits a route per client address. */
export function limitByClient(limiters: RateLimiters, name: RateLimitName): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const wait = await limiters.consume(name, c.get('clientAddress'));
    if (wait !== null) return tooManyRequests(c, wait);
    await next();
  };
}
