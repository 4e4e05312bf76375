/**
 * Rate limits (rate-limiter-flexible). On PostgreSQL the counters live in the rate_limits table,
 * so every server counts together; on the embedded store (one process) they live in memory.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import * as messages from '../../shared/messages';
import type { Database } from '../db/database';
import { errorResponse } from '../http/api-error';
import type { AppEnv } from '../http/app-env';

export interface RateLimitRule {
  points: number;
  durationSeconds: number;
  /** Once the points are spent, refuse for this long from the refused attempt (else: to the window's end). */
  blockSeconds?: number;
}

/** The numbers users and attackers meet. */
export const rateLimitRules = {
  /**
   * Sign-ins from one client address, successful or not: a ceiling high enough for a whole school
   * behind one address signing in at the start of a class.
   */
  signIn: { points: 600, durationSeconds: 60 },
  /**
   * Failed sign-ins on one account from one address: guessing a password takes far more than ten
   * tries, and someone elsewhere cannot lock the account's owner out.
   */
  signInFailures: { points: 10, durationSeconds: 15 * 60 },
  /**
   * Wrong two-factor codes (authenticator or backup) on one account, wherever they come from: a
   * six-digit code falls to guessing, so five in a row shut the account's code routes for fifteen
   * minutes. A right code forgives the count.
   */
  twoFactorCodes: { points: 5, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  signUp: { points: 5, durationSeconds: 60 },
  /** Verification and reset mails per email address, the one sent at sign-up included. */
  accountMail: { points: 5, durationSeconds: 60 * 60 },
  /**
   * Verification and reset mails asked for by one client address, whatever addresses they go to:
   * no client can mail any number of people. (Sign-up mails are bounded by signUp and the captcha.)
   */
  accountMailByClient: { points: 20, durationSeconds: 60 * 60 },
  contact: { points: 5, durationSeconds: 60 * 60 },
  /** Profile photo uploads per user: each may decode up to 50 megapixels. */
  profilePhoto: { points: 20, durationSeconds: 60 * 60 },
  /**
   * Profile saves per user, PATCH /api/profile and /api/profile/details together (a save that
   * renames takes both): far beyond a person editing, well short of a script rewriting the search
   * index all day.
   */
  profileUpdate: { points: 60, durationSeconds: 60 * 60 },
  /**
   * Bookings and lesson changes per user (book, accept, decline, cancel, reschedule, a new
   * calendar address): a busy tutor answers dozens of requests an hour; a script flooding a
   * tutor's inbox with requests stops here.
   */
  lessonChanges: { points: 120, durationSeconds: 60 * 60 },
  /** Top-up requests per student: each is a reference someone may have to match by hand. */
  topUps: { points: 10, durationSeconds: 60 * 60 },
  /** Messages per user, a conversation's first one included: a fast typist, not a spammer. */
  messages: { points: 30, durationSeconds: 60 },
  /**
   * Reports of messages per user: a person who meets abuse reports every message of it, not a
   * hundred a minute into the moderators' queue. (Reports of reviews share profileUpdate.)
   */
  messageReports: { points: 20, durationSeconds: 60 * 60 },
  /** New conversations a student opens a day: enough to ask around, not to canvass every tutor. */
  newConversations: { points: 10, durationSeconds: 24 * 60 * 60 },
  /**
   * Lesson room signals per user: a call takes a few dozen (offer, answer, candidates, each
   * toggle of the microphone or camera), a reconnection as many again.
   */
  roomSignals: { points: 600, durationSeconds: 60 },
  /**
   * Progress writes per user (lesson notes, goals, milestones, each tick of one): a lesson's worth
   * of ticking and typing many times over, not a script filling the tables.
   */
  progressWrites: { points: 300, durationSeconds: 60 * 60 },
  /** Exports of one's own data per user: each reads everything they have; a person needs one. */
  accountExport: { points: 10, durationSeconds: 60 * 60 },
  /** Account deletions tried per user: each checks the password, so it is no way to guess one. */
  accountDeletion: { points: 5, durationSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof rateLimitRules;

export interface RateLimiters {
  /** Consumes one point; resolves with the seconds to wait when the limit is reached, else null. */
  consume(name: RateLimitName, key: string): Promise<number | null>;
  /** Gives back one point `key` spent. */
  refund(name: RateLimitName, key: string): Promise<void>;
  /** Forgets what `key` has spent. */
  reset(name: RateLimitName, key: string): Promise<void>;
  /**
   * Forgets every counter whose key holds `text` (an email address, letter case aside), whatever
   * it counts: a deleted account's address must not outlive it here.
   */
  forgetKeysHolding(text: string): Promise<void>;
}

/** Past this many remembered keys of one limit, the ones whose counters have expired are dropped. */
const REMEMBERED_KEYS_PRUNE_AT = 5000;

export function createRateLimiters(options: {
  /** On PostgreSQL the counters live in the database; otherwise in this process. */
  database?: Pick<Database, 'kind' | 'pool'> | undefined;
  rules?: Partial<typeof rateLimitRules>;
}): RateLimiters {
  const pool = options.database?.kind === 'postgres' ? options.database.pool : undefined;
  const rules = { ...rateLimitRules, ...options.rules };
  const limiters = Object.fromEntries(
    Object.entries(rules).map(([name, rule]) => {
      const common = {
        keyPrefix: name,
        points: rule.points,
        duration: rule.durationSeconds,
        ...('blockSeconds' in rule ? { blockDuration: rule.blockSeconds } : {}),
      };
      const limiter = pool
        ? new RateLimiterPostgres({
            ...common,
            storeClient: pool,
            tableName: 'rate_limits',
            tableCreated: true,
            clearExpiredByTimeout: false,
          })
        : new RateLimiterMemory(common);
      return [name, limiter];
    }),
  ) as Record<RateLimitName, RateLimiterMemory | RateLimiterPostgres>;

  // The memory store cannot be searched through its public API, so the keys that hold an address
  // are remembered as they are used; the database store is searched with a query.
  const keysWithAddress = new Map<RateLimitName, Set<string>>();
  async function remember(name: RateLimitName, key: string) {
    if (pool || !key.includes('@')) return;
    const keys = keysWithAddress.get(name) ?? new Set<string>();
    keysWithAddress.set(name, keys);
    keys.add(key);
    if (keys.size < REMEMBERED_KEYS_PRUNE_AT) return;
    for (const known of [...keys]) if ((await limiters[name].get(known)) === null) keys.delete(known);
  }

  const secondsToWait = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return {
    async consume(name, key) {
      await remember(name, key);
      try {
        await limiters[name].consume(key);
        return null;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return secondsToWait(rejection);
        throw rejection;
      }
    },
    async refund(name, key) {
      await limiters[name].reward(key, 1);
    },
    async reset(name, key) {
      await limiters[name].delete(key);
    },
    async forgetKeysHolding(text) {
      const needle = text.toLowerCase();
      if (pool) {
        await pool.query('delete from rate_limits where strpos(lower(key), $1) > 0', [needle]);
        return;
      }
      for (const [name, keys] of keysWithAddress) {
        for (const key of [...keys]) {
          if (!key.toLowerCase().includes(needle)) continue;
          await limiters[name].delete(key);
          keys.delete(key);
        }
      }
    },
  };
}

export function tooManyRequests(
  c: Context,
  retryAfterSeconds: number,
  message: string = messages.tooManyRequests,
) {
  c.header('Retry-After', String(retryAfterSeconds));
  c.header('Cache-Control', 'no-store');
  return errorResponse(c, 429, message, 'TOO_MANY_REQUESTS');
}

/** Spends one point of `name` for `key`: null while within the limit, else the 429 to answer. */
export async function refusedByLimit(
  c: Context,
  limiters: RateLimiters,
  name: RateLimitName,
  key: string,
  message?: string,
): Promise<ReturnType<typeof tooManyRequests> | null> {
  const wait = await limiters.consume(name, key);
  return wait === null ? null : tooManyRequests(c, wait, message);
}

/** Limits a route per client address. */
export function limitByClient(limiters: RateLimiters, name: RateLimitName): MiddlewareHandler<AppEnv> {
  return async (c, next) => (await refusedByLimit(c, limiters, name, c.get('clientAddress'))) ?? next();
}

/**
 * Limits a route per signed-in user (after loadSession). A signed-out request passes through to
 * the route, which answers it 401.
 */
export function limitByUser(
  limiters: RateLimiters,
  name: RateLimitName,
  message?: string,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const user = c.get('user');
    return (user && (await refusedByLimit(c, limiters, name, user.id, message))) || next();
  };
}
