/**
 * A ledger transaction's receipt, as its owner prints it: the transaction as it touched their own
 * balance or payable account, its time in the reader's zone, the amount with every minor digit.
 */
import type { Kysely } from 'kysely';
import { formatAmount } from '../../shared/amounts';
import { PRODUCT_NAME } from '../../shared/constants';
import { timeLabels } from '../../shared/time-labels';
import { timeZoneName } from '../../shared/time-zone-name';
import type { DB } from '../db/schema';
import { printablePage } from '../http/printable-page';
import { escapeHtml } from '../mail/html';

/** A transaction that touched the user's own balance or payable account, as their receipt shows it. */
export async function receiptOf(db: Kysely<DB>, userId: string, transactionId: number) {
  const row = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
    .leftJoin('lessons as l', 'l.id', 't.lesson_id')
    .select([
      't.id',
      't.kind',
      't.memo',
      't.created_at',
      'e.amount_cents',
      'a.currency',
      'l.status as lesson_status',
    ])
    .where('t.id', '=', transactionId)
    .where('a.user_id', '=', userId)
    .where('a.kind', 'in', ['balance', 'payable'])
    .executeTakeFirst();
  return row
    ? {
        number: row.id,
        // A settlement of a lesson that was called off is the late cancellation fee, as the wallet says.
        kind: row.kind === 'lesson_settle' && row.lesson_status === 'cancelled' ? 'late_fee' : row.kind,
        memo: row.memo,
        at: row.created_at,
        amount: { amountCents: row.amount_cents, currency: row.currency },
      }
    : undefined;
}

const KIND_TITLES: Record<string, string> = {
  top_up: 'Wallet top-up',
  lesson_hold: 'Lesson booked',
  lesson_release: 'Lesson price returned',
  lesson_settle: 'Lesson earnings',
  late_fee: 'Late cancellation fee: the lesson did not take place',
  lesson_refund: 'Lesson refund',
  payout: 'Payout',
  balance_refund: 'Balance refund',
  package_buy: 'Lesson package',
  package_end: 'Lesson package ended',
  package_refund: 'Lesson package refunded',
};

/** A receipt number as people read it: R- and at least six digits. */
const receiptNumber = (id: number) => `R-${String(id).padStart(6, '0')}`;

const labels = timeLabels('en-US');

export function receiptHtml(receipt: {
  number: number;
  kind: string;
  memo: string;
  at: Date;
  amount: { amountCents: number; currency: string };
  supportEmail: string;
  name: string;
  timeZone: string;
}) {
  const title = `${PRODUCT_NAME} receipt ${receiptNumber(receipt.number)}`;
  const at = receipt.at.getTime();
  const rows: [string, string, string?][] = [
    ['Receipt number', receiptNumber(receipt.number)],
    ['Date', `${labels.instant(at, receipt.timeZone)} ${timeZoneName(receipt.timeZone, at)}`],
    ['For', receipt.name],
    ['What', KIND_TITLES[receipt.kind] ?? receipt.kind],
    ['Details', receipt.memo],
    [
      'Amount',
      formatAmount(receipt.amount.amountCents, receipt.amount.currency, { minor: 'always' }),
      'amount',
    ],
  ];
  const table = rows
    .map(
      ([label, value, cell]) =>
        `<tr><th scope="row">${escapeHtml(label)}</th><td${cell ? ` class="${cell}"` : ''}>${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const support = escapeHtml(receipt.supportEmail);
  return printablePage({
    title,
    body: `<h1>${escapeHtml(PRODUCT_NAME)} receipt <span class="number">${receiptNumber(receipt.number)}</span></h1>
<table>${table}</table>
<footer><p>${escapeHtml(PRODUCT_NAME)} · Questions about this receipt: <a href="mailto:${support}">${support}</a></p></footer>`,
  });
}
