/**
 * A student's lesson packages on /wallet: each with its credits left, and "End package", which asks
 * first and says how much comes back to the balance (the unused lessons at the package's price).
 */

import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/messages';
import { useApiAction } from '../../lib/api-action';
import { translated } from '../../lib/i18n';
import { endPackage, type LessonPackage } from '../../lib/lesson-packages';
import { dateTimeLabel } from '../../lib/time-labels';
import { refreshWalletSummary } from '../../lib/wallet-summary';
import { useAuth } from '../auth';
import { isolate } from './isolate';

/** "5 lessons of 60 minutes with Priya Raman", in the page's language (the memo of its purchase says the same). */
const nameOf = (item: LessonPackage) =>
  translated(
    /*i18n*/ '{lessons, plural, one {# lesson} other {# lessons}} of {minutes} minutes with {tutor}',
    {
      lessons: item.lessons,
      minutes: item.minutes,
      tutor: item.tutor.displayName,
    },
  );

export function WalletPackages({ packages, timeZone }: { packages: LessonPackage[]; timeZone: string }) {
  const auth = useAuth();
  const [ending, setEnding] = useState<LessonPackage | null>(null);
  const { t } = useLingui();
  const action = useApiAction(t`The package could not be ended.`);
  if (packages.length === 0)
    return (
      <p className="text-sm text-slate-700">
        <Trans>
          No packages yet. Tutors who offer them show them on their page, beside{' '}
          <Link to={paths.tutors} className="font-semibold text-brand-700 underline">
            booking
          </Link>
          .
        </Trans>
      </p>
    );
  const returned = ending ? ending.creditsLeft * ending.perLessonCents : 0;
  const endingText = (count: number, amount: string) =>
    t`${plural(count, {
      one: `# unused lesson returns ${amount} to your balance. Lessons already booked with it stay booked.`,
      other: `# unused lessons return ${amount} to your balance. Lessons already booked with it stay booked.`,
    })}`;
  const close = () => {
    setEnding(null);
    action.setProblem(null);
  };
  return (
    <>
      <ul className="space-y-3">
        {packages.map((item) => {
          const name = nameOf(item);
          const left = item.creditsLeft;
          const lessons = item.lessons;
          const held = item.creditsHeld;
          const ended = dateTimeLabel(Date.parse(item.endedAt ?? item.boughtAt), timeZone);
          const price = formatAmount(item.perLessonCents, item.currency, { minor: 'always' });
          return (
            <li key={item.id} className="rounded-xl bg-slate-50 p-4">
              <p className="font-semibold text-slate-900">{name}</p>
              <p className="mt-1 text-sm text-slate-800">
                {item.status === 'active'
                  ? t`${plural(lessons, { one: `${left} of # credit left`, other: `${left} of # credits left` })}`
                  : t`Ended ${ended}`}
                {held > 0 ? ` · ${t`${plural(held, { one: '# booked', other: '# booked' })}`}` : ''} ·{' '}
                <Trans>
                  <bdi>{price}</bdi> a lesson
                </Trans>
              </p>
              {item.status === 'active' ? (
                <Button variant="secondary" className="mt-3" onClick={() => setEnding(item)}>
                  <Trans>
                    End package<span className="sr-only"> of {name}</span>
                  </Trans>
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
      <Dialog
        open={ending !== null}
        onClose={close}
        alert
        title={t`End this package?`}
        description={
          ending
            ? endingText(
                ending.creditsLeft,
                isolate(formatAmount(returned, ending.currency, { minor: 'always' })),
              )
            : undefined
        }
      >
        {ending ? (
          <div className="mt-4 space-y-3">
            {action.problem ? <ErrorMessage>{action.problem}</ErrorMessage> : null}
            <div className="flex flex-col gap-2 sm:flex-row-reverse">
              <Button
                variant="danger"
                busy={action.busy}
                disabled={action.busy}
                onClick={() =>
                  action.run(() => endPackage(ending.id), {
                    onDone: () => {
                      setEnding(null);
                      if (auth.user) void refreshWalletSummary(auth.user.id);
                    },
                  })
                }
              >
                <Trans>End package</Trans>
              </Button>
              <Button variant="secondary" onClick={close}>
                <Trans>Keep it</Trans>
              </Button>
            </div>
          </div>
        ) : null}
      </Dialog>
    </>
  );
}
