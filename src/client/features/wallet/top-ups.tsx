/**
 * A student's top-ups: the form that asks for one (an amount in whole units, and by card when the
 * school takes cards), and the latest ones with their state. A transfer's reference and the
 * school's instructions stay in view while it waits, since the student needs them to pay, with a
 * way to ask support (the instructions may say no more than that), and so does "Withdraw", for one
 * they will not pay. The instructions are an admin's text: shown as text, their line breaks kept.
 */

import { Link, useFetcher } from 'react-router';
import { formatAmount, formatUnits } from '../../../shared/amounts';
import { topUpUnits } from '../../../shared/money/amounts';
import { supportChatPath } from '../../../shared/routes';
import { Button } from '../../components/button';
import { ChoiceGroup } from '../../components/choice-group';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { IdempotencyKeyInput } from '../../components/idempotency-key-input';
import { ErrorMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { useApiAction } from '../../lib/api-action';
import type { FormAnswer } from '../../lib/forms';
import { dateTimeLabel } from '../../lib/time-labels';
import { type TopUp, withdrawTopUp } from './wallet-api';

export function TopUpForm({
  currency,
  stripe,
  amount,
}: {
  currency: string;
  stripe: boolean;
  /** The amount to start from, in whole units (the booking box sends a student here with one). */
  amount: number | null;
}) {
  const fetcher = useFetcher<FormAnswer>();
  return (
    <ActionForm fetcher={fetcher} className="space-y-4">
      <FormAnswerMessage />
      <TextField
        label={`Amount (${currency})`}
        name="amount"
        inputMode="numeric"
        autoComplete="off"
        className="max-w-xs"
        defaultValue={amount === null ? '' : String(amount)}
        hint={`Whole amounts from ${formatUnits(topUpUnits(currency).min, currency)} to ${formatUnits(topUpUnits(currency).max, currency)}.`}
      />
      {stripe ? (
        <ChoiceGroup legend="How you pay" name="method">
          <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:gap-6">
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name="method" value="manual" defaultChecked className="size-4" />
              Bank transfer (the school confirms it)
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name="method" value="stripe" className="size-4" />
              Card (paid at once)
            </label>
          </div>
        </ChoiceGroup>
      ) : (
        <input type="hidden" name="method" value="manual" />
      )}
      <IdempotencyKeyInput fetcher={fetcher} />
      <SubmitButton busyLabel="Sending…">Top up</SubmitButton>
    </ActionForm>
  );
}

const STATUS: Record<TopUp['status'], { label: string; className: string }> = {
  pending: { label: 'Waiting for the school', className: 'bg-amber-100 text-amber-900' },
  confirmed: { label: 'Added to your balance', className: 'bg-emerald-100 text-emerald-900' },
  rejected: { label: 'Not received', className: 'bg-red-100 text-red-900' },
  withdrawn: { label: 'Withdrawn by you', className: 'bg-slate-100 text-slate-800' },
};

export function TopUpList({ topUps, timeZone }: { topUps: TopUp[]; timeZone: string }) {
  if (topUps.length === 0) return <p className="text-sm text-slate-700">You have not topped up yet.</p>;
  return (
    <ul className="divide-y divide-slate-100">
      {topUps.map((topUp) => (
        <TopUpRow key={topUp.id} topUp={topUp} timeZone={timeZone} />
      ))}
    </ul>
  );
}

function TopUpRow({ topUp, timeZone }: { topUp: TopUp; timeZone: string }) {
  const withdrawing = useApiAction('The top-up could not be withdrawn. Please try again.');
  return (
    <li className="py-3 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium text-slate-900">
          {formatAmount(topUp.amountCents, topUp.currency, { minor: 'always' })}{' '}
          <span className="font-normal text-slate-700">
            {topUp.method === 'stripe' ? 'by card' : 'by transfer'}
          </span>
        </p>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS[topUp.status].className}`}
        >
          {STATUS[topUp.status].label}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        Reference <span className="font-mono font-semibold text-slate-900">{topUp.reference}</span> ·{' '}
        <time dateTime={topUp.createdAt}>{dateTimeLabel(Date.parse(topUp.createdAt), timeZone)}</time>
      </p>
      {topUp.status === 'pending' && topUp.method === 'manual' ? (
        <div className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-800">
          {topUp.instructions ? (
            <p className="whitespace-pre-line break-words">{topUp.instructions}</p>
          ) : null}
          <p className={topUp.instructions ? 'mt-2' : undefined}>
            Questions about paying?{' '}
            <Link to={supportChatPath} className="font-semibold text-brand-700 underline">
              Message support<span className="sr-only"> about top-up {topUp.reference}</span>
            </Link>
          </p>
        </div>
      ) : null}
      {topUp.status === 'rejected' && topUp.note ? (
        <p className="mt-1 break-words text-sm text-slate-700">The school says: {topUp.note}</p>
      ) : null}
      {topUp.status === 'pending' ? (
        <div className="mt-2 space-y-2">
          {withdrawing.problem ? <ErrorMessage>{withdrawing.problem}</ErrorMessage> : null}
          <Button
            variant="secondary"
            busy={withdrawing.busy}
            aria-disabled={withdrawing.busy || undefined}
            onClick={() => void withdrawing.run(() => withdrawTopUp(topUp.id))}
          >
            Withdraw<span className="sr-only"> top-up {topUp.reference}</span>
          </Button>
          <p className="text-xs text-slate-600">If you will not pay it, the school stops waiting for it.</p>
        </div>
      ) : null}
    </li>
  );
}
