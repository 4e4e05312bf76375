/**
 * On /profile, above the deletion's password: the money a person still has with the school, each
 * kind with the way to get it back, and "Ask for a refund", which sends Support a message from them
 * listing every amount (the server reads them from the ledger) and opens that conversation. An
 * account holding money cannot be deleted: once deleted, nobody could claim it.
 */

import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { MoneyLeft } from '../../../shared/account-data';
import { formatAmount } from '../../../shared/amounts';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { i18n, translated } from '../../lib/i18n';
import { dateTimeLabel } from '../../lib/time-labels';
import { conversationPath } from '../messages';

const linkClass = 'font-semibold text-brand-700 underline';
const sum = (items: { amount: { amountCents: number } }[]) =>
  items.reduce((total, item) => total + item.amount.amountCents, 0);

/** "2 lessons of 60 minutes with Ana Ruiz". */
const packageLine = (count: number, minutes: number, tutor: string) =>
  i18n._(
    msg`${plural(count, { one: '# lesson', other: '# lessons' })} of ${plural(minutes, { one: '# minute', other: '# minutes' })} with ${tutor}`,
  );

function Kind({ title, amount, children }: { title: string; amount: string; children: ReactNode }) {
  return (
    <li className="rounded-xl bg-slate-50 p-4">
      <p className="flex flex-wrap justify-between gap-x-4 font-semibold text-slate-900">
        <span>{title}</span>
        <span className="tabular-nums">{amount}</span>
      </p>
      <div className="mt-1 space-y-1 text-sm text-slate-700">{children}</div>
    </li>
  );
}

export function MoneyLeftPanel({ money, timeZone }: { money: MoneyLeft; timeZone: string }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const asking = useApiAction(t`The refund could not be asked for. Please try again.`);
  const { currency } = money.balance;
  const credits = money.packages.reduce((total, item) => total + item.creditsLeft, 0);
  const held = money.holds.length;

  return (
    <div className="space-y-4 rounded-xl border border-amber-200 bg-amber-50/40 p-4 sm:p-5">
      <h3 className="font-semibold text-slate-900">
        <Trans>Money you still have here</Trans>
      </h3>
      <p className="text-sm text-slate-800">
        <Trans>
          Your account cannot be deleted while it holds money: once it is deleted, nobody could claim it. Get
          it back first; then you can delete your account.
        </Trans>
      </p>
      <ul className="space-y-3">
        {money.balance.amountCents > 0 ? (
          <Kind title={t`In your wallet`} amount={formatAmount(money.balance, { minor: 'always' })}>
            <p>
              <Trans>The school pays your balance back to you: ask for a refund below.</Trans>
            </p>
          </Kind>
        ) : null}
        {money.holds.length > 0 ? (
          <Kind
            title={t`${plural(held, { one: 'Held for # upcoming lesson', other: 'Held for # upcoming lessons' })}`}
            amount={formatAmount(sum(money.holds), currency, { minor: 'always' })}
          >
            <ul className="list-disc ps-5">
              {money.holds.map((lesson) => (
                <li key={lesson.lessonId}>
                  {translated(lesson.subject)},{' '}
                  <time dateTime={lesson.start}>{dateTimeLabel(Date.parse(lesson.start), timeZone)}</time>:{' '}
                  {formatAmount(lesson.amount, { minor: 'always' })}
                </li>
              ))}
            </ul>
            <p>
              {held === 1 ? (
                <Trans>
                  Cancel it in your{' '}
                  <Link to={paths.schedule} className={linkClass}>
                    schedule
                  </Link>{' '}
                  (the price goes back to your wallet or package, less any late-cancellation fee), or ask for
                  a refund.
                </Trans>
              ) : (
                <Trans>
                  Cancel them in your{' '}
                  <Link to={paths.schedule} className={linkClass}>
                    schedule
                  </Link>{' '}
                  (the price goes back to your wallet or package, less any late-cancellation fee), or ask for
                  a refund.
                </Trans>
              )}
            </p>
          </Kind>
        ) : null}
        {money.packages.length > 0 ? (
          <Kind
            title={t`${plural(credits, { one: '# lesson unused in packages', other: '# lessons unused in packages' })}`}
            amount={formatAmount(sum(money.packages), currency, { minor: 'always' })}
          >
            <ul className="list-disc ps-5">
              {money.packages.map((item) => (
                <li key={item.packageId}>
                  {packageLine(item.creditsLeft, item.minutes, item.tutorName)}:{' '}
                  {formatAmount(item.amount, { minor: 'always' })}
                </li>
              ))}
            </ul>
            <p>
              <Trans>
                Ask for a refund, or end the package in your{' '}
                <Link to={paths.wallet} className={linkClass}>
                  wallet
                </Link>{' '}
                to move its unused lessons to your balance.
              </Trans>
            </p>
          </Kind>
        ) : null}
        {money.pendingTopUps.length > 0 ? (
          <Kind
            title={t`Top-ups waiting for the school`}
            amount={formatAmount(sum(money.pendingTopUps), currency, { minor: 'always' })}
          >
            <ul className="list-disc ps-5">
              {money.pendingTopUps.map((topUp) => {
                const reference = topUp.reference;
                return (
                  <li key={topUp.topUpId}>
                    <Trans>
                      Reference <bdi className="font-mono">{reference}</bdi>
                    </Trans>
                    , {topUp.method === 'stripe' ? <Trans>by card</Trans> : <Trans>by transfer</Trans>}:{' '}
                    {formatAmount(topUp.amount, { minor: 'always' })}
                  </li>
                );
              })}
            </ul>
            <p>
              <Trans>
                If you will not pay one, withdraw it in your{' '}
                <Link to={paths.wallet} className={linkClass}>
                  wallet
                </Link>
                . If you sent the money, the school confirms it and then refunds it with the rest.
              </Trans>
            </p>
          </Kind>
        ) : null}
      </ul>
      {asking.problem ? <ErrorMessage>{asking.problem}</ErrorMessage> : null}
      <div className="space-y-2">
        <Button
          busy={asking.busy}
          aria-disabled={asking.busy || undefined}
          onClick={() =>
            void asking.run(() => request(api.account['refund-request'].$post()), {
              reload: false,
              leavesPage: true,
              onDone: (answer) => void navigate(conversationPath(answer.conversationId)),
            })
          }
        >
          <Trans>Ask for a refund</Trans>
        </Button>
        <p className="text-sm text-slate-700">
          <Trans>
            Sends Support a message from you with these amounts, in your conversation with Support, where the
            school answers.
          </Trans>
        </p>
      </div>
    </div>
  );
}
