/**
 * A ledger transaction's receipt, as its owner prints it: the transaction as it touched their own
 * balance or payable account, its time in the reader's zone, the amount with every minor digit.
 */
import type { Kysely } from 'kysely';
import { formatAmount } from '../../shared/amounts';
import { PRODUCT_NAME } from '../../shared/constants';
import { intlLocaleOf, type PageLanguage } from '../../shared/languages';
import { timeLabels } from '../../shared/time-labels';
import { timeZoneName } from '../../shared/time-zone-name';
import type { DB } from '../db/schema';
import { printablePage } from '../http/printable-page';
import { type TextValues, translate } from '../i18n/translations';
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
  top_up: /*i18n*/ 'Wallet top-up',
  lesson_hold: /*i18n*/ 'Lesson booked',
  lesson_release: /*i18n*/ 'Lesson price returned',
  lesson_settle: /*i18n*/ 'Lesson earnings',
  late_fee: /*i18n*/ 'Late cancellation fee: the lesson did not take place',
  lesson_refund: /*i18n*/ 'Lesson refund',
  payout: /*i18n*/ 'Payout',
  balance_refund: /*i18n*/ 'Balance refund',
  package_buy: /*i18n*/ 'Lesson package',
  package_end: /*i18n*/ 'Lesson package ended',
  package_refund: /*i18n*/ 'Lesson package refunded',
};

/** A receipt number as people read it: R- and at least six digits. */
const receiptNumber = (id: number) => `R-${String(id).padStart(6, '0')}`;

export function receiptHtml(receipt: {
  number: number;
  kind: string;
  memo: string;
  at: Date;
  amount: { amountCents: number; currency: string };
  supportEmail: string;
  name: string;
  timeZone: string;
  /** The reader's language (the details are the ledger's own words, in English). */
  language: PageLanguage;
}) {
  const say = (text: string, values?: TextValues) => translate(receipt.language, text, values);
  const locale = intlLocaleOf(receipt.language);
  const number = receiptNumber(receipt.number);
  const title = say(/*i18n*/ '{product} receipt {number}', { product: PRODUCT_NAME, number });
  const at = receipt.at.getTime();
  const kind = KIND_TITLES[receipt.kind];
  const rows: [string, string, string?][] = [
    [say(/*i18n*/ 'Receipt number'), number],
    [
      say(/*i18n*/ 'Date'),
      `${timeLabels(locale).instant(at, receipt.timeZone)} ${timeZoneName(receipt.timeZone, at, locale)}`,
    ],
    [say(/*i18n*/ 'For'), receipt.name],
    [say(/*i18n*/ 'What'), kind ? say(kind) : receipt.kind],
    [say(/*i18n*/ 'Details'), receipt.memo],
    [
      say(/*i18n*/ 'Amount'),
      formatAmount(receipt.amount.amountCents, receipt.amount.currency, { minor: 'always', locale }),
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
  const questions = escapeHtml(say(/*i18n*/ 'Questions about this receipt:'));
  return printablePage({
    title,
    language: receipt.language,
    body: `<h1>${escapeHtml(title)}</h1>
<table>${table}</table>
<footer><p>${escapeHtml(PRODUCT_NAME)} · ${questions} <a href="mailto:${support}" dir="ltr">${support}</a></p></footer>`,
  });
}
