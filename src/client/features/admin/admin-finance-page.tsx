/**
 * /admin/finance: the school's money. The ledger's totals (what the school holds and has earned is
 * what came in: every movement is written as much into one account as out of another), the
 * transfers to match against the bank, each confirmed (after a second look at its amount and
 * reference) or rejected, the payouts to tutors and the balances and
 * packages' unused lessons paid back to students as they are made outside Tutorlane, and the
 * ledger as CSV files for the accountant.
 * Card payments Stripe took that no wallet holds are shown first, for an admin to settle by hand.
 */
import { type FormEvent, type ReactNode, useState } from 'react';
import { type ActionFunctionArgs, type LoaderFunctionArgs, useFetcher, useLoaderData } from 'react-router';
import {
  type Amount,
  amountFieldValue,
  amountLabel,
  moneyLabel,
  parseAmountCents,
} from '../../../shared/money/amounts';
import { unappliedPaymentReasonTexts } from '../../../shared/money/unapplied-payments';
import { Button, buttonClass } from '../../components/button';
import { CardSection } from '../../components/card';
import { Dialog } from '../../components/dialog';
import { fieldClass } from '../../components/field-class';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { DoneNotice, ErrorMessage, StatusMessage, useDoneNotice } from '../../components/messages';
import { SelectField, TextArea, TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { type FormAnswer, formValues, refused } from '../../lib/forms';
import {
  confirmTopUp,
  dateTimeLabel,
  entriesCsvUrl,
  type Finance,
  fetchFinance,
  payablesCsvUrl,
  rejectTopUp,
} from './admin-data';
import { AdminLayout, EmptyState } from './admin-layout';
import * as moneyOut from './money-out-resend';

export const loader = ({ request }: LoaderFunctionArgs) => fetchFinance(request.signal);

const problemIn = (field: string, message: string): FormAnswer => ({
  problem: { message, fields: { [field]: message } },
});

/** A refund's choice: a student's balance, or one of their packages (its unused lessons). */
const PACKAGE_CHOICE = 'package:';
const BALANCE_CHOICE = 'balance:';

/** The payout and refund forms: who (or which package), how much, and the bank's reference for it. */
export async function action({ request: submitted }: ActionFunctionArgs): Promise<FormAnswer> {
  const values = await formValues(submitted);
  const intent = values.intent === 'refund' ? 'refund' : 'payout';
  const person = String(values.person ?? '');
  const reference = String(values.reference ?? '').trim();
  const currency = String(values.currency ?? 'USD');
  if (!person) return problemIn('person', intent === 'payout' ? 'Choose a tutor.' : 'Choose a student.');
  const amount = parseAmountCents(String(values.amount ?? ''), currency);
  if (amount.problem !== undefined) return problemIn('amount', amount.problem);
  if (!reference) return problemIn('reference', 'Enter the reference of the bank transfer.');
  const name = String(values.name ?? '');
  const { recordPayout, recordBalanceRefund, refundPackage } = moneyOut.calls(values);
  try {
    if (intent === 'payout') {
      await recordPayout({ tutorId: person, amountCents: amount.cents, reference });
      return { done: `Payout of ${moneyLabel(amount.cents, currency)} to ${name} recorded.` };
    }
    if (person.startsWith(PACKAGE_CHOICE)) {
      await refundPackage(person.slice(PACKAGE_CHOICE.length), { amountCents: amount.cents, reference });
      return {
        done: `${moneyLabel(amount.cents, currency)} for the unused lessons of ${name}’s package recorded; the package has ended.`,
      };
    }
    const studentId = person.startsWith(BALANCE_CHOICE) ? person.slice(BALANCE_CHOICE.length) : person;
    await recordBalanceRefund({ studentId, amountCents: amount.cents, reference });
    return { done: `${moneyLabel(amount.cents, currency)} paid back to ${name} recorded.` };
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
  return (
    <AdminLayout
      title="Finance"
      intro="The school’s money as Tutorlane records it: what students hold, what lessons hold, what tutors are owed and what the school has earned."
    >
      <div className="space-y-6">
        {on ? null : (
          <StatusMessage tone="info">
            Payments are off (PAYMENTS=off): the school settles lessons outside Tutorlane, so students do not
            top up and nothing is held or paid out here. What was recorded before stays below.
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
  const received = (amount: Amount): Amount => ({ ...amount, amountCents: -amount.amountCents });
  const held: { label: string; amount: Amount; detail: string }[] = [
    { label: 'Student balances', amount: totals.studentBalances, detail: 'Topped up, not yet spent' },
    { label: 'Held for lessons', amount: totals.held, detail: 'Paid for lessons still to take place' },
    { label: 'Lesson packages', amount: totals.packages, detail: 'Paid for package lessons not yet booked' },
    { label: 'Owed to tutors', amount: totals.tutorPayable, detail: 'Earned, not yet paid out' },
    { label: 'School revenue', amount: totals.schoolRevenue, detail: 'Commission on lessons taught' },
  ];
  const came: typeof held = [
    {
      label: 'Received by transfer',
      amount: received(totals.clearing.manual),
      detail: 'Bank transfers, less payouts and refunds',
    },
    {
      label: 'Received by card',
      amount: received(totals.clearing.stripe),
      detail: 'Card payments through Stripe',
    },
  ];
  const sumOf = (figures: typeof held) =>
    figures.reduce((total, figure) => total + figure.amount.amountCents, 0);
  const [owed, covered] = [sumOf(held), sumOf(came)];
  return (
    <CardSection title="Totals">
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
        {[...held, ...came].map((figure) => (
          <div key={figure.label} className="flex flex-col-reverse justify-end rounded-xl bg-slate-50 p-4">
            <dt className="mt-1 text-sm text-slate-700">
              {figure.label}
              <span className="block text-xs text-slate-600">{figure.detail}</span>
            </dt>
            <dd className="text-xl font-bold tabular-nums text-slate-900 sm:text-2xl">
              {amountLabel(figure.amount)}
            </dd>
          </div>
        ))}
      </dl>
      {owed === covered ? (
        <p className="mt-4 text-sm text-slate-700">
          What the school holds and has earned, {moneyLabel(owed, currency)}, is exactly the money received:
          every movement is written into one account as much as out of another, so money is never made or lost
          in the ledger.
        </p>
      ) : (
        <div className="mt-4">
          <ErrorMessage>
            What the school holds and has earned, {moneyLabel(owed, currency)}, is not the money received,{' '}
            {moneyLabel(covered, currency)}: the ledger is out of balance. Tell whoever runs the server before
            recording anything else.
          </ErrorMessage>
        </div>
      )}
    </CardSection>
  );
}

type PendingTopUp = Finance['pendingTopUps'][number];

function PendingTopUps({ finance, onDone }: { finance: Finance; onDone: (text: string) => void }) {
  const [rejecting, setRejecting] = useState<PendingTopUp | null>(null);
  const [confirming, setConfirming] = useState<PendingTopUp | null>(null);
  return (
    <CardSection title="Transfers to match">
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        Top-ups students asked for, oldest first, each with the reference they were told to pay with. Confirm
        one once a payment of that amount with that reference shows in the school's bank account; reject it,
        with a note to the student, if it never came.
      </p>
      {finance.pendingTopUps.length === 0 ? (
        <EmptyState>No top-up is waiting for confirmation.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100">
          {finance.pendingTopUps.map((topUp) => (
            <PendingTopUpRow
              key={topUp.id}
              topUp={topUp}
              onConfirm={() => setConfirming(topUp)}
              onReject={() => setRejecting(topUp)}
            />
          ))}
        </ul>
      )}
      {confirming ? (
        <ConfirmDialog
          topUp={confirming}
          onClose={(text) => {
            setConfirming(null);
            if (text) onDone(text);
          }}
        />
      ) : null}
      {rejecting ? (
        <RejectDialog
          topUp={rejecting}
          onClose={(text) => {
            setRejecting(null);
            if (text) onDone(text);
          }}
        />
      ) : null}
    </CardSection>
  );
}

const topUpName = (topUp: PendingTopUp) =>
  `${moneyLabel(topUp.amountCents, topUp.currency)} from ${topUp.student.displayName} (${topUp.reference})`;

function PendingTopUpRow({
  topUp,
  onConfirm,
  onReject,
}: {
  topUp: PendingTopUp;
  onConfirm: () => void;
  onReject: () => void;
}) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">
          {moneyLabel(topUp.amountCents, topUp.currency)}{' '}
          <span className="font-normal text-slate-700">
            {topUp.method === 'stripe' ? 'by card' : 'by transfer'}
          </span>
        </p>
        <p className="text-sm text-slate-700">
          Reference <span className="font-mono font-semibold text-slate-900">{topUp.reference}</span> ·{' '}
          <time dateTime={topUp.createdAt}>{dateTimeLabel(topUp.createdAt)}</time>
        </p>
        <p className="break-all text-sm text-slate-700">
          {topUp.student.displayName} · {topUp.student.email}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button aria-label={`Confirm ${topUpName(topUp)}`} onClick={onConfirm}>
          Confirm
        </Button>
        <Button variant="secondary" aria-label={`Reject ${topUpName(topUp)}`} onClick={onReject}>
          Reject
        </Button>
      </div>
    </li>
  );
}

/**
 * Confirming credits the student at once and cannot be undone, so the amount and the reference are
 * put before the admin once more, to check against the bank's line.
 */
function ConfirmDialog({ topUp, onClose }: { topUp: PendingTopUp; onClose: (done?: string) => void }) {
  const confirming = useApiAction();
  const amount = moneyLabel(topUp.amountCents, topUp.currency);
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title="Has this transfer arrived?"
      description={`Confirm only once the school's bank account shows ${amount} with the reference ${topUp.reference}. ${topUp.student.displayName}'s balance then grows by ${amount} at once, and they are told by mail.`}
    >
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-700">Amount</dt>
        <dd className="font-semibold tabular-nums text-slate-900">{amount}</dd>
        <dt className="text-slate-700">Reference</dt>
        <dd className="font-mono font-semibold text-slate-900">{topUp.reference}</dd>
        <dt className="text-slate-700">From</dt>
        <dd className="break-all text-slate-900">{topUp.student.displayName}</dd>
      </dl>
      {confirming.problem ? (
        <div className="mt-3">
          <ErrorMessage>{confirming.problem}</ErrorMessage>
        </div>
      ) : null}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={() => onClose()}>
          Cancel
        </Button>
        <Button
          busy={confirming.busy}
          aria-disabled={confirming.busy || undefined}
          onClick={() =>
            void confirming.run(() => confirmTopUp(topUp.id), {
              onDone: () => onClose(`Confirmed: ${topUpName(topUp)} is in their balance now.`),
            })
          }
        >
          {`Confirm ${amount} received`}
        </Button>
      </div>
    </Dialog>
  );
}

function RejectDialog({ topUp, onClose }: { topUp: PendingTopUp; onClose: (done?: string) => void }) {
  const [note, setNote] = useState('');
  const rejecting = useApiAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!note.trim()) {
      rejecting.setProblem('Write a note: the student needs to know why.');
      return;
    }
    await rejecting.run(() => rejectTopUp(topUp.id, note.trim()), {
      onDone: () => onClose(`Rejected: ${topUpName(topUp)}. The student sees your note.`),
    });
  }
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title="Reject this top-up?"
      description={`${topUpName(topUp)}. Nothing is added to their balance.`}
    >
      <form onSubmit={submit} className="mt-3 space-y-4" noValidate>
        {rejecting.problem ? <ErrorMessage>{rejecting.problem}</ErrorMessage> : null}
        <TextArea
          label="Note to the student"
          hint="Shown with the top-up in their wallet, such as “No transfer with this reference arrived.”"
          value={note}
          onChange={(event) => setNote(event.target.value)}
          maxLength={500}
          rows={3}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onClose()}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="danger"
            busy={rejecting.busy}
            aria-disabled={rejecting.busy || undefined}
          >
            Reject top-up
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Someone the school may send money to, or one of their packages, with what it holds. */
interface Choice {
  /** The form's value: a tutor's id, or `balance:` or `package:` and an id. */
  id: string;
  /** Who the money goes to. */
  displayName: string;
  /** How the choice reads in the list. */
  label: string;
  amount: Amount;
  /** Paid back whole (a package's unused lessons): the amount cannot be changed. */
  whole?: boolean;
}

