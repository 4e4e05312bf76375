/**
 * The ledger: plain functions over the three tables of migration 0014, with no HTTP in sight.
 *
 * Money only ever moves as a transaction of signed entries that sum to zero, each on a named
 * account. A positive entry adds to what the account holds for its owner, a negative one takes
 * from it:
 *
 *   top-up      clearing:<method> -A   balance:<student> +A
 *   booking     balance:<student> -P   hold:<lesson>     +P
 *   release     hold:<lesson>     -P   balance:<student> +P
 *   settlement  hold:<lesson>     -P   payable:<tutor>   +(P-C)   revenue +C
 *   payout      payable:<tutor>   -A   clearing:manual   +A
 *   package     balance:<student> -T   package:<id>      +T   (bought; ./packages.ts)
 *   its lesson  package:<id>      -P   hold:<lesson>     +P   (and a release returns it there)
 *
 * so a clearing account stands at minus what came in through it, less what went out, and all
 * accounts together at zero. The database enforces the rules (see the migration); the functions
 * here check the same rules first only to answer a person in words.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB, LedgerAccountKind, LedgerTransactionKind } from '../db/schema';
import { totalsByName } from './ledger-checkpoints';

export type Db = Kysely<DB> | Transaction<DB>;

export type ClearingMethod = 'manual' | 'stripe';

/** The accounts, by the name each is known by. */
export const accounts = {
  balance: (studentId: string) => ({
    id: `balance:${studentId}`,
    kind: 'balance' as const,
    userId: studentId,
  }),
  hold: (lessonId: string) => ({ id: `hold:${lessonId}`, kind: 'hold' as const, lessonId }),
  payable: (tutorId: string) => ({ id: `payable:${tutorId}`, kind: 'payable' as const, userId: tutorId }),
  revenue: () => ({ id: 'revenue', kind: 'revenue' as const }),
  clearing: (method: ClearingMethod) => ({ id: `clearing:${method}`, kind: 'clearing' as const }),
  /** A lesson package's money, the student's until its lessons use it or it ends. */
  package: (packageId: string, studentId: string) => ({
    id: `package:${packageId}`,
    kind: 'package' as const,
    userId: studentId,
  }),
};

export interface AccountRef {
  id: string;
  kind: LedgerAccountKind;
  userId?: string;
  lessonId?: string;
}

export interface Posting {
  kind: LedgerTransactionKind;
  /** Unique for the whole ledger: a second posting with the same key does nothing. */
  key: string;
  currency: string;
  lessonId?: string | null;
  /** Who did it; null when Tutorlane itself did (a job, a webhook). */
  actorId: string | null;
  memo: string;
  entries: { account: AccountRef; amountCents: number }[];
  now?: number;
}

/** Thrown when a posting breaks a rule of the ledger before it reaches the database. */
export class LedgerError extends Error {}

function checkAmount(amountCents: number) {
  if (!Number.isSafeInteger(amountCents))
    throw new LedgerError(`not a whole number of minor units: ${amountCents}`);
}

/** An account's row, as it is made the first time money moves on it. */
const accountRow = (account: AccountRef, currency: string) => ({
  id: account.id,
  kind: account.kind,
  user_id: account.userId ?? null,
  lesson_id: account.lessonId ?? null,
  currency,
});

/** A posting's entries as written: one per account (lines on one account added up), none zero. */
function entriesOf(posting: Posting) {
  const byAccount = new Map<string, { account: AccountRef; amountCents: number }>();
  for (const entry of posting.entries) {
    checkAmount(entry.amountCents);
    const seen = byAccount.get(entry.account.id);
    if (seen) seen.amountCents += entry.amountCents;
    else byAccount.set(entry.account.id, { ...entry });
  }
  const entries = [...byAccount.values()]
    .filter((entry) => entry.amountCents !== 0)
    .sort((a, b) => (a.account.id < b.account.id ? -1 : 1));
  if (entries.reduce((sum, entry) => sum + entry.amountCents, 0) !== 0)
    throw new LedgerError(`transaction ${posting.key} does not sum to zero`);
  if (entries.length < 2) throw new LedgerError(`transaction ${posting.key} moves nothing`);
  return entries;
}

/**
 * Records one transaction, in the caller's database transaction: returns its id, or null when
 * a transaction with the same key was recorded before (a retry, a second admin's click, a
 * replayed webhook), in which case nothing is written.
 */
export async function post(trx: Transaction<DB>, posting: Posting): Promise<number | null> {
  const [id] = await postAll(trx, [posting]);
  return id ?? null;
}

/** Postings per statement: an entry is three parameters, well under PostgreSQL's 65,535. */
const POSTINGS_PER_STATEMENT = 2_000;

/**
 * Records several transactions in the caller's database transaction with a few statements for all
 * of them, not a few for each: what a job that settles thousands of lessons at once, or a seed,
 * writes. Answers each posting's id in order, null for one whose key was recorded before (or
 * earlier in the same list). The database applies every rule to each entry as it does for one.
 */
export async function postAll(trx: Transaction<DB>, postings: Posting[]): Promise<(number | null)[]> {
  const ids: (number | null)[] = [];
  for (let start = 0; start < postings.length; start += POSTINGS_PER_STATEMENT)
    ids.push(...(await postChunk(trx, postings.slice(start, start + POSTINGS_PER_STATEMENT))));
  return ids;
}

