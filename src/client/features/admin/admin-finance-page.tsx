/**
 * /admin/finance: the school's money. The ledger's totals (what the school holds and has earned is
 * what came in: every movement is written as much into one account as out of another), the
 * transfers to match against the bank, each confirmed (after a second look at its amount and
 * reference) or rejected, the payouts to tutors and the balances and
 * packages' unused lessons paid back to students as they are made outside Tutorlane, and the
 * ledger as CSV files for the accountant.
 * Card payments Stripe took that no wallet holds are shown first, for an admin to settle by hand.
 */

import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type ActionFunctionArgs, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { type Amount, parseAmountCents } from '../../../shared/money/amounts';
import { unappliedPaymentReasonTexts } from '../../../shared/money/unapplied-payments';
import { CardSection } from '../../components/card';
import { DoneNotice, ErrorMessage, StatusMessage, useDoneNotice } from '../../components/messages';
import { ApiError } from '../../lib/api';
import { type FormAnswer, formValues, refused } from '../../lib/forms';
import { i18n, translated } from '../../lib/i18n';
import { dateTimeLabel, type Finance, fetchFinance } from './admin-data';
import { Downloads } from './admin-finance-downloads';
import { BALANCE_CHOICE, PACKAGE_CHOICE, PayoutForm, RefundForm } from './admin-finance-money-out';
import { PendingTopUps } from './admin-finance-top-ups';
import { AdminLayout } from './admin-layout';
import * as moneyOut from './money-out-resend';

export const loader = ({ request }: LoaderFunctionArgs) => fetchFinance(request.signal);

const problemIn = (field: string, message: string): FormAnswer => ({
  problem: { message, fields: { [field]: message } },
});

/** The payout and refund forms: who (or which package), how much, and the bank's reference for it. */
export async function action({ request: submitted }: ActionFunctionArgs): Promise<FormAnswer> {
  const values = await formValues(submitted);
  const intent = values.intent === 'refund' ? 'refund' : 'payout';
  const person = String(values.person ?? '');
  const reference = String(values.reference ?? '').trim();
  const currency = String(values.currency ?? 'USD');
  if (!person)
    return problemIn(
      'person',
      intent === 'payout' ? i18n._(msg`Choose a tutor.`) : i18n._(msg`Choose a student.`),
    );
  const amount = parseAmountCents(String(values.amount ?? ''), currency, translated);
  if (amount.problem !== undefined) return problemIn('amount', amount.problem);
  if (!reference) return problemIn('reference', i18n._(msg`Enter the reference of the bank transfer.`));
  const name = String(values.name ?? '');
  const { recordPayout, recordBalanceRefund, refundPackage } = moneyOut.calls(values);
  const paid = formatAmount(amount.cents, currency, { minor: 'always' });
  try {
    if (intent === 'payout') {
      await recordPayout({ tutorId: person, amountCents: amount.cents, reference });
      return {
        done: i18n._(msg`Payout of ${paid} to ${name} recorded.`),
      };
    }
    if (person.startsWith(PACKAGE_CHOICE)) {
      await refundPackage(person.slice(PACKAGE_CHOICE.length), { amountCents: amount.cents, reference });
      return {
        done: i18n._(
          msg`${paid} for the unused lessons of ${name}’s package recorded; the package has ended.`,
        ),
      };
    }
    const studentId = person.startsWith(BALANCE_CHOICE) ? person.slice(BALANCE_CHOICE.length) : person;
    await recordBalanceRefund({ studentId, amountCents: amount.cents, reference });
    return {
      done: i18n._(msg`${paid} paid back to ${name} recorded.`),
    };
  } catch (error) {
    if (moneyOut.isRepeat(error)) return moneyOut.askPayAgain(error);
    const answer = refused(error);
    // Over what is owed or held: the amount is what to change.
    if (error instanceof ApiError && (error.status === 409 || error.status === 400)) {
      answer.problem.fields.amount = answer.problem.message;
    }
    return answer;
  }
}

export function Component() {
  const finance = useLoaderData<typeof loader>();
  const { done, tell } = useDoneNotice();
  const on = finance.payments === 'on';
  const { t } = useLingui();
  return (
    <AdminLayout
      title={t`Finance`}
      intro={t`The school’s money as Tutorlane records it: what students hold, what lessons hold, what tutors are owed and what the school has earned.`}
    >
      <div className="space-y-6">
        {on ? null : (
          <StatusMessage tone="info">
            <Trans>
              Payments are off (PAYMENTS=off): the school settles lessons outside Tutorlane, so students do
              not top up and nothing is held or paid out here. What was recorded before stays below.
            </Trans>
          </StatusMessage>
        )}
        <Totals finance={finance} />
        <UnappliedPayments finance={finance} />
        {on ? (
          <>
            <DoneNotice done={done} />
            <PendingTopUps finance={finance} onDone={tell} />
            <div className="grid items-start gap-6 lg:grid-cols-2">
              <PayoutForm finance={finance} />
              <RefundForm finance={finance} />
            </div>
          </>
        ) : null}
        <Downloads />
      </div>
    </AdminLayout>
  );
}

