/**
 * /wallet: the money a verified user has with the school. A student sees their balance and what is
 * held for booked lessons, tops up (by transfer, or by card where the school takes cards), follows
 * their top-ups with the reference to pay with, and reads every movement with its receipt. A tutor
 * sees what is held for their coming lessons, what the school owes them and what it has paid out.
 * When the school settles payments outside Tutorlane, the page says so and offers no top-up.
 * `?amount=40` starts the top-up at 40 (the booking box sends a student here with what they lack).
 * The card payment page sends the student back with `?topUp=<id>&paid=1` (or `&cancelled=1`).
 */

import { t as say } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type ReactNode, useEffect } from 'react';
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  useLoaderData,
  useRevalidator,
  useSearchParams,
} from 'react-router';
import { formatAmount, unitsToMinor } from '../../../shared/amounts';
import { parseTopUpUnits, topUpUnits } from '../../../shared/money/amounts';
import { CardSection } from '../../components/card';
import { StatusMessage } from '../../components/messages';
import { ApiError } from '../../lib/api';
import { type FormAnswer, formValues, refused } from '../../lib/forms';
import { translated } from '../../lib/i18n';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { fetchPackages, type LessonPackage } from '../../lib/lesson-packages';
import { getPaymentsConfig } from '../../lib/payments-config';
import { books } from '../../lib/roles';
import { browserTimeZone } from '../../lib/time-zones';
import { rememberWalletSummary } from '../../lib/wallet-summary';
import { authStore, useAuth } from '../auth';
import { isolate } from './isolate';
import { TopUpForm, TopUpList } from './top-ups';
import { fetchWallet, requestTopUp, type StudentWallet, type TutorWallet } from './wallet-api';
import { WalletHistory } from './wallet-history';
import { WalletPackages } from './wallet-packages';

export async function loader({ request }: LoaderFunctionArgs) {
  const [wallet, packages] = await Promise.all([
    fetchWallet(undefined, request.signal),
    books(authStore.getState().user?.role) ? fetchPackages(request.signal) : Promise.resolve([]),
  ]);
  // The bar's balance follows what this page shows.
  const user = authStore.getState().user;
  if (user) {
    rememberWalletSummary(user.id, {
      payments: wallet.payments,
      role: wallet.role,
      balance: wallet.role !== 'tutor' ? wallet.balance : null,
    });
  }
  return { ...wallet, packages };
}

export async function action({ request: submitted }: ActionFunctionArgs): Promise<FormAnswer> {
  const values = await formValues(submitted);
  const { currency } = await getPaymentsConfig();
  const amount = parseTopUpUnits(String(values.amount ?? ''), currency, translated);
  if (amount.problem !== undefined)
    return { problem: { message: amount.problem, fields: { amount: amount.problem } } };
  const method = values.method === 'stripe' ? 'stripe' : 'manual';
  const amountCents = unitsToMinor(amount.units, currency);
  try {
    const answer = await requestTopUp(amountCents, method, idempotencyKeyOf(values));
    const { topUp } = answer;
    const checkoutUrl = 'checkoutUrl' in answer ? answer.checkoutUrl : undefined;
    if (typeof checkoutUrl === 'string') {
      // The card is paid on the payment provider's page, which comes back here once done.
      window.location.assign(checkoutUrl);
      return { done: say`Taking you to the card payment…` };
    }
    const amount = isolate(formatAmount(topUp.amountCents, topUp.currency, { minor: 'always' }));
    const reference = isolate(topUp.reference);
    return {
      done: say`Top-up of ${amount} requested, reference ${reference}. How to pay it is under Your top-ups; the money is added to your balance once the school confirms it arrived.`,
    };
  } catch (error) {
    const answer = refused(error);
    if (error instanceof ApiError && error.status === 400)
      answer.problem.fields.amount = answer.problem.message;
    return answer;
  }
}

