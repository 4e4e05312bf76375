/**
 * Housekeeping, every ten minutes: removes what has expired (sessions, reset links, used captcha
 * solutions and authenticator codes, rate limit counters), verification links a week after they
 * expire, the answers kept under an Idempotency-Key after a day, and delivered mail older than 30
 * days. On the embedded store it also keeps the planner's statistics fresh, as autovacuum does on a
 * PostgreSQL server.
 */
import { type Kysely, sql } from 'kysely';
import type { StoreKind } from '../db/database';
import type { DB } from '../db/schema';
import { IDEMPOTENCY_KEEP_MS } from '../http/idempotency';
import type { Logger } from '../logging/logger';
import { refreshStaleStatistics } from './planner-statistics';

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * How long a verification link is remembered after it expires: someone who opens last week's mail
 * is told the link expired (or that the address is already verified), not that it is unknown.
 */
const VERIFICATION_LINK_MEMORY_MS = 7 * DAY_MS;

/**
 * The most rows one statement of housekeeping deletes. PostgreSQL ends a statement at its second
 * (src/server/db/database.ts) and rolls it back: a backlog (after the server was down, or rate
 * limit counters under an attack) deleted in one statement could never be cleared. A batch this
 * size takes milliseconds.
 */
export const CLEANUP_BATCH = 5000;

type Expiring =
  | 'sessions'
  | 'verifications'
  | 'email_verification_tokens'
  | 'captcha_solutions'
  | 'used_two_factor_codes'
  | 'rate_limits'
  | 'idempotent_requests'
  | 'mail_outbox';

/**
 * Deletes the rows of `table` whose `column` is before `before`, a batch at a time. The rows are
 * found by their physical address (ctid), which every table has whatever its key, and checked
 * again as they are deleted: a rate limit counter renewed in between is no longer expired, and
 * stays.
 */
async function removeBefore(
  db: Kysely<DB>,
  table: Expiring,
  column: string,
  before: Date | number,
): Promise<void> {
  const rows = sql.table(table);
  const expired = sql`${sql.ref(column)} < ${before}`;
  for (;;) {
    const { numAffectedRows } = await sql`delete from ${rows} where ${expired} and ctid = any(array(
      select ctid from ${rows} where ${expired} limit ${CLEANUP_BATCH}
    ))`.execute(db);
    if (Number(numAffectedRows ?? 0) < CLEANUP_BATCH) return;
  }
}

export async function removeExpired(db: Kysely<DB>, now = new Date()): Promise<void> {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const expiring: [Expiring, string, Date | number][] = [
    ['sessions', 'expires_at', now],
    ['verifications', 'expires_at', now],
    ['email_verification_tokens', 'expires_at', ago(VERIFICATION_LINK_MEMORY_MS)],
    ['captcha_solutions', 'expires_at', now],
    ['used_two_factor_codes', 'expires_at', now],
    ['rate_limits', 'expire', now.getTime()],
    // The answers kept under an Idempotency-Key, once older than clients are promised.
    ['idempotent_requests', 'created_at', ago(IDEMPOTENCY_KEEP_MS)],
    ['mail_outbox', 'sent_at', ago(30 * DAY_MS)],
  ];
  // Each table on its own: one that fails (a batch past PostgreSQL's second on a huge table) does
  // not keep the others from being cleared.
  const failures: unknown[] = [];
  for (const [table, column, before] of expiring) {
    await removeBefore(db, table, column, before).catch((error: unknown) => failures.push(error));
  }
  if (failures.length > 0) {
    const reasons = failures.map((error) => (error instanceof Error ? error.message : String(error)));
    throw new AggregateError(failures, `housekeeping failed: ${reasons.join('; ')}`);
  }
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
