/**
 * /family. A parent sees their children (first name, year of birth, whether they have a login of
 * their own, the monthly limit of one who does), adds a child, invites a child of 13 or older to a
 * login, sets or clears a monthly limit, and removes a child after a question that says what it
 * does to the lessons ahead. A student sees the parent who pays for them, or invites one.
 * Each form goes through this page's action (its `intent` says which); a refusal the server names
 * a field for is shown by that field.
 */
import { t as say } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { type ActionFunctionArgs, type LoaderFunctionArgs, useFetcher, useLoaderData } from 'react-router';
import { decimalString, formatAmount } from '../../../shared/amounts';
import { ageOf, MAX_CHILDREN, OWN_LOGIN_AGE } from '../../../shared/family/family-constants';
import { parseAmountCents } from '../../../shared/money/amounts';
import { paths } from '../../../shared/routes';
import { Button, ButtonLink } from '../../components/button';
import { CardSection } from '../../components/card';
import { ConfirmPanel } from '../../components/confirm-panel';
import {
  ActionForm,
  FieldProblemLine,
  FormAnswerMessage,
  SubmitButton,
  useFieldProblem,
} from '../../components/form';
import { ErrorMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { type FormAnswer, formValues, refused } from '../../lib/forms';
import { translated } from '../../lib/i18n';
import { getPaymentsConfig, usePaymentsConfig } from '../../lib/payments-config';
import { authStore } from '../auth';
import {
  addChild,
  type ChildView,
  type FamilyView,
  fetchFamily,
  inviteChild,
  inviteParent,
  removeChild,
  setMonthlyLimit,
} from './family-api';

export async function loader({ request }: LoaderFunctionArgs) {
  const family = await fetchFamily(request.signal);
  return { family, role: authStore.getState().user?.role ?? 'student' };
}

/** The server's refusal, shown by the field it names (or by `fallbackField` for any 400). */
function refusedAt(error: unknown, fallbackField?: string): FormAnswer {
  const answer = refused(error);
  const field =
    error instanceof ApiError
      ? (error.field?.split('.').at(-1) ?? (error.status === 400 ? fallbackField : undefined))
      : undefined;
  if (field) answer.problem.fields[field] = answer.problem.message;
  return answer;
}

/** A problem the page finds before asking the server, shown by its field. */
const problemAt = (field: string, message: string): FormAnswer => ({
  problem: { message, fields: { [field]: message } },
});

export async function action({ request: submitted }: ActionFunctionArgs): Promise<FormAnswer> {
  const values = await formValues(submitted);
  const text = (name: string) => String(values[name] ?? '').trim();
  const childId = text('childId');
  try {
    switch (values.intent) {
      case 'add-child': {
        const firstName = text('firstName');
        const year = text('birthYear');
        // A year that is not one is sent as typed: the server says what a year must be.
        const { child } = await addChild(firstName, /^\d{1,4}$/.test(year) ? Number(year) : year);
        const name = child.firstName;
        return { done: say`${name} is added. You can now book lessons for them on a tutor’s page.` };
      }
      case 'invite-child': {
        const email = text('email');
        await inviteChild(childId, email);
        return {
          done: say`Invitation sent to ${email}. The link in it lets them choose a password within 7 days.`,
        };
      }
      case 'limit': {
        const typed = text('limit');
        if (values.clear === '1' || typed === '') {
          await setMonthlyLimit(childId, null);
          return { done: say`No monthly limit now.` };
        }
        const { currency } = await getPaymentsConfig();
        const amount = parseAmountCents(typed, currency, translated);
        if (amount.problem !== undefined) return problemAt('limit', amount.problem);
        await setMonthlyLimit(childId, amount.cents);
        const shown = formatAmount(amount.cents, currency, { minor: 'always' });
        return { done: say`The monthly limit is ${shown}.` };
      }
      case 'invite-parent': {
        if (values.oldEnough !== 'on')
          return problemAt('oldEnough', say`Only a student of 13 or older can invite a parent.`);
        const email = text('email');
        await inviteParent(email);
        return {
          done: say`Invitation sent to ${email}. Once they accept, your lessons are paid from their wallet.`,
        };
      }
      default:
        return refused(null);
    }
  } catch (error) {
    return refusedAt(error, values.intent === 'limit' ? 'limit' : 'email');
  }
}

export function Component() {
  const { t } = useLingui();
  const { family, role } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:py-12">
      <title>{t`Family · Tutorlane`}</title>
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">
          <Trans>Family</Trans>
        </h1>
        <p className="mt-2 max-w-3xl text-slate-700">
          {role === 'parent'
            ? t`Add your children to book and pay for their lessons. Tutors see a child’s first name only.`
            : t`A parent can pay for your lessons from their wallet, and is told of each lesson you book.`}
        </p>
      </header>
      <div className="mt-8 space-y-6">
        {role === 'parent' ? <ParentFamily family={family} /> : <StudentFamily family={family} />}
      </div>
    </div>
  );
}

