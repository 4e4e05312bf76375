/**
 * Checkpoints of the ledger's totals (migration 0023), so the finance totals read the newest
 * entries only, however long the ledger grows: a checkpoint is the sum of every entry up to one
 * entry id, per kind of account (each clearing account on its own), and the totals are the newest
 * checkpoint plus the entries after it. With it, each student's and tutor's balance at that entry
 * (migration 0043), so the finance page's lists of people read the accounts moved since, not the
 * newest entry of every account.
 *
 * A checkpoint must never miss an entry below its id that commits after it is taken: entry ids are
 * handed out when entries are written, not when they commit. So it is taken under a lock on the
 * entries (SHARE ROW EXCLUSIVE): the lock waits for every transaction writing entries to end, and
 * holds new writers back until the checkpoint commits, which is the time it takes to add up the
 * entries since the last one. Taken by a minute job of its own, once enough entries have come
 * since the last one. Checkpoints, like entries, are appended and never changed.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB, LEDGER_PEOPLE_ACCOUNT_KINDS } from '../db/schema';
import type { Logger } from '../logging/logger';
import { type MinuteJobObserver, startMinuteJob } from '../platform/minute-job';

type Db = Kysely<DB> | Transaction<DB>;

/** Entries since the last checkpoint before the job takes the next one. */
export const CHECKPOINT_EVERY_ENTRIES = 1_000;

/** How an entry is counted: by its account's kind, a clearing account by its own id. */
const nameOf = sql<string>`case when account_kind = 'clearing' then account_id else account_kind end`;

/** The newest checkpoint: the last entry id it counts (0 before the first), and its totals. */
async function newestCheckpoint(db: Db) {
  const rows = await db
    .selectFrom('ledger_checkpoints')
    .select(['through_entry_id', 'name', 'total_cents'])
    .where('through_entry_id', '=', (eb) =>
      eb.selectFrom('ledger_checkpoints').select((inner) => inner.fn.max('through_entry_id').as('last')),
    )
    .execute();
  return {
    through: Number(rows[0]?.through_entry_id ?? 0),
    totals: new Map(rows.map((row) => [row.name, Number(row.total_cents)])),
  };
}

/** The sums of the entries after `afterId` (up to `throughId` when given), by name. */
async function sumsAfter(db: Db, afterId: number, throughId?: number) {
  let query = db
    .selectFrom('ledger_entries')
    .select(nameOf.as('name'))
    .select((eb) => eb.fn.sum<number | string>('amount_cents').as('total'))
    .where('id', '>', afterId);
  if (throughId !== undefined) query = query.where('id', '<=', throughId);
  const rows = await query.groupBy(nameOf).execute();
  return rows.map((row) => ({ name: row.name, total: Number(row.total) }));
}

/**
 * Every account kind's total (each clearing account's on its own), one row by name: the newest
 * checkpoint's rows and the entries after it, added up together in one statement.
 */
export const totalsQuery = () => sql<{ name: string; total: number | string }>`
    with newest as (select coalesce(max(through_entry_id), 0) as through from ledger_checkpoints)
    select name, sum(total) as total from (
      select c.name, c.total_cents as total
        from ledger_checkpoints c, newest where c.through_entry_id = newest.through
      union all
      select ${nameOf} as name, e.amount_cents as total
        from ledger_entries e, newest where e.id > newest.through
    ) counted
    group by name`;

/**
 * The people's balances not zero once the entries up to `upTo` are counted (every entry without
 * it): the newest checkpoint's balances, less the accounts moved after it, and the newest entry of
 * each of those. The newest checkpoint holding balances, in fact: one where every balance was zero
 * has no rows, and the one before it, with the entries since, comes to the same. An account's
 * entries after a checkpoint all come after its entries counted in it (the checkpoint waited for
 * every writer), but among themselves their ids need not follow their order (an id is handed out
 * before the account is locked): the newest is the highest sequence number. A moved account's
 * zero is kept until the end, so that it hides the checkpoint's balance. A moved account's person
 * is looked up by its key: a join could read every account, one a lesson among them.
 */
const balancesThrough = (upTo?: number) => sql<PersonBalance>`
    with snapshot as (select coalesce(max(through_entry_id), 0) as through from ledger_checkpoint_balances),
    moved as (
      select last.*, (select a.user_id from ledger_accounts a where a.id = last.account_id) as user_id
        from (
          select distinct on (e.account_id) e.account_id, e.account_kind, e.balance_after_cents as balance_cents
            from ledger_entries e, snapshot
            where e.id > snapshot.through and e.account_kind in ('balance', 'payable')
              ${upTo === undefined ? sql`` : sql`and e.id <= ${upTo}`}
            order by e.account_id, e.account_seq desc
        ) last
    )
    select account_id, account_kind, user_id, balance_cents from moved where balance_cents <> 0
    union all
    select b.account_id, b.account_kind, b.user_id, b.balance_cents
      from ledger_checkpoint_balances b, snapshot
      where b.through_entry_id = snapshot.through
        and not exists (select from moved where moved.account_id = b.account_id)`;

