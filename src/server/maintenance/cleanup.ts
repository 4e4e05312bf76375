/**
 * Housekeeping, every ten minutes: removes what has expired (sessions, reset links, used captcha
 * solutions and authenticator codes, rate limit counters), verification links a week after they
 * expire, the answers kept under an Idempotency-Key after a day, and delivered mail older than 30
 * days. On the embedded store it also keeps the planner's statistics fresh, as autovacuum does on a
 * PostgreSQL server.
 */
import type { Kysely } from 'kysely';
import type { StoreKind } from '../db/database';
import type { DB } from '../db/schema';
import { removeOldIdempotentRequests } from '../http/idempotency';
import type { Logger } from '../logging/logger';
import { refreshStaleStatistics } from './planner-statistics';

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * How long a verification link is remembered after it expires: someone who opens last week's mail
 * is told the link expired (or that the address is already verified), not that it is unknown.
 */
const VERIFICATION_LINK_MEMORY_MS = 7 * DAY_MS;

export async function removeExpired(db: Kysely<DB>, now = new Date()): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
  await db.deleteFrom('verifications').where('expires_at', '<', now).execute();
  await db
    .deleteFrom('email_verification_tokens')
    .where('expires_at', '<', new Date(now.getTime() - VERIFICATION_LINK_MEMORY_MS))
    .execute();
  await db.deleteFrom('captcha_solutions').where('expires_at', '<', now).execute();
  await db.deleteFrom('used_two_factor_codes').where('expires_at', '<', now).execute();
  await db.deleteFrom('rate_limits').where('expire', '<', now.getTime()).execute();
  await removeOldIdempotentRequests(db, now);
  await db
    .deleteFrom('mail_outbox')
    .where('sent_at', '<', new Date(now.getTime() - 30 * DAY_MS))
    .execute();
}

/** A second after start-up (not in its way), then every `everyMs`. */
const FIRST_RUN_DELAY_MS = 1000;

export function startMaintenance(
  database: { db: Kysely<DB>; kind: StoreKind },
  logger: Logger,
  everyMs = 10 * 60 * 1000,
): () => Promise<void> {
  const { db, kind } = database;
  // The pass in progress, which stopping waits for (the database closes after it).
  let running: Promise<unknown> = Promise.resolve();
  const refreshStatistics = () =>
    refreshStaleStatistics(db)
      .then((tables) => {
        if (tables.length) logger.info({ tables }, 'planner statistics refreshed');
      })
      .catch((error) => logger.warn({ err: (error as Error).message }, 'statistics refresh failed'));
  const first = setTimeout(() => {
    if (kind === 'embedded') running = refreshStatistics();
  }, FIRST_RUN_DELAY_MS);
  const timer = setInterval(() => {
    running = running
      .then(() => removeExpired(db))
      .catch((error) => logger.warn({ err: (error as Error).message }, 'cleanup failed'))
      .then(() => (kind === 'embedded' ? refreshStatistics() : undefined));
  }, everyMs);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
