/**
 * A wallet's movements, newest first, each with what it was, when, the amount (its sign written:
 * minus is money that left the reader) and a link to its printable receipt. "Older" adds the page
 * before the last one shown, and says how many came.
 */

import { useEffect, useState } from 'react';
import { formatAmount } from '../../../shared/amounts';
import type { Role } from '../../../shared/constants';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { useApiAction } from '../../lib/api-action';
import { dateTimeLabel, shortDayLabel } from '../../lib/time-labels';
import { fetchWallet, receiptUrl, type Transaction, type TransactionKind } from './wallet-api';

/** What a movement was, as its reader sees it. */
const KIND_LABELS: Record<TransactionKind, Record<Role, string>> = {
  top_up: { student: 'Top-up', tutor: 'Top-up' },
  lesson_hold: { student: 'Lesson booked: paid, held until it takes place', tutor: 'Lesson booked: held' },
  lesson_release: { student: 'Lesson not held: back to your balance', tutor: 'Lesson not held: released' },
  lesson_settle: { student: 'Lesson taught: paid to the tutor', tutor: 'Lesson taught: earned' },
  lesson_refund: { student: 'Lesson refunded', tutor: 'Lesson refunded to the student' },
  payout: { student: 'Payout', tutor: 'Payout to you' },
  balance_refund: { student: 'Balance paid back to you', tutor: 'Balance paid back' },
  package_buy: { student: 'Lesson package bought', tutor: 'Lesson package bought' },
  package_end: { student: 'Package ended: unused lessons back to your balance', tutor: 'Package ended' },
  package_refund: { student: 'Package refunded to you', tutor: 'Package refunded to the student' },
};

/** A settlement of a lesson that was called off is its late cancellation fee: no lesson was taught. */
const LATE_FEE_LABELS: Record<Role, string> = {
  student: 'Late cancellation fee paid to the tutor: the lesson did not take place',
  tutor: 'Late cancellation fee earned: the lesson did not take place',
};

export const transactionLabel = (transaction: Pick<Transaction, 'kind' | 'lesson'>, role: Role) =>
  transaction.kind === 'lesson_settle' && transaction.lesson?.cancelled
    ? LATE_FEE_LABELS[role]
    : KIND_LABELS[transaction.kind][role];

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
  const loading = useApiAction('The older movements could not be loaded.');
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
            ? 'No older movements.'
            : `${count} older movement${count === 1 ? '' : 's'} added below.${page.nextBefore ? '' : ' That is all of them.'}`,
        );
      },
    });
  };

  if (all.length === 0) {
    return <p className="text-sm text-slate-700">No money has moved yet.</p>;
  }
  return (
    <>
      <ul className="divide-y divide-slate-100">
        {all.map((transaction) => (
          <li
            key={transaction.id}
            className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-3"
          >
            <div className="min-w-0 flex-1 basis-56">
              <p className="font-medium text-slate-900">{transactionLabel(transaction, reader)}</p>
              {transaction.lesson ? (
                <p className="text-sm text-slate-700">
                  {transaction.lesson.subject}, lesson of{' '}
                  {shortDayLabel(Date.parse(transaction.lesson.start), timeZone)}
                </p>
              ) : null}
              {transaction.memo ? (
                <p className="break-words text-sm text-slate-600">{transaction.memo}</p>
              ) : null}
              <p className="text-sm text-slate-600">
                <time dateTime={transaction.at}>{dateTimeLabel(Date.parse(transaction.at), timeZone)}</time>
              </p>
            </div>
            <div className="flex shrink-0 items-baseline gap-3 sm:flex-col sm:items-end sm:gap-0.5">
              <span
                className={`font-semibold tabular-nums ${
                  transaction.amount.amountCents < 0 ? 'text-slate-900' : 'text-emerald-800'
                }`}
              >
                {formatAmount(transaction.amount, { minor: 'always', sign: 'always' })}
              </span>
              <a
                href={receiptUrl(transaction.id)}
                target="_blank"
                rel="noopener"
                className="text-sm font-semibold text-brand-700 underline"
              >
                Receipt
                <span className="sr-only">
                  {' '}
                  for {transactionLabel(transaction, reader).toLowerCase()},{' '}
                  {dateTimeLabel(Date.parse(transaction.at), timeZone)} (opens in a new tab)
                </span>
              </a>
            </div>
          </li>
        ))}
      </ul>
      <div className="mt-4 space-y-3">
        <p role="status" className="text-sm text-slate-700">
          {told}
        </p>
        {loading.problem ? <ErrorMessage>{loading.problem}</ErrorMessage> : null}
        {older.nextBefore ? (
          <Button variant="secondary" onClick={loadOlder} busy={loading.busy} aria-disabled={loading.busy}>
            Older
          </Button>
        ) : null}
      </div>
    </>
  );
}
