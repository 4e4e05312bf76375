/**
 * A person's wallet, read from the ledger: a student's balance, what their booked lessons hold and
 * their top-ups; a tutor's earnings waiting on upcoming lessons, payable and paid out; and the
 * history of the transactions that touched their own account, each as seen from it.
 */
import { type Kysely, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Amount } from '../../shared/amounts';
import type { DB, LedgerTransactionKind } from '../db/schema';
import { accounts, balanceOf, balanceQuery, commissionOf } from './ledger';
import { type TopUpView, topUpsOf, toTopUpView } from './top-ups';

/** How many transactions a page of the history holds. */
export const WALLET_PAGE_SIZE = 20;

export interface WalletTransaction {
  id: string;
  kind: LedgerTransactionKind;
  /** Signed, as seen from the caller's account: negative when money left it. */
  amount: Amount;
  /**
   * The lesson it was for; `cancelled` when that lesson was called off, so a settlement of it was
   * its late cancellation fee, not a lesson that took place.
   */
  lesson: { id: string; subject: string; start: string; cancelled: boolean } | null;
  at: string;
  memo: string;
}

interface Common {
  payments: 'on' | 'off';
  transactions: WalletTransaction[];
  /** Pass as `before` for the next (older) page; null on the last. */
  nextBefore: string | null;
}

export interface StudentWallet extends Common {
  role: 'student';
  balance: Amount;
  held: Amount;
  /** Whether a card top-up (Stripe) is offered. */
  stripe: boolean;
  topUps: TopUpView[];
}

export interface TutorWallet extends Common {
  role: 'tutor';
  /** Held in their upcoming lessons, after the school's commission. */
  pending: Amount;
  /** Earned and not yet paid out; below zero when a refund made them owe the school. */
  payable: Amount;
  paidOut: Amount;
}

export interface WalletSettings {
  on: boolean;
  currency: string;
  instructions: string;
  stripe: boolean;
}

/** One page of the transactions on `accountId`, newest first, one more row telling if another follows. */
function historyQuery(db: Kysely<DB>, accountId: string, before?: number) {
  // The page's entries first, by the entry's own column (not the transaction's: the same number),
  // so that the index of an account's entries by transaction gives the page without reading the
  // account's others; only then their transactions and lessons. Joined before the limit, the
  // planner may instead walk every transaction of the ledger from the newest down to the account's
  // (PostgreSQL did, once it had statistics: 45 ms instead of 0.6 for 2,000 among 85,000).
  let entries = db
    .selectFrom('ledger_entries')
    .select(['transaction_id', 'amount_cents'])
    .where('account_id', '=', accountId)
    .orderBy('transaction_id', 'desc')
    .limit(WALLET_PAGE_SIZE + 1);
  if (before !== undefined) entries = entries.where('transaction_id', '<', before);
  return db
    .selectFrom(entries.as('e'))
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .leftJoin('lessons as l', 'l.id', 't.lesson_id')
    .select([
      't.id',
      't.kind',
      't.memo',
      't.created_at',
      'e.amount_cents',
      'l.id as lesson_id',
      'l.subject',
      'l.starts_at',
      'l.status as lesson_status',
    ])
    .orderBy('e.transaction_id', 'desc');
}

/** A history page's rows as the wallet shows them; they come as JSON, so times are strings. */
function historyPage(
  rows: {
    id: number | string;
    kind: LedgerTransactionKind;
    memo: string;
    created_at: Date | string;
    amount_cents: number;
    lesson_id: string | null;
    subject: string | null;
    starts_at: Date | string | null;
    lesson_status: string | null;
  }[],
  currency: string,
) {
  const page = rows.slice(0, WALLET_PAGE_SIZE);
  return {
    transactions: page.map(
      (row): WalletTransaction => ({
        id: String(row.id),
        kind: row.kind,
        amount: { amountCents: row.amount_cents, currency },
        lesson:
          row.lesson_id && row.subject && row.starts_at
            ? {
                id: row.lesson_id,
                subject: row.subject,
                start: new Date(row.starts_at).toISOString(),
                cancelled: row.lesson_status === 'cancelled',
              }
            : null,
        at: new Date(row.created_at).toISOString(),
        memo: row.memo,
      }),
    ),
    nextBefore: rows.length > WALLET_PAGE_SIZE ? String(page.at(-1)?.id) : null,
  };
}

