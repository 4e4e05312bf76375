/**
 * A wallet's movements, newest first, each with what it was, when, the amount (its sign written:
 * minus is money that left the reader) and a link to its printable receipt. "Older" adds the page
 * before the last one shown, and says how many came.
 *
 * Its texts are marked with `/*i18n*\/` and said through `translated`, not with Lingui's macros:
 * the unit tests import `transactionLabel` from here, and they run without the macro transform.
 */

import { useEffect, useState } from 'react';
import { formatAmount } from '../../../shared/amounts';
import type { Role } from '../../../shared/constants';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { useApiAction } from '../../lib/api-action';
import { translated } from '../../lib/i18n';
import { type Side, sideOf } from '../../lib/roles';
import { dateTimeLabel, shortDayLabel } from '../../lib/time-labels';
import { memoText } from './memo-labels';
import { fetchWallet, receiptUrl, type Transaction, type TransactionKind } from './wallet-api';

/**
 * What a movement was, as its reader sees it: the English text, marked for translation, which the
 * page says through `translated`.
 */
const KIND_LABELS: Record<TransactionKind, Record<Side, string>> = {
  top_up: { student: /*i18n*/ 'Top-up', tutor: /*i18n*/ 'Top-up' },
  lesson_hold: {
    student: /*i18n*/ 'Lesson booked: paid, held until it takes place',
    tutor: /*i18n*/ 'Lesson booked: held',
  },
  lesson_release: {
    student: /*i18n*/ 'Lesson not held: back to your balance',
    tutor: /*i18n*/ 'Lesson not held: released',
  },
  lesson_settle: {
    student: /*i18n*/ 'Lesson taught: paid to the tutor',
    tutor: /*i18n*/ 'Lesson taught: earned',
  },
  lesson_refund: { student: /*i18n*/ 'Lesson refunded', tutor: /*i18n*/ 'Lesson refunded to the student' },
  payout: { student: /*i18n*/ 'Payout', tutor: /*i18n*/ 'Payout to you' },
  balance_refund: { student: /*i18n*/ 'Balance paid back to you', tutor: /*i18n*/ 'Balance paid back' },
  package_buy: { student: /*i18n*/ 'Lesson package bought', tutor: /*i18n*/ 'Lesson package bought' },
  package_end: {
    student: /*i18n*/ 'Package ended: unused lessons back to your balance',
    tutor: /*i18n*/ 'Package ended',
  },
  package_refund: {
    student: /*i18n*/ 'Package refunded to you',
    tutor: /*i18n*/ 'Package refunded to the student',
  },
};

/** A settlement of a lesson that was called off is its late cancellation fee: no lesson was taught. */
const LATE_FEE_LABELS: Record<Side, string> = {
  student: /*i18n*/ 'Late cancellation fee paid to the tutor: the lesson did not take place',
  tutor: /*i18n*/ 'Late cancellation fee earned: the lesson did not take place',
};

export const transactionLabel = (transaction: Pick<Transaction, 'kind' | 'lesson'>, role: Role) =>
  transaction.kind === 'lesson_settle' && transaction.lesson?.cancelled
    ? LATE_FEE_LABELS[sideOf(role)]
    : KIND_LABELS[transaction.kind][sideOf(role)];

