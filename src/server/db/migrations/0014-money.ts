/**
 * Money: a double-entry ledger kept in the same database as the lessons it pays for, so that a
 * booking and the price it holds commit together or not at all.
 *
 * The database itself keeps the ledger's promises, whatever code writes to it:
 * - every transaction's entries sum to zero (a constraint trigger checked at commit), and a
 *   transaction has at least two entries;
 * - entries and transactions are never updated or deleted (triggers refuse it): a mistake is put
 *   right by a reversing transaction;
 * - each entry carries its account's running balance and sequence number, computed by a trigger
 *   while the account is locked, so writers to one account queue up and a student's balance, or a
 *   lesson's hold, can never go below zero: the check constraint refuses the entry that would;
 * - a transaction's idempotency key is unique, so a retried confirmation, webhook or job applies
 *   once.
 *
 * Amounts are integers in the currency's minor unit. Transactions are numbered by the database;
 * the number is the receipt number.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledger_accounts')
    // Named by what it is ("balance:<user id>", "hold:<lesson id>", "revenue", "clearing:manual"):
    // whoever needs an account can name it without a lookup, and creating it twice is harmless.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('balance', 'hold', 'payable', 'revenue', 'clearing')`),
    )
    // The student (balance) or tutor (payable) it belongs to. Not a foreign key: the ledger outlives
    // the accounts of the people in it.
    .addColumn('user_id', 'text')
    .addColumn('lesson_id', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index ledger_accounts_user_idx on ledger_accounts (user_id) where user_id is not null`.execute(
    db,
  );
  await sql`create index ledger_accounts_lesson_idx on ledger_accounts (lesson_id) where lesson_id is not null`.execute(
    db,
  );

  await db.schema
    .createTable('ledger_transactions')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`kind in ('top_up', 'lesson_hold', 'lesson_release', 'lesson_settle', 'lesson_refund', 'payout', 'balance_refund')`,
        ),
    )
    .addColumn('lesson_id', 'text')
    // Who did it; null when Tutorlane did (a job, a webhook).
    .addColumn('actor_id', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('memo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index ledger_transactions_lesson_idx on ledger_transactions (lesson_id) where lesson_id is not null`.execute(
    db,
  );
  await sql`create index ledger_transactions_created_idx on ledger_transactions (created_at)`.execute(db);

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('transaction_id', 'bigint', (c) => c.notNull().references('ledger_transactions.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    // Copied from the account by the trigger below, for the check constraint.
    .addColumn('account_kind', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents <> 0`))
    .addColumn('account_seq', 'integer', (c) => c.notNull())
    .addColumn('balance_after_cents', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('ledger_entries_account_seq', ['account_id', 'account_seq'])
    .addCheckConstraint(
      'ledger_entries_never_negative',
      sql`account_kind not in ('balance', 'hold') or balance_after_cents >= 0`,
    )
    .execute();
  await sql`create index ledger_entries_transaction_idx on ledger_entries (transaction_id)`.execute(db);

  // The running balance: the account row is locked first, so two transactions writing to one
  // account take turns, and the second reads the first's entry once it has committed (in READ
  // COMMITTED each statement of a function sees what has committed before it).
  await sql`create function ledger_entry_running_balance() returns trigger language plpgsql as $$
    declare
      account_kind text;
      last_seq integer;
      last_balance bigint;
    begin
      select kind into account_kind from ledger_accounts where id = new.account_id for update;
      if not found then
        raise exception 'ledger account % does not exist', new.account_id using errcode = '23503';
      end if;
      new.account_kind := account_kind;
      select account_seq, balance_after_cents into last_seq, last_balance
        from ledger_entries where account_id = new.account_id
        order by account_seq desc limit 1;
      new.account_seq := coalesce(last_seq, 0) + 1;
      new.balance_after_cents := coalesce(last_balance, 0) + new.amount_cents;
      return new;
    end $$`.execute(db);
  await sql`create trigger ledger_entries_running_balance before insert on ledger_entries
    for each row execute function ledger_entry_running_balance()`.execute(db);

  await sql`create function ledger_transaction_balanced() returns trigger language plpgsql as $$
    declare
      total bigint;
      lines integer;
    begin
      select coalesce(sum(amount_cents), 0), count(*) into total, lines
        from ledger_entries where transaction_id = new.id;
      if total <> 0 then
        raise exception 'ledger transaction % does not sum to zero (%)', new.id, total using errcode = '23514';
      end if;
      if lines < 2 then
        raise exception 'ledger transaction % has fewer than two entries', new.id using errcode = '23514';
      end if;
      return null;
    end $$`.execute(db);
  // Checked at commit, once every entry of the transaction is in; checked per transaction row, so
  // entries added later to a committed transaction are caught by the entries' own trigger below.
  await sql`create constraint trigger ledger_transactions_balanced after insert on ledger_transactions
    deferrable initially deferred for each row execute function ledger_transaction_balanced()`.execute(db);
  await sql`create function ledger_entry_balanced() returns trigger language plpgsql as $$
    begin
      if (select coalesce(sum(amount_cents), 0) from ledger_entries where transaction_id = new.transaction_id) <> 0 then
        raise exception 'ledger transaction % does not sum to zero', new.transaction_id using errcode = '23514';
      end if;
      return null;
    end $$`.execute(db);
  await sql`create constraint trigger ledger_entries_balanced after insert on ledger_entries
    deferrable initially deferred for each row execute function ledger_entry_balanced()`.execute(db);

  await sql`create function ledger_append_only() returns trigger language plpgsql as $$
    begin
      raise exception '% is append-only: record a reversing transaction instead', tg_table_name
        using errcode = '55000';
    end $$`.execute(db);
  for (const table of ['ledger_entries', 'ledger_transactions']) {
    await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)}
      for each row execute function ledger_append_only()`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_no_truncate`)} before truncate on ${sql.table(table)}
      for each statement execute function ledger_append_only()`.execute(db);
  }

  // A student's request to add money, by bank transfer (confirmed by an admin) or by card
  // (confirmed by Stripe's webhook). Its status changes once; the credit is a ledger transaction.
  await db.schema
    .createTable('top_ups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('student_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('manual', 'stripe')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending', 'confirmed', 'rejected')`),
    )
    // What the student writes on the transfer, so the school can match it.
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('stripe_session_id', 'text', (c) => c.unique())
    .addColumn('note', 'text')
    .addColumn('settled_by', 'text')
    .addColumn('settled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index top_ups_student_idx on top_ups (student_id, created_at desc)`.execute(db);
  await sql`create index top_ups_pending_idx on top_ups (created_at) where status = 'pending'`.execute(db);

  // What a lesson's money did last, for the lesson's readers (the ledger is the record of it), and
  // the school's commission in force when it was booked, so a later change applies to later
  // bookings only.
  await sql`alter table lessons
    add column payment_status text not null default 'none'
      check (payment_status in ('none', 'held', 'settled', 'released', 'refunded')),
    add column commission_percent integer check (commission_percent between 0 and 50)`.execute(db);
}