/**
 * Every student's and tutor's account ('balance', 'payable') whose balance is not zero, with that
 * balance, exact at any moment: it reads one checkpoint's rows and the entries after it, never an
 * account's history.
 */
export const personBalancesQuery = () => balancesThrough();

/** A row of personBalancesQuery; the sum may come as a string (pg's bigint) or a number (JSON). */
export type PersonBalance = {
  account_id: string;
  account_kind: (typeof LEDGER_PEOPLE_ACCOUNT_KINDS)[number];
  user_id: string | null;
  balance_cents: number | string;
};

/**
 * Writes the people's balances at `through` (the checkpoint being taken, under its lock): the
 * previous balances' checkpoint carried over, the accounts moved since from their newest entry.
 * A row for every balance not zero, not only the moved ones, so that a read needs one checkpoint.
 */
const balancesAtQuery = (through: number) => sql`
    insert into ledger_checkpoint_balances (through_entry_id, account_id, account_kind, user_id, balance_cents)
    select ${through}::bigint, account_id, account_kind, user_id, balance_cents
      from (${balancesThrough(through)}) now`;

/**
 * Whether a checkpoint at `through` also writes the people's balances. Each time it does, it writes
 * a row for everyone holding money, so it waits until at least as many entries as the last one's
 * rows have come since (and the checkpoints' own spacing): the table then grows no faster than the
 * ledger however many people hold money, and a read goes through no more entries since than that.
 */
async function balancesDue(trx: Transaction<DB>, through: number, everyEntries: number) {
  const last = await trx
    .selectFrom('ledger_checkpoint_balances')
    .select((eb) => [
      eb.fn.max('through_entry_id').as('through'),
      eb.fn.countAll<number | string>().as('rows'),
    ])
    .where('through_entry_id', '=', (eb) =>
      eb
        .selectFrom('ledger_checkpoint_balances')
        .select((inner) => inner.fn.max('through_entry_id').as('last')),
    )
    .executeTakeFirst();
  const since = through - Number(last?.through ?? 0);
  return since >= Math.max(everyEntries, Number(last?.rows ?? 0));
}

/** The totals by name, exact at any moment (see totalsQuery). */
export const totalsByName = async (db: Db): Promise<Map<string, number>> =>
  namedTotals((await totalsQuery().execute(db)).rows);

/** Rows of totalsQuery as a map; a sum may come as a string (pg's numeric) or a number (JSON). */
export const namedTotals = (rows: readonly { name: string; total: number | string }[]) =>
  new Map(rows.map((row) => [row.name, Number(row.total)]));

/**
 * Takes a checkpoint when at least `everyEntries` entries came since the last one; answers the
 * entry id it counts through, or null when it took none.
 */
export async function takeCheckpoint(
  db: Kysely<DB>,
  everyEntries = CHECKPOINT_EVERY_ENTRIES,
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    // Entries are written under ROW EXCLUSIVE, which this mode waits for: from here on every entry
    // up to the newest id has committed (or rolled back), and none is written until this commits.
    // Unlike SHARE, it also waits for another server's checkpoint, so two never count the same.
    await sql`lock table ledger_entries in share row exclusive mode`.execute(trx);
    const last = await newestCheckpoint(trx);
    const newest = await trx
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const through = Number(newest?.id ?? 0);
    if (through - last.through < everyEntries) return null;
    const totals = new Map(last.totals);
    for (const { name, total } of await sumsAfter(trx, last.through, through))
      totals.set(name, (totals.get(name) ?? 0) + total);
    await trx
      .insertInto('ledger_checkpoints')
      .values([...totals].map(([name, total]) => ({ through_entry_id: through, name, total_cents: total })))
      .execute();
    if (await balancesDue(trx, through, everyEntries)) await balancesAtQuery(through).execute(trx);
    return through;
  });
}

export const startLedgerCheckpoints = (
  db: Kysely<DB>,
  logger: Logger,
  everyMs?: number,
  observe?: MinuteJobObserver,
) =>
  startMinuteJob(
    {
      run: () => takeCheckpoint(db),
      done: (through, log) => {
        if (through !== null) log.info({ through }, 'ledger checkpoint taken');
      },
      failure: 'ledger checkpoint failed',
      name: 'ledger',
    },
    logger,
    everyMs,
    observe,
  );
