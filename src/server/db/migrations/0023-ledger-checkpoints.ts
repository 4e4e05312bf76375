/**
 * The ledger at scale: its totals and a person's history stay quick however many entries it holds.
 *
 * - A checkpoint is the sum of every entry up to one entry id, per kind of account (each clearing
 *   account on its own), written by a job now and then: the finance totals are the newest
 *   checkpoint plus the entries after it, a short read of the newest entries instead of all of
 *   them. Checkpoints are appended, never changed (the ledger's own trigger refuses it), and the
 *   job takes them while no entry is being written (see src/server/money/ledger-checkpoints.ts),
 *   so no entry below the id can commit after it.
 * - An account's entries by transaction, newest first: a wallet's history page reads twenty of
 *   them, not every entry of the account.
 * - The accounts by kind: the finance page lists the tutors' and the students' accounts, a few
 *   hundred among the hold accounts every lesson adds.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledger_checkpoints')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    // Every entry with an id up to this one is counted in the checkpoint, and no other.
    .addColumn('through_entry_id', 'bigint', (c) => c.notNull())
    // An account kind ('balance', 'hold', ...) or a clearing account's id ('clearing:manual').
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('ledger_checkpoints_through_name', ['through_entry_id', 'name'])
    .execute();
  await sql`create trigger ledger_checkpoints_append_only before update or delete on ledger_checkpoints
    for each row execute function ledger_append_only()`.execute(db);
  await sql`create trigger ledger_checkpoints_no_truncate before truncate on ledger_checkpoints
    for each statement execute function ledger_append_only()`.execute(db);

  await sql`create index ledger_entries_account_transaction_idx
    on ledger_entries (account_id, transaction_id desc)`.execute(db);
  // Only the kinds listed by person; the hold accounts, one a lesson, stay out of it.
  await sql`create index ledger_accounts_people_idx on ledger_accounts (kind)
    where kind in ('balance', 'payable')`.execute(db);
}