function ParentFamily({ family }: { family: FamilyView }) {
  const { t } = useLingui();
  const added = family.children.length;
  return (
    <>
      <CardSection title={t`Your children`}>
        {added === 0 ? (
          <p className="text-sm text-slate-700">
            <Trans>No children yet. Add a child below, then book lessons for them on a tutor’s page.</Trans>
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {family.children.map((child) => (
              <ChildItem key={child.id} child={child} />
            ))}
          </ul>
        )}
      </CardSection>
      <AddChild full={added >= MAX_CHILDREN} />
    </>
  );
}

function AddChild({ full }: { full: boolean }) {
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  const headingId = 'add-child-heading';
  const example = new Date().getUTCFullYear() - 9;
  // Cleared once a child is added, so the next one starts from empty fields.
  const [formKey, setFormKey] = useState(0);
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.done) setFormKey((key) => key + 1);
  }, [fetcher.state, fetcher.data]);
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Trans>Add a child</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        <Trans>
          A child under 13 has no login: you book for them and join their lessons on their behalf. From 13,
          you may invite them to a login of their own.
        </Trans>
      </p>
      {full ? (
        <p className="mt-4 text-sm text-slate-700">
          <Trans>You have added {MAX_CHILDREN} children, the most a family may have.</Trans>
        </p>
      ) : (
        <ActionForm fetcher={fetcher} className="mt-4 space-y-4" labelledBy={headingId}>
          <FormAnswerMessage />
          <input type="hidden" name="intent" value="add-child" />
          <div key={formKey} className="grid gap-4 sm:grid-cols-2">
            <TextField label={t`First name`} name="firstName" autoComplete="off" limit={40} />
            <TextField
              label={t`Year of birth`}
              name="birthYear"
              inputMode="numeric"
              autoComplete="off"
              hint={t`For example ${example}.`}
            />
          </div>
          <SubmitButton>
            <Trans>Add child</Trans>
          </SubmitButton>
        </ActionForm>
      )}
    </section>
  );
}

function ChildItem({ child }: { child: ChildView }) {
  const { t } = useLingui();
  const payments = usePaymentsConfig();
  const name = child.firstName;
  const year = child.birthYear === null ? null : String(child.birthYear);
  const age = child.birthYear === null ? null : ageOf(child.birthYear);
  const email = child.email ?? '';
  const mayInvite = !child.hasLogin && age !== null && age >= OWN_LOGIN_AGE;
  return (
    <li className="space-y-3 py-5 first:pt-0 last:pb-0">
      <div>
        <h3 className="text-base font-semibold text-slate-900">{name}</h3>
        <p className="text-sm text-slate-700">
          {year !== null && age !== null ? t`Born in ${year} (${age} this year)` : null}
        </p>
        <p className="mt-1 text-sm text-slate-700">
          {child.hasLogin ? (
            <Trans>
              Has a login of their own: <bdi>{email}</bdi>
            </Trans>
          ) : child.invited ? (
            <Trans>
              Invited to a login: <bdi>{email}</bdi>. The invitation waits for them.
            </Trans>
          ) : (
            <Trans>No login: you book for them and join their lessons.</Trans>
          )}
        </p>
      </div>
      {child.hasLogin && payments.on ? <MonthlyLimit child={child} currency={payments.currency} /> : null}
      {mayInvite ? <InviteChild child={child} /> : null}
      <RemoveChild child={child} />
    </li>
  );
}

function MonthlyLimit({ child, currency }: { child: ChildView; currency: string }) {
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  const name = child.firstName;
  const limit = child.monthlyLimitCents;
  const shown = limit === null ? null : formatAmount(limit, currency, { minor: 'always' });
  return (
    <ActionForm fetcher={fetcher} className="space-y-2 rounded-xl bg-slate-50 p-4">
      <p className="text-sm text-slate-700">
        {shown === null
          ? t`No monthly limit: ${name}’s bookings may take any amount from your wallet.`
          : t`Monthly limit: ${shown}. What ${name} books in a month may not take more from your wallet.`}
      </p>
      <FormAnswerMessage />
      <input type="hidden" name="intent" value="limit" />
      <input type="hidden" name="childId" value={child.id} />
      <div className="flex flex-wrap items-end gap-3">
        <TextField
          key={limit ?? 'none'}
          label={t`Monthly limit for ${name}`}
          name="limit"
          inputMode="decimal"
          defaultValue={limit === null ? '' : decimalString(limit, currency)}
          className="w-48"
        />
        <SubmitButton variant="secondary">
          <Trans>Save limit</Trans>
        </SubmitButton>
        {limit !== null ? (
          <SubmitButton variant="ghost" name="clear" value="1">
            <Trans>Remove the limit</Trans>
          </SubmitButton>
        ) : null}
      </div>
    </ActionForm>
  );
}

