/**
 * The accounts deleted lately, so that no copy of their session's signed cookie cache is believed.
 * Better Auth trusts that cache without asking the database (./session.ts says where) for up to
 * SESSION_CACHE_SECONDS; a copy made before a deletion would go on showing the deleted person, their
 * name and address, until it expired. Each server keeps the ids deleted within that time in memory
 * and the cache's `version` (Better Auth's own option, read wherever a cache is read) refuses theirs:
 * on the deleting server at once, on the others when the live channel's notification arrives; a
 * server reads them from the database as soon as it is open, and again when it may have missed
 * notifications.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Logger } from '../logging/logger';
import { SESSION_CACHE_SECONDS } from './session';

/**
 * How long an id is remembered: the cache's own life, and a minute for clocks that differ between
 * the server that made a cache and the one reading it.
 */
const REMEMBERED_MS = (SESSION_CACHE_SECONDS + 60) * 1000;

/** The cookie cache's version for everyone else: Better Auth's default, so caches already made hold. */
const LIVE_VERSION = '1';
const ENDED_VERSION = 'account-deleted';

export interface EndedAccounts {
  /** An account deleted now, here or on another server. */
  add(userId: string): void;
  /** Learns, from the database, the accounts deleted within the cache's life. */
  catchUp(): Promise<void>;
  /**
   * The cookie cache's version for a user: a cache made before their deletion carries the live
   * one, and is refused from then on. Answered from memory once the first catch-up is done.
   */
  cacheVersion(user: { id: string }): Promise<string>;
}

export function createEndedAccounts(options: {
  db: Kysely<DB>;
  /** The database's opening: the first catch-up follows it. */
  ready: Promise<unknown>;
  logger: Logger;
  now?: () => number;
}): EndedAccounts {
  const { db, logger, now = Date.now } = options;
  const endedAt = new Map<string, number>();

  const forgetOld = () => {
    const before = now() - REMEMBERED_MS;
    for (const [id, at] of endedAt) if (at < before) endedAt.delete(id);
  };

  const ended: EndedAccounts = {
    add(userId) {
      forgetOld();
      endedAt.set(userId, now());
    },
    async catchUp() {
      const rows = await db
        .selectFrom('users')
        .select('id')
        .where('deleted_at', '>', new Date(now() - REMEMBERED_MS))
        .execute();
      for (const row of rows) if (!endedAt.has(row.id)) ended.add(row.id);
    },
    async cacheVersion(user) {
      // Waiting for the first catch-up, never starting a query: Better Auth asks this inside its
      // own transactions (a sign-up's), where a new query of ours would wait for the embedded
      // store's one connection. The first catch-up was sent as the database opened, before any
      // request could begin a transaction, so it never waits for one.
      await firstCatchUp;
      return endedAt.has(user.id) ? ENDED_VERSION : LIVE_VERSION;
    },
  };

  const firstCatchUp = options.ready
    .then(() => ended.catchUp())
    .catch((error) =>
      logger.warn({ err: (error as Error).message }, 'could not read the accounts deleted lately'),
    );
  return ended;
}