/**
 * A form that records money the school sent someone: the person or package (with what they are
 * owed or hold), the amount (what they are owed, to start with) and the transfer's reference.
 */
function MoneyOutForm({
  intent,
  title,
  intro,
  personLabel,
  groups,
  empty,
  currency,
  submit,
}: {
  intent: 'payout' | 'refund';
  title: string;
  intro: ReactNode;
  personLabel: string;
  /** The choices, under a heading each when there are several kinds. */
  groups: { label: string; choices: Choice[] }[];
  empty: string;
  currency: string;
  submit: string;
}) {
  const fetcher = useFetcher<FormAnswer>();
  const [personId, setPersonId] = useState('');
  const [amount, setAmount] = useState('');
  const people = groups.flatMap((group) => group.choices);
  const person = people.find((candidate) => candidate.id === personId);
  const option = (candidate: Choice) => (
    <option key={candidate.id} value={candidate.id}>
      {candidate.label}: {amountLabel(candidate.amount)}
    </option>
  );
  const shown = groups.filter((group) => group.choices.length > 0);
  return (
    <CardSection title={title}>
      <p className="-mt-2 mb-4 text-sm text-slate-700">{intro}</p>
      {people.length === 0 ? (
        <EmptyState>{empty}</EmptyState>
      ) : (
        <ActionForm fetcher={fetcher} className="space-y-4">
          <input type="hidden" name="intent" value={intent} />
          <input type="hidden" name="currency" value={currency} />
          <input type="hidden" name="name" value={person?.displayName ?? ''} />
          <FormAnswerMessage />
          <SelectField
            label={personLabel}
            name="person"
            value={personId}
            onChange={(event) => {
              setPersonId(event.target.value);
              const chosen = people.find((candidate) => candidate.id === event.target.value);
              setAmount(chosen ? amountFieldValue(chosen.amount.amountCents, chosen.amount.currency) : '');
            }}
          >
            <option value="">Choose…</option>
            {shown.length === 1
              ? shown[0]?.choices.map(option)
              : shown.map((group) => (
                  <optgroup key={group.label} label={group.label}>
                    {group.choices.map(option)}
                  </optgroup>
                ))}
          </SelectField>
          <TextField
            label={`Amount (${currency})`}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            readOnly={person?.whole}
            onChange={(event) => setAmount(event.target.value)}
            hint={
              person?.whole
                ? 'A package is paid back whole: what its unused lessons hold.'
                : 'Cents allowed, such as 42.50.'
            }
          />
          <TextField
            label="Bank reference"
            name="reference"
            autoComplete="off"
            maxLength={100}
            hint="The reference of the transfer you made, so the two can be matched."
          />
          <moneyOut.Resend fetcher={fetcher} />
          <SubmitButton busyLabel="Recording…">{submit}</SubmitButton>
        </ActionForm>
      )}
    </CardSection>
  );
}