async function postChunk(trx: Transaction<DB>, postings: Posting[]): Promise<(number | null)[]> {
  const written = postings.map((posting) => ({ posting, entries: entriesOf(posting) }));
  const accountRows = new Map<string, { account: AccountRef; currency: string }>();
  for (const { posting, entries } of written)
    for (const { account } of entries)
      if (!accountRows.has(account.id)) accountRows.set(account.id, { account, currency: posting.currency });
  // The accounts made the first time money moves on them, in the statement that records the
  // transactions (neither refers to the other; the entries, which refer to both, come after).
  const recorded = await trx
    .with('made', (db) =>
      db
        .insertInto('ledger_accounts')
        .values([...accountRows.values()].map(({ account, currency }) => accountRow(account, currency)))
        .onConflict((oc) => oc.column('id').doNothing()),
    )
    .insertInto('ledger_transactions')
    .values(
      written.map(({ posting }) => ({
        kind: posting.kind,
        lesson_id: posting.lessonId ?? null,
        actor_id: posting.actorId,
        idempotency_key: posting.key,
        memo: posting.memo,
        ...(posting.now === undefined ? {} : { created_at: new Date(posting.now) }),
      })),
    )
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning(['id', 'idempotency_key'])
    .execute();
  const idOf = new Map(recorded.map((row) => [row.idempotency_key, row.id]));
  const ids = written.map(({ posting }) => {
    const id = idOf.get(posting.key);
    // A key listed twice is recorded for its first posting only.
    idOf.delete(posting.key);
    return id ?? null;
  });
  const entryRows = written.flatMap(({ entries }, index) => {
    const transactionId = ids[index];
    if (transactionId == null) return [];
    return entries.map((entry) => ({
      transaction_id: transactionId,
      account_id: entry.account.id,
      amount_cents: entry.amountCents,
    }));
  });
  // Accounts are locked in one order (their names'), so two writers never wait on each other in a
  // circle; the entries' trigger would otherwise lock them in the order the entries come.
  if (written.length > 1)
    await trx
      .selectFrom('ledger_accounts')
      .select('id')
      .where('id', 'in', [...accountRows.keys()])
      .orderBy('id')
      .forUpdate()
      .execute();
  // In the postings' order, so each account's running balance follows it.
  if (entryRows.length > 0) await trx.insertInto('ledger_entries').values(entryRows).execute();
  return ids;
}

/** The running balance of an account's last entry, as a query to run or to nest in another. */
export const balanceQuery = (db: Db, accountId: string) =>
  db
    .selectFrom('ledger_entries')
    .select('balance_after_cents')
    .where('account_id', '=', accountId)
    .orderBy('account_seq', 'desc')
    .limit(1);

/** What an account holds now: its last entry's running balance (0 before its first). */
export async function balanceOf(db: Db, accountId: string): Promise<number> {
  const last = await balanceQuery(db, accountId).executeTakeFirst();
  return last?.balance_after_cents ?? 0;
}

/**
 * An account's balance for a decision about it: the account row is locked until the caller's
 * transaction ends, so nobody else moves its money in between (the entry's trigger takes the same
 * lock). Creates the account if it has no row yet, so that there is a row to lock.
 */
export async function lockedBalanceOf(trx: Transaction<DB>, account: AccountRef, currency: string) {
  const lock = () =>
    trx
      .selectFrom('ledger_accounts')
      .select('id')
      .where('id', '=', account.id)
      .forUpdate()
      .executeTakeFirst();
  // Most accounts exist already: locked in one statement. A new one is made first.
  if (!(await lock())) {
    await trx
      .insertInto('ledger_accounts')
      .values(accountRow(account, currency))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await lock();
  }
  return balanceOf(trx, account.id);
}

/**
 * The school's share of a price: `percent` of it, rounded half up to the minor unit. The tutor
 * gets the rest, so the two always add up to the price. Integer arithmetic only.
 */
export function commissionOf(priceCents: number, percent: number): number {
  checkAmount(priceCents);
  if (!Number.isInteger(percent) || percent < 0 || percent > 100)
    throw new LedgerError(`bad percent ${percent}`);
  const sign = priceCents < 0 ? -1 : 1;
  const magnitude = Math.abs(priceCents);
  return sign * Math.floor((magnitude * percent + 50) / 100);
}

/** What the tutor is paid of a price: the price less commissionOf it, as a settlement splits it. */
export const tutorShare = (priceCents: number, percent: number) =>
  priceCents - commissionOf(priceCents, percent);

/**
 * The sum of every account of each kind (and of each clearing account), for the finance totals:
 * the newest checkpoint plus the entries after it (./ledger-checkpoints.ts).
 */
export async function totalsByAccount(db: Db) {
  return totalsOf(await totalsByName(db));
}

/** The finance page's totals from the totals by name (./ledger-checkpoints.ts). */
export function totalsOf(totals: Map<string, number>) {
  const total = (name: string) => totals.get(name) ?? 0;
  return {
    studentBalances: total('balance'),
    held: total('hold'),
    packages: total('package'),
    tutorPayable: total('payable'),
    schoolRevenue: total('revenue'),
    clearing: { manual: total('clearing:manual'), stripe: total('clearing:stripe') },
  };
}
