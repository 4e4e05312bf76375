/**
 * The ledger for a spreadsheet or an accountant: every entry as CSV (with the bank reference each
 * payment was made with), what each tutor is owed for a pay run, and a tutor's earnings.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { decimalString } from '../../shared/amounts';
import type { DB } from '../db/schema';
import { type CsvDecimal, csvHeader, csvLine } from '../files/csv';
import { financeOverview } from './finance-overview';
import { accounts } from './ledger';

/**
 * How a payout's or a balance refund's memo begins: the bank reference the admin gave follows, to
 * the end, so entries.csv reads it back exactly.
 */
export const MEMO_BEFORE_REFERENCE = {
  payout: 'Payout, reference ',
  balance_refund: 'Refund of balance, reference ',
} as const;

/** The reference a transaction was made with, as a bank statement shows it; '' where it has none. */
function referenceOf(row: { kind: string; memo: string; top_up_reference: string | null }): string {
  if (row.top_up_reference !== null) return row.top_up_reference;
  const before = MEMO_BEFORE_REFERENCE[row.kind as keyof typeof MEMO_BEFORE_REFERENCE];
  return before && row.memo.startsWith(before) ? row.memo.slice(before.length) : '';
}

/** The amount as a decimal number in whole units, for a spreadsheet to add up. */
const decimalAmount = (amountCents: number, currency: string): CsvDecimal => ({
  decimal: decimalString(amountCents, currency),
});

/** Every entry between two instants, one line each; the amounts of the file sum to zero. */
export async function* entriesCsv(db: Kysely<DB>, range: { from?: Date; to?: Date }, currency: string) {
  yield csvHeader([
    'transaction',
    'kind',
    'time',
    'account',
    'owner',
    'lesson',
    'reference',
    'amount',
    'amount_minor_units',
  ]);
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
      .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
      .leftJoin('users as u', 'u.id', 'a.user_id')
      // A top-up's transaction is keyed by the top-up (creditTopUp): its reference is the top-up's.
      .leftJoin('top_ups as tu', (join) =>
        join
          .on('t.kind', '=', 'top_up')
          .on(sql<string>`'top_up:' || tu.id`, '=', sql.ref('t.idempotency_key')),
      )
      .select([
        'e.id',
        't.id as transaction_id',
        't.kind',
        't.memo',
        'tu.reference as top_up_reference',
        't.created_at',
        'e.account_id',
        'u.email',
        't.lesson_id',
        'e.amount_cents',
      ])
      .$if(range.from !== undefined, (q) => q.where('t.created_at', '>=', range.from as Date))
      .$if(range.to !== undefined, (q) => q.where('t.created_at', '<', range.to as Date))
      .where('e.id', '>', after)
      .orderBy('e.id')
      .limit(1000)
      .execute();
    for (const row of rows)
      yield csvLine([
        row.transaction_id,
        row.kind,
        row.created_at.toISOString(),
        row.account_id,
        row.email ?? '',
        row.lesson_id ?? '',
        referenceOf(row),
        decimalAmount(row.amount_cents, currency),
        row.amount_cents,
      ]);
    if (rows.length < 1000) return;
    after = rows.at(-1)?.id ?? after;
  }
}

/** What each tutor is owed now, for a pay run. */
export async function payablesCsv(db: Kysely<DB>, currency: string) {
  const { payables } = await financeOverview(db, currency);
  return (
    csvHeader(['tutor_id', 'name', 'email', 'payable', 'currency']) +
    payables
      .map((row) =>
        csvLine([
          row.tutor.id,
          row.tutor.displayName,
          row.tutor.email,
          decimalAmount(row.payable.amountCents, currency),
          currency,
        ]),
      )
      .join('')
  );
}

/** Earnings settled to a tutor between two instants, less refunds of their lessons in it. */
export async function earningsBetween(db: Kysely<DB>, tutorId: string, from: Date, to: Date) {
  const row = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .select((eb) => eb.fn.sum<number | string>('e.amount_cents').as('total'))
    .where('e.account_id', '=', accounts.payable(tutorId).id)
    .where('t.kind', 'in', ['lesson_settle', 'lesson_refund'])
    .where('t.created_at', '>=', from)
    .where('t.created_at', '<', to)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
