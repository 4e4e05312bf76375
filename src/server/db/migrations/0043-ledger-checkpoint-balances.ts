/**
 * People's balances at each checkpoint, so the finance page lists what each student holds and each
 * tutor is owed without looking up the newest entry of every person's account: the balances at
 * the newest checkpoint, overridden by the newest entry of the accounts moved since (see
 * src/server/money/ledger-checkpoints.ts).
 *
 * A checkpoint's rows are every 'balance' and 'payable' account whose balance is not zero once
 * the entries up to `through_entry_id` are counted; an account without a row there holds nothing.
 * Written by the checkpoint job under its lock on the entries (at a checkpoint once enough
 * entries have come since the last rows, not at every one), appended and never changed, like the
 * checkpoints of the totals.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledger_checkpoint_balances')
    // The balances once every entry with an id up to this one is counted, and no other.
    .addColumn('through_entry_id', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    // The account's kind and person, as the account has them (never changed): the finance page
    // lists people by kind, and reads these rows without looking up each account.
    .addColumn('account_kind', 'text', (c) => c.notNull().check(sql`account_kind in ('balance', 'payable')`))
    .addColumn('user_id', 'text')
    // A zero balance has no row, so the newest checkpoint's rows are exactly the people it lists.
    .addColumn('balance_cents', 'bigint', (c) => c.notNull().check(sql`balance_cents <> 0`))
    .addPrimaryKeyConstraint('ledger_checkpoint_balances_pkey', ['through_entry_id', 'account_id'])
    .execute();
  await sql`create trigger ledger_checkpoint_balances_append_only before update or delete
    on ledger_checkpoint_balances for each row execute function ledger_append_only()`.execute(db);
  await sql`create trigger ledger_checkpoint_balances_no_truncate before truncate
    on ledger_checkpoint_balances for each statement execute function ledger_append_only()`.execute(db);

  // The balances at the newest checkpoint already taken, so the first read after this migration
  // does not go through the whole ledger. Every entry up to it has committed (the checkpoint was
  // taken under the lock), and an account's newest entry is its highest sequence number.
  await sql`insert into ledger_checkpoint_balances
      (through_entry_id, account_id, account_kind, user_id, balance_cents)
    select newest.through, a.id, a.kind, a.user_id, last.balance_after_cents
      from (select max(through_entry_id) as through from ledger_checkpoints) newest,
        lateral (
          select distinct on (e.account_id) e.account_id, e.balance_after_cents
            from ledger_entries e
            where e.id <= newest.through and e.account_kind in ('balance', 'payable')
            order by e.account_id, e.account_seq desc
        ) last
        join ledger_accounts a on a.id = last.account_id
      where newest.through is not null and last.balance_after_cents <> 0`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