function PayoutForm({ finance }: { finance: Finance }) {
  return (
    <MoneyOutForm
      intent="payout"
      title="Record a payout"
      intro="After you have paid a tutor from the school’s bank account, record it here: it comes off what they are owed."
      personLabel="Tutor"
      groups={[
        {
          label: 'Tutors',
          choices: finance.payables.map(({ tutor, payable }) => ({
            id: tutor.id,
            displayName: tutor.displayName,
            label: `${tutor.displayName} (${tutor.email})`,
            amount: payable,
          })),
        },
      ]}
      empty="No tutor is owed anything."
      currency={finance.currency}
      submit="Record payout"
    />
  );
}

function RefundForm({ finance }: { finance: Finance }) {
  return (
    <MoneyOutForm
      intent="refund"
      title="Pay back a balance or a package"
      intro="After you have sent a student’s unspent balance, or what a package’s unused lessons hold, back to them, record it here: it comes off their balance, or ends the package."
      personLabel="Student’s balance or package"
      groups={[
        {
          label: 'Balances',
          choices: finance.balances.map(({ student, balance }) => ({
            id: `${BALANCE_CHOICE}${student.id}`,
            displayName: student.displayName,
            label: `${student.displayName} (${student.email})`,
            amount: balance,
          })),
        },
        {
          label: 'Lesson packages',
          choices: finance.packages.map((item) => ({
            id: `${PACKAGE_CHOICE}${item.id}`,
            displayName: item.student.displayName,
            label: `${item.student.displayName} (${item.student.email}), ${item.creditsLeft} unused of ${item.lessons} lessons with ${item.tutor.displayName}`,
            amount: item.unused,
            whole: true,
          })),
        },
      ]}
      empty="No student holds a balance or a package’s unused lessons."
      currency={finance.currency}
      submit="Record refund"
    />
  );
}

