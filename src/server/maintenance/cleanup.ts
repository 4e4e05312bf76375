/**
 * Housekeeping: removes what has expired (sessions, links, used captcha solutions, rate limit
 * counters) and delivered mail older than 30 days, every ten minutes.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Logger } from '../logging/logger';

export async function removeExpired(db: Kysely<DB>, now = new Date()): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
  await db.deleteFrom('verifications').where('expires_at', '<', now).execute();
  await db.deleteFrom('email_verification_tokens').where('expires_at', '<', now).execute();
  await db.deleteFrom('captcha_solutions').where('expires_at', '<', now).execute();
  await db.deleteFrom('rate_limits').where('expire', '<', String(now.getTime())).execute();
  await db
    .deleteFrom('mail_outbox')
    .where('sent_at', '<', new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000))
    .execute();
}

export function startMaintenance(db: Kysely<DB>, logger: Logger, everyMs = 10 * 60 * 1000): () => void {
  const timer = setInterval(() => {
    removeExpired(db).catch((error) => logger.warn({ err: (error as Error).message }, 'cleanup failed'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
