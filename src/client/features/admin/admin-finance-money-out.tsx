/**
 * The finance page's forms for money the school sent outside Tutorlane: a payout to a tutor, and a
 * student's balance or a package's unused lessons paid back.
 */

import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { type ReactNode, useState } from 'react';
import { useFetcher } from 'react-router';
import { decimalString, formatAmount, minorDigits } from '../../../shared/amounts';
import { type Amount, amountExample } from '../../../shared/money/amounts';
import { CardSection } from '../../components/card';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { SelectField, TextField } from '../../components/text-field';
import type { FormAnswer } from '../../lib/forms';
import type { Finance } from './admin-data';
import { EmptyState } from './admin-layout';
import * as moneyOut from './money-out-resend';

/** A refund's choice: a student's balance, or one of their packages (its unused lessons). */
export const PACKAGE_CHOICE = 'package:';
export const BALANCE_CHOICE = 'balance:';

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
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  const [personId, setPersonId] = useState('');
  const [amount, setAmount] = useState('');
  const people = groups.flatMap((group) => group.choices);
  const person = people.find((candidate) => candidate.id === personId);
  const option = (candidate: Choice) => (
    <option key={candidate.id} value={candidate.id}>
      {candidate.label}: {formatAmount(candidate.amount, { minor: 'always' })}
    </option>
  );
  const example = amountExample(currency);
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
              setAmount(chosen ? decimalString(chosen.amount.amountCents, chosen.amount.currency) : '');
            }}
          >
            <option value="">{t`Choose…`}</option>
            {shown.length === 1
              ? shown[0]?.choices.map(option)
              : shown.map((group) => (
                  <optgroup key={group.label} label={group.label}>
                    {group.choices.map(option)}
                  </optgroup>
                ))}
          </SelectField>
          <TextField
            label={t`Amount (${currency})`}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            readOnly={person?.whole}
            onChange={(event) => setAmount(event.target.value)}
            hint={
              person?.whole
                ? t`A package is paid back whole: what its unused lessons hold.`
                : minorDigits(currency) === 0
                  ? t`Whole ${currency}, such as ${example}.`
                  : t`With its decimals if any, such as ${example}.`
            }
          />
          <TextField
            label={t`Bank reference`}
            name="reference"
            autoComplete="off"
            maxLength={100}
            hint={t`The reference of the transfer you made, so the two can be matched.`}
          />
          <moneyOut.Resend fetcher={fetcher} />
          <SubmitButton busyLabel={t`Recording…`}>{submit}</SubmitButton>
        </ActionForm>
      )}
    </CardSection>
  );
}

export function PayoutForm({ finance }: { finance: Finance }) {
  const { t } = useLingui();
  return (
    <MoneyOutForm
      intent="payout"
      title={t`Record a payout`}
      intro={t`After you have paid a tutor from the school’s bank account, record it here: it comes off what they are owed.`}
      personLabel={t`Tutor`}
      groups={[
        {
          label: t`Tutors`,
          choices: finance.payables.map(({ tutor, payable }) => ({
            id: tutor.id,
            displayName: tutor.displayName,
            label: `${tutor.displayName} (${tutor.email})`,
            amount: payable,
          })),
        },
      ]}
      empty={t`No tutor is owed anything.`}
      currency={finance.currency}
      submit={t`Record payout`}
    />
  );
}

export function RefundForm({ finance }: { finance: Finance }) {
  const { t } = useLingui();
  const packageLabel = (item: Finance['packages'][number]) => {
    const student = item.student.displayName;
    const email = item.student.email;
    const unused = item.creditsLeft;
    const tutor = item.tutor.displayName;
    const lessons = item.lessons;
    return t`${student} (${email}), ${plural(lessons, {
      one: `${unused} unused of # lesson with ${tutor}`,
      other: `${unused} unused of # lessons with ${tutor}`,
    })}`;
  };
  return (
    <MoneyOutForm
      intent="refund"
      title={t`Pay back a balance or a package`}
      intro={t`After you have sent a student’s unspent balance, or what a package’s unused lessons hold, back to them, record it here: it comes off their balance, or ends the package.`}
      personLabel={t`Student’s balance or package`}
      groups={[
        {
          label: t`Balances`,
          choices: finance.balances.map(({ student, balance }) => ({
            id: `${BALANCE_CHOICE}${student.id}`,
            displayName: student.displayName,
            label: `${student.displayName} (${student.email})`,
            amount: balance,
          })),
        },
        {
          label: t`Lesson packages`,
          choices: finance.packages.map((item) => ({
            id: `${PACKAGE_CHOICE}${item.id}`,
            displayName: item.student.displayName,
            label: packageLabel(item),
            amount: item.unused,
            whole: true,
          })),
        },
      ]}
      empty={t`No student holds a balance or a package’s unused lessons.`}
      currency={finance.currency}
      submit={t`Record refund`}
    />
  );
}