/** "2026-12-01": a day in this browser's calendar, as a date field holds it. */
function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function Downloads() {
  const today = new Date();
  const [from, setFrom] = useState(() => isoDay(new Date(today.getFullYear(), today.getMonth(), 1)));
  const [to, setTo] = useState(() => isoDay(today));
  const linkClass = 'font-semibold text-brand-700 underline';
  return (
    <CardSection title="Downloads">
      <ul className="space-y-4 text-sm text-slate-700">
        <li>
          <a href={payablesCsvUrl} download className={linkClass}>
            Download payables (CSV)
          </a>
          : what each tutor is owed now.
        </li>
        <li>
          <p>Every ledger entry between two days (both included), for the accountant:</p>
          <div className="mt-2 flex flex-wrap items-end gap-3">
            <label className="block text-sm font-medium text-slate-800">
              From
              <input
                type="date"
                value={from}
                max={to}
                onChange={(event) => setFrom(event.target.value)}
                className={`${fieldClass} w-44`}
              />
            </label>
            <label className="block text-sm font-medium text-slate-800">
              To
              <input
                type="date"
                value={to}
                min={from}
                onChange={(event) => setTo(event.target.value)}
                className={`${fieldClass} w-44`}
              />
            </label>
            <a
              href={from && to ? entriesCsvUrl(from, to) : undefined}
              download
              aria-disabled={!from || !to || undefined}
              className={buttonClass('secondary')}
            >
              Download entries (CSV)
            </a>
          </div>
        </li>
      </ul>
    </CardSection>
  );
}