/** A whole amount from the URL to start the top-up with, if it is one. */
function startingAmount(text: string | null, currency: string): number | null {
  if (!text || !/^\d{1,7}$/.test(text)) return null;
  const units = Number(text);
  return units > 0 && units <= topUpUnits(currency).max ? units : null;
}

export function Component() {
  const { t } = useLingui();
  const { packages, ...wallet } = useLoaderData<typeof loader>();
  const auth = useAuth();
  const timeZone = auth.user?.timeZone ?? browserTimeZone();
  const off = wallet.payments === 'off';
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-12">
      <title>{t`Wallet · Tutorlane`}</title>
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">
          <Trans>Wallet</Trans>
        </h1>
        <p className="mt-2 max-w-3xl text-slate-700">
          {wallet.role !== 'tutor'
            ? t`Lessons are paid when you book: from a package you bought from that tutor, or else from your balance. The money is held until the lesson takes place, and comes back to you if it does not.`
            : t`What students pay for your lessons is held until each lesson takes place, then owed to you (after the school’s commission) until the school pays it out.`}
        </p>
      </header>
      {wallet.role !== 'tutor' ? <CardReturn wallet={wallet} /> : null}
      {off ? (
        <div className="mt-6 max-w-3xl">
          <StatusMessage tone="info">
            <Trans>
              Your school settles payments outside Tutorlane, so there is nothing to pay or top up here. Ask
              the school how to pay for your lessons, or how you are paid for them.
            </Trans>
          </StatusMessage>
        </div>
      ) : null}
      <div className="mt-8">
        {wallet.role !== 'tutor' ? (
          <StudentView wallet={wallet} packages={packages} timeZone={timeZone} off={off} />
        ) : (
          <TutorView wallet={wallet} timeZone={timeZone} off={off} />
        )}
      </div>
    </div>
  );
}

/** How often, and how many times, the page looks again for a card payment the provider has not confirmed yet. */
const CARD_CHECK_MS = 3000;
const CARD_CHECKS = 10;

/**
 * Back from the card payment page: what happened. A paid top-up is credited when the payment
 * provider confirms it to the server, a moment later, so the page reads the wallet again a few
 * times until it shows.
 */
function CardReturn({ wallet }: { wallet: StudentWallet }) {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const id = params.get('topUp');
  const topUp = id ? wallet.topUps.find((item) => item.id === id) : undefined;
  const paid = params.get('paid') === '1';
  const waiting = paid && topUp?.status === 'pending';
  // biome-ignore lint/correctness/useExhaustiveDependencies: the revalidator is new after every reading; the checks run once for as long as the top-up waits.
  useEffect(() => {
    if (!waiting) return;
    let checks = 0;
    const timer = window.setInterval(() => {
      checks += 1;
      if (checks > CARD_CHECKS) window.clearInterval(timer);
      else void revalidator.revalidate();
    }, CARD_CHECK_MS);
    return () => window.clearInterval(timer);
  }, [waiting]);
  if (!id || !topUp) return null;
  const amount = isolate(formatAmount(topUp.amountCents, topUp.currency, { minor: 'always' }));
  let text: string;
  if (params.get('cancelled') === '1') text = t`The card payment was cancelled: nothing was charged.`;
  else if (!paid) return null;
  else if (topUp.status === 'confirmed') text = t`Your card payment of ${amount} is in your balance.`;
  else
    text = t`Thank you: your card payment of ${amount} went through. It shows in your balance as soon as the payment provider confirms it, usually within a minute.`;
  return (
    <div className="mt-6 max-w-3xl">
      <StatusMessage tone={topUp.status === 'confirmed' ? 'success' : 'info'}>{text}</StatusMessage>
    </div>
  );
}

