/**
 * The tutor's lesson packages on their page: each offer with its total and its price a lesson, and
 * for a verified student a "Buy" that asks first, with the total against their balance (and the
 * way to top up what is missing); a parent chooses, in the same question, the child it is for. Shown only while the school takes payments through Tutorlane.
 */

import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import type { ChildView } from '../../../shared/family/family-constants';
import { type Amount, topUpUnitsFor } from '../../../shared/money/amounts';
import { paths } from '../../../shared/routes';
import type { TutorPublicProfile } from '../../../shared/tutor-schemas';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { ApiError } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { i18n } from '../../lib/i18n';
import { newIdempotencyKey } from '../../lib/idempotency';
import { buyPackage } from '../../lib/lesson-packages';
import { usePaymentsConfig } from '../../lib/payments-config';
import { books } from '../../lib/roles';
import { refreshWalletSummary, useWalletSummary } from '../../lib/wallet-summary';
import { useAuth } from '../auth';
import { ChildChoice, firstChoice } from '../family';

type Offer = TutorPublicProfile['booking']['packages'][number];

/** "5 lessons of 60 minutes", in the page's language. */
function offerName(offer: Offer) {
  const { lessons, minutes } = offer;
  return i18n._(
    msg`${plural(lessons, { one: '# lesson', other: '# lessons' })} of ${plural(minutes, { one: '# minute', other: '# minutes' })}`,
  );
}

