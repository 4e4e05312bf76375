/**
 * The mail outbox's backlog: what waits to be delivered, what was given up, and since when the
 * oldest waits. The admin console's overview and the metrics both read it.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema';
import { MAX_ATTEMPTS } from './mailer';

export async function outboxBacklog(
  db: Kysely<DB>,
): Promise<{ waiting: number; failed: number; oldest: Date | null }> {
  const row = await db
    .selectFrom('mail_outbox')
    .where('sent_at', 'is', null)
    .select([
      sql<number>`count(*) filter (where attempts < ${MAX_ATTEMPTS})::int`.as('waiting'),
      sql<number>`count(*) filter (where attempts >= ${MAX_ATTEMPTS})::int`.as('failed'),
      sql<Date | null>`min(created_at) filter (where attempts < ${MAX_ATTEMPTS})`.as('oldest'),
    ])
    .executeTakeFirstOrThrow();
  return { waiting: row.waiting, failed: row.failed, oldest: row.oldest ? new Date(row.oldest) : null };
}