function Figures({ items }: { items: { label: string; value: string; detail: ReactNode }[] }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
      {items.map((item) => (
        // The figure is drawn above its label, at the top of its box, whatever the label's length.
        <div key={item.label} className="flex flex-col-reverse justify-end rounded-xl bg-slate-50 p-4">
          <dt className="mt-1 text-sm text-slate-700">
            {item.label}
            <span className="block text-xs text-slate-600">{item.detail}</span>
          </dt>
          <dd className="text-2xl font-bold tabular-nums text-slate-900">
            <bdi>{item.value}</bdi>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function StudentView({
  wallet,
  packages,
  timeZone,
  off,
}: {
  wallet: StudentWallet;
  packages: LessonPackage[];
  timeZone: string;
  off: boolean;
}) {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const history = (
    <CardSection title={t`History`} className="lg:col-span-2">
      <WalletHistory
        reader="student"
        transactions={wallet.transactions}
        nextBefore={wallet.nextBefore}
        timeZone={timeZone}
      />
    </CardSection>
  );
  if (off) {
    // What moved before the school turned payments off is still the student's to read.
    return wallet.transactions.length > 0 || wallet.balance.amountCents !== 0 ? (
      <div className="grid gap-6 lg:grid-cols-3">
        <CardSection title={t`Your balance`}>
          <Figures
            items={[
              {
                label: t`Balance`,
                value: formatAmount(wallet.balance, { minor: 'always' }),
                detail: t`Left from before`,
              },
            ]}
          />
        </CardSection>
        {history}
      </div>
    ) : null;
  }
  const currency = wallet.balance.currency;
  return (
    <div className="grid items-start gap-6 lg:grid-cols-3">
      <CardSection title={t`Your balance`}>
        <Figures
          items={[
            {
              label: t`Available`,
              value: formatAmount(wallet.balance, { minor: 'always' }),
              detail: t`For your next bookings`,
            },
            {
              label: t`Held`,
              value: formatAmount(wallet.held, { minor: 'always' }),
              detail: t`For lessons booked, until they take place`,
            },
          ]}
        />
      </CardSection>
      <CardSection title={t`Top up`} className="lg:col-span-2">
        <p className="-mt-2 mb-4 text-sm text-slate-700">
          {wallet.stripe
            ? t`Pay by card and the money is in your balance at once, or by bank transfer, which the school confirms when it arrives.`
            : t`Pay by bank transfer with the reference you get here: the school adds the money to your balance when it arrives.`}
        </p>
        <TopUpForm
          currency={currency}
          stripe={wallet.stripe}
          amount={startingAmount(params.get('amount'), currency)}
        />
      </CardSection>
      <CardSection title={t`Your packages`} className="lg:col-span-3">
        <WalletPackages packages={packages} timeZone={timeZone} />
      </CardSection>
      <CardSection title={t`Your top-ups`}>
        <TopUpList topUps={wallet.topUps} timeZone={timeZone} />
      </CardSection>
      {history}
    </div>
  );
}

function TutorView({ wallet, timeZone, off }: { wallet: TutorWallet; timeZone: string; off: boolean }) {
  const { t } = useLingui();
  const owed = wallet.payable.amountCents < 0;
  const history = (
    <CardSection title={t`History`} className="lg:col-span-2">
      <WalletHistory
        reader="tutor"
        transactions={wallet.transactions}
        nextBefore={wallet.nextBefore}
        timeZone={timeZone}
      />
    </CardSection>
  );
  if (off && wallet.transactions.length === 0) return null;
  return (
    <div className="grid items-start gap-6 lg:grid-cols-3">
      <CardSection title={t`Your earnings`}>
        <Figures
          items={[
            {
              label: t`Pending`,
              value: formatAmount(wallet.pending, { minor: 'always' }),
              detail: t`Held for your coming lessons, after commission`,
            },
            {
              label: owed ? t`Owed to the school` : t`Payable`,
              value: owed
                ? formatAmount(-wallet.payable.amountCents, wallet.payable.currency, { minor: 'always' })
                : formatAmount(wallet.payable, { minor: 'always' }),
              detail: owed ? t`More was paid out than earned` : t`Earned, waiting to be paid out`,
            },
            {
              label: t`Paid out`,
              value: formatAmount(wallet.paidOut, { minor: 'always' }),
              detail: t`Paid to you so far`,
            },
          ]}
        />
      </CardSection>
      {history}
    </div>
  );
}