/**
 * What the holds of a person's lessons still hold, each lesson's with its commission percent: a
 * tutor's lessons, or the lessons a payer's balance paid for (a student's own, a parent's children's).
 */
function heldQuery(db: Kysely<DB>, column: 'payer' | 'tutor_id', userId: string) {
  return db
    .selectFrom('lessons as l')
    .innerJoin('ledger_entries as e', (join) => join.on('e.account_id', '=', sql<string>`'hold:' || l.id`))
    .select(['l.id', 'l.commission_percent'])
    .select((eb) => eb.fn.sum<number | string>('e.amount_cents').as('held'))
    .where((eb) =>
      column === 'tutor_id'
        ? eb('l.tutor_id', '=', userId)
        : eb.or([
            eb('l.payer_id', '=', userId),
            eb.and([eb('l.student_id', '=', userId), eb('l.payer_id', 'is', null)]),
          ]),
    )
    .where('l.payment_status', '=', 'held')
    .groupBy(['l.id', 'l.commission_percent']);
}

// Each wallet is read in one statement, its lists as JSON arrays: on the embedded store every
// statement is a round trip to the database's thread, which costs more than the lists themselves.

export async function studentWallet(
  db: Kysely<DB>,
  settings: WalletSettings,
  studentId: string,
  before?: number,
): Promise<StudentWallet> {
  const { currency } = settings;
  const account = accounts.balance(studentId).id;
  const wallet = await db
    .selectNoFrom([
      jsonArrayFrom(heldQuery(db, 'payer', studentId)).as('held'),
      jsonArrayFrom(topUpsOf(db, studentId)).as('topUps'),
      jsonArrayFrom(historyQuery(db, account, before)).as('history'),
      balanceQuery(db, account).as('balance'),
    ])
    .executeTakeFirstOrThrow();
  return {
    role: 'student',
    payments: settings.on ? 'on' : 'off',
    balance: { amountCents: Number(wallet.balance ?? 0), currency },
    held: { amountCents: wallet.held.reduce((sum, lesson) => sum + Number(lesson.held), 0), currency },
    stripe: settings.on && settings.stripe,
    topUps: wallet.topUps.map((row) => toTopUpView(row, settings.instructions)),
    ...historyPage(wallet.history, currency),
  };
}

/** Each lesson's share worked out as its settlement will: the commission rounded per lesson. */
const tutorShareOf = (held: { held: number | string; commission_percent: number | null }[]) =>
  held.reduce((sum, lesson) => {
    const amount = Number(lesson.held);
    return sum + amount - commissionOf(amount, lesson.commission_percent ?? 0);
  }, 0);

/** What a tutor's lessons hold for them now, after the school's commission. */
export const pendingEarnings = async (db: Kysely<DB>, tutorId: string) =>
  tutorShareOf(await heldQuery(db, 'tutor_id', tutorId).execute());

export async function tutorWallet(
  db: Kysely<DB>,
  settings: WalletSettings,
  tutorId: string,
  before?: number,
): Promise<TutorWallet> {
  const { currency } = settings;
  const account = accounts.payable(tutorId).id;
  const wallet = await db
    .selectNoFrom([
      jsonArrayFrom(heldQuery(db, 'tutor_id', tutorId)).as('held'),
      db
        .selectFrom('ledger_entries as e')
        .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
        .select((eb) => eb.fn.sum<number | string>('e.amount_cents').as('total'))
        .where('e.account_id', '=', account)
        .where('t.kind', '=', 'payout')
        .as('paidOut'),
      jsonArrayFrom(historyQuery(db, account, before)).as('history'),
      balanceQuery(db, account).as('payable'),
    ])
    .executeTakeFirstOrThrow();
  return {
    role: 'tutor',
    payments: settings.on ? 'on' : 'off',
    pending: { amountCents: tutorShareOf(wallet.held), currency },
    payable: { amountCents: Number(wallet.payable ?? 0), currency },
    paidOut: { amountCents: -Number(wallet.paidOut ?? 0), currency },
    ...historyPage(wallet.history, currency),
  };
}

/** The nav's figure: a student's or a parent's balance (null for anyone else). */
export async function balanceSummary(
  db: Kysely<DB>,
  settings: Pick<WalletSettings, 'currency'>,
  user: { id: string; role: string },
) {
  return user.role === 'student' || user.role === 'parent'
    ? { amountCents: await balanceOf(db, accounts.balance(user.id).id), currency: settings.currency }
    : null;
}