export function TutorPackages({
  tutor,
  onBought,
  family = null,
}: {
  tutor: TutorPublicProfile;
  onBought: () => void;
  /** A parent's children, one of whom the package is for. */
  family?: ChildView[] | null;
}) {
  const { t } = useLingui();
  const auth = useAuth();
  const user = auth.status === 'signed-in' ? auth.user : null;
  const canBuy = books(user?.role) && user?.emailVerified === true;
  const parent = user?.role === 'parent';
  const [forChild, setForChild] = useState('');
  const [forProblem, setForProblem] = useState<string | null>(null);
  const payments = usePaymentsConfig();
  const wallet = useWalletSummary(canBuy && user ? user.id : null, {
    enabled: payments.on,
    freshness: 'now',
  });
  const balance = wallet?.payments === 'on' ? wallet.balance : null;
  const [chosen, setChosen] = useState<Offer | null>(null);
  const [bought, setBought] = useState<string | null>(null);
  const [lacking, setLacking] = useState<Amount | null>(null);
  const buying = useApiAction(t`The package could not be bought.`);
  // One purchase's key: the same if it is sent again, a new one once it went through.
  const [key, setKey] = useState(newIdempotencyKey);
  const headingId = useId();
  const offers = tutor.booking.packages;
  const tutorName = tutor.displayName;
  if (!payments.on || offers.length === 0) return null;
  const currency = payments.currency;

  const close = () => {
    setChosen(null);
    setForProblem(null);
    setLacking(null);
    buying.setProblem(null);
  };
  async function buy(offer: Offer) {
    setLacking(null);
    const childId = forChild || firstChoice(family);
    if (parent && !childId) {
      setForProblem(t`Choose the child the package is for`);
      return;
    }
    await buying.run(
      () => buyPackage(tutor.id, offer.lessons, offer.minutes, key, parent ? childId : undefined),
      {
        reload: false,
        onDone: () => {
          setKey(newIdempotencyKey());
          // The booking box stands above this one at every width (./tutor-page.tsx).
          const name = offerName(offer);
          const minutes = offer.minutes;
          setBought(
            t`You bought ${name} with ${tutorName}. Book them in “Book a lesson” above: each ${minutes}-minute lesson you book there uses one.`,
          );
          setChosen(null);
          onBought();
          if (user) void refreshWalletSummary(user.id);
        },
        onFailure: (error) => {
          if (error instanceof ApiError && error.code === 'INSUFFICIENT_BALANCE') {
            const needed = (error.body as { needed?: Amount } | null)?.needed;
            setLacking(needed ?? { amountCents: 0, currency });
            return true;
          }
          return false;
        },
      },
    );
  }

  const short =
    chosen && balance
      ? (lacking ??
        (balance.amountCents < chosen.totalCents
          ? { amountCents: chosen.totalCents - balance.amountCents, currency }
          : null))
      : lacking;

  const chosenName = chosen ? offerName(chosen) : '';
  const chosenTotal = chosen ? formatAmount(chosen.totalCents, currency, { minor: 'always' }) : '';
  const chosenEach = chosen ? formatAmount(chosen.perLessonCents, currency, { minor: 'always' }) : '';
  const balanceLeft = balance ? formatAmount(balance.amountCents, balance.currency, { minor: 'always' }) : '';
  const shortBy = short ? formatAmount(short.amountCents, short.currency, { minor: 'always' }) : '';

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        <Trans>Lesson packages</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        <Trans>Pay for several lessons at once, at a lower price. Each lesson you book uses one.</Trans>
      </p>
      {bought ? (
        <div className="mt-3">
          <StatusMessage>{bought}</StatusMessage>
        </div>
      ) : null}
      <ul className="mt-4 space-y-3">
        {offers.map((offer) => {
          const total = formatAmount(offer.totalCents, currency, { minor: 'always' });
          const each = formatAmount(offer.perLessonCents, currency, { minor: 'always' });
          const discount = offer.discountPercent;
          const name = offerName(offer);
          return (
            <li
              key={`${offer.lessons}x${offer.minutes}`}
              className="flex flex-col gap-3 rounded-xl bg-slate-50 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div>
                <p className="font-semibold text-slate-900">{name}</p>
                <p className="text-sm text-slate-700">
                  <Trans>
                    {total} · {each} a lesson
                  </Trans>
                  {discount > 0 ? (
                    <>
                      {' · '}
                      <Trans>{discount}% off</Trans>
                    </>
                  ) : null}
                </p>
              </div>
              {canBuy ? (
                <Button variant="secondary" onClick={() => setChosen(offer)}>
                  <Trans>
                    Buy<span className="sr-only"> {name}</span>
                  </Trans>
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
      <Dialog
        open={chosen !== null}
        onClose={close}
        title={chosen ? t`Buy ${chosenName}?` : t`Buy a package`}
        description={
          chosen
            ? t`${chosenTotal} is paid from your balance now (${chosenEach} a lesson with ${tutorName}). Unused lessons come back to your balance if you end the package.`
            : undefined
        }
      >
        {chosen ? (
          <div className="mt-4 space-y-3">
            {parent ? (
              <ChildChoice
                family={family}
                value={forChild || firstChoice(family)}
                problem={forProblem}
                onChange={(childId) => {
                  setForChild(childId);
                  setForProblem(null);
                }}
              />
            ) : null}
            <p className="text-sm text-slate-800">
              <Trans>Total {chosenTotal}</Trans>
              {balance ? (
                <>
                  {' · '}
                  <Trans>Your balance {balanceLeft}</Trans>
                </>
              ) : null}
            </p>
            {short ? (
              <div
                role={lacking ? 'alert' : 'status'}
                className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
              >
                <Trans>Your balance is {shortBy} short for this package.</Trans>{' '}
                <Link
                  to={`${paths.wallet}?amount=${topUpUnitsFor(short)}`}
                  className="font-semibold underline"
                >
                  <Trans>Top up</Trans>
                </Link>
              </div>
            ) : null}
            {buying.problem ? <ErrorMessage>{buying.problem}</ErrorMessage> : null}
            <div className="flex flex-col gap-2 sm:flex-row-reverse">
              <Button onClick={() => buy(chosen)} busy={buying.busy} disabled={buying.busy || short !== null}>
                <Trans>Buy for {chosenTotal}</Trans>
              </Button>
              <Button variant="secondary" onClick={close}>
                <Trans>Cancel</Trans>
              </Button>
            </div>
          </div>
        ) : null}
      </Dialog>
    </section>
  );
}