function InviteChild({ child }: { child: ChildView }) {
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  const name = child.firstName;
  return (
    <ActionForm fetcher={fetcher} className="space-y-2 rounded-xl bg-slate-50 p-4">
      <p className="text-sm text-slate-700">
        <Trans>
          {name} may have a login of their own: they get a mail to choose a password, then sign in and book on
          your wallet.
        </Trans>
      </p>
      <FormAnswerMessage />
      <input type="hidden" name="intent" value="invite-child" />
      <input type="hidden" name="childId" value={child.id} />
      <div className="flex flex-wrap items-end gap-3">
        <TextField
          label={t`${name}’s email`}
          type="email"
          name="email"
          autoComplete="off"
          defaultValue={child.email ?? ''}
          className="min-w-0 flex-1 basis-56"
        />
        <SubmitButton variant="secondary" aria-label={t`Invite ${name}`}>
          <Trans>Invite</Trans>
        </SubmitButton>
      </div>
    </ActionForm>
  );
}

function RemoveChild({ child }: { child: ChildView }) {
  const { t } = useLingui();
  const [asking, setAsking] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const removing = useApiAction();
  const name = child.firstName;
  // Closing the question gives the focus back to the button that opened it, once it is drawn again.
  const asked = useRef(false);
  useEffect(() => {
    if (!asking && asked.current) opener.current?.focus();
    asked.current = asking;
  }, [asking]);
  const keep = () => setAsking(false);
  if (!asking)
    return (
      <Button ref={opener} variant="ghost" onClick={() => setAsking(true)} className="text-red-800">
        <Trans>Remove {name}</Trans>
      </Button>
    );
  return (
    <ConfirmPanel question={t`Remove ${name} from your family?`} onKeep={keep}>
      <p className="text-sm text-slate-700">
        <Trans>
          Their future lessons paid by you will be cancelled, and the money returned to your wallet. Their
          tutors are told.
        </Trans>{' '}
        {child.hasLogin
          ? t`${name} keeps their own login, and pays for their own lessons from then on.`
          : t`${name} has no login, so their account is deleted too: their goals are erased, and their past lessons stay with their tutors under "Deleted user".`}
      </p>
      {removing.problem ? <ErrorMessage>{removing.problem}</ErrorMessage> : null}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="danger"
          busy={removing.busy}
          onClick={() => removing.run(() => removeChild(child.id))}
        >
          <Trans>Yes, remove {name}</Trans>
        </Button>
        <Button variant="ghost" onClick={keep}>
          <Trans>Keep {name}</Trans>
        </Button>
      </div>
    </ConfirmPanel>
  );
}

function StudentFamily({ family }: { family: FamilyView }) {
  const { t } = useLingui();
  if (family.parents.length > 0)
    return (
      <CardSection title={t`Your parent`}>
        <ul className="space-y-3">
          {family.parents.map((parent) => {
            const name = parent.displayName;
            return (
              <li key={parent.id} className="text-slate-800">
                <p className="font-semibold text-slate-900">{name}</p>
                <p className="text-sm text-slate-700">
                  <Trans>
                    {name} pays for your lessons and packages from their wallet, is told of each lesson you
                    book, and can read your conversations with your tutors.
                  </Trans>
                </p>
              </li>
            );
          })}
        </ul>
        <ButtonLink to={paths.tutors} variant="secondary" className="mt-4">
          <Trans>Find a tutor</Trans>
        </ButtonLink>
      </CardSection>
    );
  return <InviteParent />;
}

function InviteParent() {
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  const headingId = 'invite-parent-heading';
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Trans>Invite a parent</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        <Trans>
          Once your parent accepts (signing up as a parent if they have no account), your lessons are paid
          from their wallet. They are told of each lesson you book, may set a monthly limit, and can read your
          conversations with your tutors.
        </Trans>
      </p>
      <ActionForm fetcher={fetcher} className="mt-4 space-y-4" labelledBy={headingId}>
        <FormAnswerMessage />
        <input type="hidden" name="intent" value="invite-parent" />
        <TextField label={t`Your parent’s email`} type="email" name="email" autoComplete="off" />
        <OldEnough />
        <SubmitButton>
          <Trans>Invite</Trans>
        </SubmitButton>
      </ActionForm>
    </section>
  );
}

/** The student's word that they are 13 or older, marked when the form is sent without it. */
function OldEnough() {
  const lineId = 'old-enough-problem';
  const problem = useFieldProblem('oldEnough', lineId);
  return (
    <div>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          name="oldEnough"
          className="size-4 accent-brand-700"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem?.describedBy}
        />
        <Trans>I am 13 or older</Trans>
      </label>
      <FieldProblemLine id={lineId} problem={problem} />
    </div>
  );
}