export function WalletHistory({
  reader,
  transactions,
  nextBefore,
  timeZone,
}: {
  /** Whose wallet it is: a movement is told as they see it. */
  reader: Role;
  transactions: Transaction[];
  nextBefore: string | null;
  timeZone: string;
}) {
  // Older pages are this page's own; the loader's first page (read again after a top-up) starts over.
  const [older, setOlder] = useState<{ transactions: Transaction[]; nextBefore: string | null }>({
    transactions: [],
    nextBefore,
  });
  const [told, setTold] = useState('');
  const loading = useApiAction(translated(/*i18n*/ 'The older movements could not be loaded.'));
  useEffect(() => {
    setOlder({ transactions: [], nextBefore });
    setTold('');
  }, [nextBefore]);

  const all = [...transactions, ...older.transactions];
  const loadOlder = () => {
    const before = older.nextBefore;
    if (!before) return;
    void loading.run(() => fetchWallet(before), {
      reload: false,
      onDone: (page) => {
        setOlder((current) => ({
          transactions: [...current.transactions, ...page.transactions],
          nextBefore: page.nextBefore,
        }));
        const count = page.transactions.length;
        setTold(
          count === 0
            ? translated(/*i18n*/ 'No older movements.')
            : page.nextBefore
              ? translated(
                  /*i18n*/ '{count, plural, one {# older movement added below.} other {# older movements added below.}}',
                  { count },
                )
              : translated(
                  /*i18n*/ '{count, plural, one {# older movement added below. That is all of them.} other {# older movements added below. That is all of them.}}',
                  { count },
                ),
        );
      },
    });
  };

  if (all.length === 0) {
    return <p className="text-sm text-slate-700">{translated(/*i18n*/ 'No money has moved yet.')}</p>;
  }
  return (
    <>
      <ul className="divide-y divide-slate-100">
        {all.map((transaction) => {
          const label = translated(transactionLabel(transaction, reader));
          const memo = transaction.memo ? memoText(transaction.kind, transaction.memo) : null;
          const subject = transaction.lesson ? translated(transaction.lesson.subject) : '';
          const day = transaction.lesson ? shortDayLabel(Date.parse(transaction.lesson.start), timeZone) : '';
          const when = dateTimeLabel(Date.parse(transaction.at), timeZone);
          return (
            <li
              key={transaction.id}
              className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-3"
            >
              <div className="min-w-0 flex-1 basis-56">
                <p className="font-medium text-slate-900">{label}</p>
                {transaction.lesson ? (
                  <p className="text-sm text-slate-700">
                    {translated(/*i18n*/ '{subject}, lesson of {day}', { subject, day })}
                  </p>
                ) : null}
                {transaction.memo ? (
                  <p className="break-words text-sm text-slate-600">
                    {memo
                      ? translated(memo.text, {
                          ...memo.values,
                          ...('subject' in memo.values
                            ? { subject: translated(String(memo.values.subject)) }
                            : {}),
                        })
                      : transaction.memo}
                  </p>
                ) : null}
                <p className="text-sm text-slate-600">
                  <time dateTime={transaction.at}>{when}</time>
                </p>
              </div>
              <div className="flex shrink-0 items-baseline gap-3 sm:flex-col sm:items-end sm:gap-0.5">
                <span
                  className={`font-semibold tabular-nums ${
                    transaction.amount.amountCents < 0 ? 'text-slate-900' : 'text-emerald-800'
                  }`}
                >
                  <bdi>{formatAmount(transaction.amount, { minor: 'always', sign: 'always' })}</bdi>
                </span>
                <a
                  href={receiptUrl(transaction.id)}
                  target="_blank"
                  rel="noopener"
                  className="text-sm font-semibold text-brand-700 underline"
                >
                  {translated(/*i18n*/ 'Receipt')}
                  <span className="sr-only">
                    {' '}
                    {translated(/*i18n*/ 'for {label}, {when} (opens in a new tab)', { label, when })}
                  </span>
                </a>
              </div>
            </li>
          );
        })}
      </ul>
      <div className="mt-4 space-y-3">
        <p role="status" className="text-sm text-slate-700">
          {told}
        </p>
        {loading.problem ? <ErrorMessage>{loading.problem}</ErrorMessage> : null}
        {older.nextBefore ? (
          <Button variant="secondary" onClick={loadOlder} busy={loading.busy} aria-disabled={loading.busy}>
            {translated(/*i18n*/ 'Older')}
          </Button>
        ) : null}
      </div>
    </>
  );
}
