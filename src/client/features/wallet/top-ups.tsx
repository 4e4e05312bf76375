/**
 * A student's top-ups: the form that asks for one (an amount in whole units, and by card when the
 * school takes cards), and the latest ones with their state. A transfer's reference and the
 * school's instructions stay in view while it waits, since the student needs them to pay, with a
 * way to ask support (the instructions may say no more than that), and so does "Withdraw", for one
 * they will not pay. The instructions are an admin's text: shown as text, their line breaks kept.
 */

import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  const { min, max } = topUpUnits(currency);
  const lowest = formatUnits(min, currency);
  const highest = formatUnits(max, currency);
  return (
    <ActionForm fetcher={fetcher} className="space-y-4">
      <FormAnswerMessage />
      <TextField
        label={t`Amount (${currency})`}
        name="amount"
        inputMode="numeric"
        autoComplete="off"
        className="max-w-xs"
        defaultValue={amount === null ? '' : String(amount)}
        hint={t`Whole amounts from ${lowest} to ${highest}.`}
      />
      {stripe ? (
        <ChoiceGroup legend={t`How you pay`} name="method">
          <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:gap-6">
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name="method" value="manual" defaultChecked className="size-4" />
              <Trans>Bank transfer (the school confirms it)</Trans>
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name="method" value="stripe" className="size-4" />
              <Trans>Card (paid at once)</Trans>
            </label>
          </div>
        </ChoiceGroup>
      ) : (
        <input type="hidden" name="method" value="manual" />
      )}
      <IdempotencyKeyInput fetcher={fetcher} />
      <SubmitButton busyLabel={t`Sending…`}>
        <Trans>Top up</Trans>
      </SubmitButton>
    </ActionForm>
  );
}

const STATUS: Record<TopUp['status'], { label: MessageDescriptor; className: string }> = {
  pending: { label: msg`Waiting for the school`, className: 'bg-amber-100 text-amber-900' },
  confirmed: { label: msg`Added to your balance`, className: 'bg-emerald-100 text-emerald-900' },
  rejected: { label: msg`Not received`, className: 'bg-red-100 text-red-900' },
  withdrawn: { label: msg`Withdrawn by you`, className: 'bg-slate-100 text-slate-800' },
};

export function TopUpList({ topUps, timeZone }: { topUps: TopUp[]; timeZone: string }) {
  if (topUps.length === 0)
    return (
      <p className="text-sm text-slate-700">
        <Trans>You have not topped up yet.</Trans>
      </p>
    );
  return (
    <ul className="divide-y divide-slate-100">
      {topUps.map((topUp) => (
        <TopUpRow key={topUp.id} topUp={topUp} timeZone={timeZone} />
      ))}
    </ul>
  );
}

function TopUpRow({ topUp, timeZone }: { topUp: TopUp; timeZone: string }) {
  const { t } = useLingui();
  const withdrawing = useApiAction(t`The top-up could not be withdrawn. Please try again.`);
  const reference = topUp.reference;
  const note = topUp.note;
  const amount = formatAmount(topUp.amountCents, topUp.currency, { minor: 'always' });
  return (
    <li className="py-3 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium text-slate-900">
          <bdi>{amount}</bdi>{' '}
          <span className="font-normal text-slate-700">
            {topUp.method === 'stripe' ? t`by card` : t`by transfer`}
          </span>
        </p>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS[topUp.status].className}`}
        >
          {t(STATUS[topUp.status].label)}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        <Trans>
          Reference{' '}
          <bdi dir="ltr" className="font-mono font-semibold text-slate-900">
            {reference}
          </bdi>
        </Trans>{' '}
        · <time dateTime={topUp.createdAt}>{dateTimeLabel(Date.parse(topUp.createdAt), timeZone)}</time>
      </p>
      {topUp.status === 'pending' && topUp.method === 'manual' ? (
        <div className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-800">
          {topUp.instructions ? (
            <p className="whitespace-pre-line break-words">{topUp.instructions}</p>
          ) : null}
          <p className={topUp.instructions ? 'mt-2' : undefined}>
            <Trans>Questions about paying?</Trans>{' '}
            <Link to={supportChatPath} className="font-semibold text-brand-700 underline">
              <Trans>
                Message support<span className="sr-only"> about top-up {reference}</span>
              </Trans>
            </Link>
          </p>
        </div>
      ) : null}
      {topUp.status === 'rejected' && note ? (
        <p className="mt-1 break-words text-sm text-slate-700">
          <Trans>The school says: {note}</Trans>
        </p>
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
            <Trans>
              Withdraw<span className="sr-only"> top-up {reference}</span>
            </Trans>
          </Button>
          <p className="text-xs text-slate-600">
            <Trans>If you will not pay it, the school stops waiting for it.</Trans>
          </p>
        </div>
      ) : null}
    </li>
  );
}