/**
 * Card payments Stripe took and Tutorlane could not credit: the money is in the school's Stripe
 * account and in no wallet, so each waits for an admin. Shown only when there is one, with or
 * without payments on (they may be from before payments were turned off).
 */
function UnappliedPayments({ finance }: { finance: Finance }) {
  if (finance.unappliedPayments.length === 0) return null;
  return (
    <CardSection title="Card payments in no wallet">
      <div className="-mt-2 mb-4">
        <ErrorMessage>
          Stripe charged these cards, but Tutorlane could not add the money to a wallet. Settle each one by
          hand: refund it from Stripe’s dashboard, or give the student the money another way.
        </ErrorMessage>
      </div>
      <ul className="divide-y divide-slate-100">
        {finance.unappliedPayments.map((payment) => (
          <li key={payment.id} className="py-3">
            <p className="font-semibold text-slate-900">
              {moneyLabel(payment.amountCents, payment.currency)}{' '}
              <span className="font-normal text-slate-700">
                by card through {payment.provider === 'stripe' ? 'Stripe' : payment.provider} ·{' '}
                <time dateTime={payment.reportedAt}>{dateTimeLabel(payment.reportedAt)}</time>
              </span>
            </p>
            <p className="text-sm text-slate-700">{unappliedPaymentReasonTexts[payment.reason]}</p>
            <p className="break-all text-sm text-slate-700">
              Top-up <span className="font-mono text-slate-900">{payment.topUpId}</span>
            </p>
          </li>
        ))}
      </ul>
    </CardSection>
  );
}
