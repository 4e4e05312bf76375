/**
 * What makes the payout and refund forms safe to send again (docs/api.md, "Safe to retry"). Each
 * form carries a key of its own, renewed once the form went through, so a form resent after a
 * timeout or a lost answer is recorded once. And when the server finds that the same amount just
 * went to the same person (409 DUPLICATE_REQUEST), the form asks "Pay again?" and records it a
 * second time only when the admin says so.
 */
import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import type { FetcherWithComponents } from 'react-router';
import { SubmitButton, useFieldProblem } from '../../components/form';
import { IdempotencyKeyInput } from '../../components/idempotency-key-input';
import { ApiError } from '../../lib/api';
import type { FormAnswer } from '../../lib/forms';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { recordBalanceRefund, recordPayout, refundPackage } from './admin-data';

/** The form's answer names this field when the server found a repeat; "Pay again" sends it. */
const REPEAT_FIELD = 'confirmDuplicate';

type Values = Record<string, string | string[]>;
type Payout = Omit<Parameters<typeof recordPayout>[0], 'confirmDuplicate'>;
type BalanceRefund = Omit<Parameters<typeof recordBalanceRefund>[0], 'confirmDuplicate'>;

/** The payout and refund calls as this submission makes them: with its form's key, and "Pay again". */
export function calls(values: Values) {
  const key = idempotencyKeyOf(values);
  const meant = values[REPEAT_FIELD] === 'true' ? { confirmDuplicate: true } : {};
  return {
    recordPayout: (json: Payout) => recordPayout({ ...json, ...meant }, key),
    recordBalanceRefund: (json: BalanceRefund) => recordBalanceRefund({ ...json, ...meant }, key),
    refundPackage: (id: string, json: Parameters<typeof refundPackage>[1]) => refundPackage(id, json, key),
  };
}

export const isRepeat = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.code === 'DUPLICATE_REQUEST';

/** The server's words, and the question put where the button to answer it is. */
export const askPayAgain = (error: ApiError): FormAnswer => ({
  problem: { message: error.message, fields: { [REPEAT_FIELD]: error.message } },
});

/** Inside the form: its key, and "Pay again?" after a repeat was refused. */
export function Resend({ fetcher }: { fetcher: FetcherWithComponents<FormAnswer | undefined> }) {
  const questionId = useId();
  const repeat = useFieldProblem(REPEAT_FIELD, questionId);
  return (
    <>
      <IdempotencyKeyInput fetcher={fetcher} />
      {repeat ? (
        <div className="rounded-xl bg-amber-50 p-4">
          <p id={questionId} className="font-semibold text-slate-900">
            <Trans>Pay again?</Trans>
          </p>
          <p className="mt-1 text-sm text-slate-700">
            <Trans>Record it a second time only if the school really sent this money twice.</Trans>
          </p>
          <SubmitButton name={REPEAT_FIELD} value="true" variant="secondary" className="mt-3">
            <Trans>Pay again</Trans>
          </SubmitButton>
        </div>
      ) : null}
    </>
  );
}