/**
 * The ledger's seven totals, read the way a person reads accounts: what the school holds for people
 * and has earned, then the money that came in to cover it. In the ledger the two clearing accounts
 * are negative (money came in through them), so the seven sum to zero; here they are shown as the
 * money received, and the first five add up to the last two.
 */
function Totals({ finance }: { finance: Finance }) {
  const { totals, currency } = finance;
  const { t } = useLingui();
  const received = (amount: Amount): Amount => ({ ...amount, amountCents: -amount.amountCents });
  const held: { label: string; amount: Amount; detail: string }[] = [
    { label: t`Student balances`, amount: totals.studentBalances, detail: t`Topped up, not yet spent` },
    { label: t`Held for lessons`, amount: totals.held, detail: t`Paid for lessons still to take place` },
    {
      label: t`Lesson packages`,
      amount: totals.packages,
      detail: t`Paid for package lessons not yet booked`,
    },
    { label: t`Owed to tutors`, amount: totals.tutorPayable, detail: t`Earned, not yet paid out` },
    { label: t`School revenue`, amount: totals.schoolRevenue, detail: t`Commission on lessons taught` },
  ];
  const came: typeof held = [
    {
      label: t`Received by transfer`,
      amount: received(totals.clearing.manual),
      detail: t`Bank transfers, less payouts and refunds`,
    },
    {
      label: t`Received by card`,
      amount: received(totals.clearing.stripe),
      detail: t`Card payments through Stripe`,
    },
  ];
  const sumOf = (figures: typeof held) =>
    figures.reduce((total, figure) => total + figure.amount.amountCents, 0);
  const [owed, covered] = [sumOf(held), sumOf(came)];
  const total = formatAmount(owed, currency, { minor: 'always' });
  const receivedTotal = formatAmount(covered, currency, { minor: 'always' });
  return (
    <CardSection title={t`Totals`}>
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
        {[...held, ...came].map((figure) => (
          <div key={figure.label} className="flex flex-col-reverse justify-end rounded-xl bg-slate-50 p-4">
            <dt className="mt-1 text-sm text-slate-700">
              {figure.label}
              <span className="block text-xs text-slate-600">{figure.detail}</span>
            </dt>
            <dd className="text-xl font-bold tabular-nums text-slate-900 sm:text-2xl">
              {formatAmount(figure.amount, { minor: 'always' })}
            </dd>
          </div>
        ))}
      </dl>
      {owed === covered ? (
        <p className="mt-4 text-sm text-slate-700">
          <Trans>
            What the school holds and has earned, <bdi>{total}</bdi>, is exactly the money received: every
            movement is written into one account as much as out of another, so money is never made or lost in
            the ledger.
          </Trans>
        </p>
      ) : (
        <div className="mt-4">
          <ErrorMessage>
            <Trans>
              What the school holds and has earned, <bdi>{total}</bdi>, is not the money received,{' '}
              <bdi>{receivedTotal}</bdi>: the ledger is out of balance. Tell whoever runs the server before
              recording anything else.
            </Trans>
          </ErrorMessage>
        </div>
      )}
    </CardSection>
  );
}

/**
 * Card payments Stripe took and Tutorlane could not credit: the money is in the school's Stripe
 * account and in no wallet, so each waits for an admin. Shown only when there is one, with or
 * without payments on (they may be from before payments were turned off).
 */
function UnappliedPayments({ finance }: { finance: Finance }) {
  const { t } = useLingui();
  if (finance.unappliedPayments.length === 0) return null;
  return (
    <CardSection title={t`Card payments in no wallet`}>
      <div className="-mt-2 mb-4">
        <ErrorMessage>
          <Trans>
            Stripe charged these cards, but Tutorlane could not add the money to a wallet. Settle each one by
            hand: refund it from Stripe’s dashboard, or give the student the money another way.
          </Trans>
        </ErrorMessage>
      </div>
      <ul className="divide-y divide-slate-100">
        {finance.unappliedPayments.map((payment) => {
          const provider = payment.provider === 'stripe' ? 'Stripe' : payment.provider;
          const when = dateTimeLabel(payment.reportedAt);
          const topUp = payment.topUpId;
          return (
            <li key={payment.id} className="py-3">
              <p className="font-semibold text-slate-900">
                {formatAmount(payment.amountCents, payment.currency, { minor: 'always' })}{' '}
                <span className="font-normal text-slate-700">
                  <Trans>
                    by card through {provider} · <time dateTime={payment.reportedAt}>{when}</time>
                  </Trans>
                </span>
              </p>
              <p className="text-sm text-slate-700">
                {translated(unappliedPaymentReasonTexts[payment.reason])}
              </p>
              <p className="break-all text-sm text-slate-700">
                <Trans>
                  Top-up <span className="font-mono text-slate-900">{topUp}</span>
                </Trans>
              </p>
            </li>
          );
        })}
      </ul>
    </CardSection>
  );
}
