/**
 * A student's lesson packages on /wallet: each with its credits left, and "End package", which asks
 * first and says how much comes back to the balance (the unused lessons at the package's price).
 */

import { useState } from 'react';
import { Link } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/messages';
import { useApiAction } from '../../lib/api-action';
import { endPackage, type LessonPackage } from '../../lib/lesson-packages';
import { dateTimeLabel } from '../../lib/time-labels';
import { refreshWalletSummary } from '../../lib/wallet-summary';
import { useAuth } from '../auth';

const nameOf = (item: LessonPackage) =>
  `${item.lessons} lessons of ${item.minutes} minutes with ${item.tutor.displayName}`;

export function WalletPackages({ packages, timeZone }: { packages: LessonPackage[]; timeZone: string }) {
  const auth = useAuth();
  const [ending, setEnding] = useState<LessonPackage | null>(null);
  const action = useApiAction('The package could not be ended.');
  if (packages.length === 0)
    return (
      <p className="text-sm text-slate-700">
        No packages yet. Tutors who offer them show them on their page, beside{' '}
        <Link to={paths.tutors} className="font-semibold text-brand-700 underline">
          booking
        </Link>
        .
      </p>
    );
  const returned = ending ? ending.creditsLeft * ending.perLessonCents : 0;
  const close = () => {
    setEnding(null);
    action.setProblem(null);
  };
  return (
    <>
      <ul className="space-y-3">
        {packages.map((item) => (
          <li key={item.id} className="rounded-xl bg-slate-50 p-4">
            <p className="font-semibold text-slate-900">{nameOf(item)}</p>
            <p className="mt-1 text-sm text-slate-800">
              {item.status === 'active'
                ? `${item.creditsLeft} of ${item.lessons} credits left`
                : `Ended ${dateTimeLabel(Date.parse(item.endedAt ?? item.boughtAt), timeZone)}`}
              {item.creditsHeld > 0 ? ` · ${item.creditsHeld} booked` : ''} ·{' '}
              {formatAmount(item.perLessonCents, item.currency, { minor: 'always' })} a lesson
            </p>
            {item.status === 'active' ? (
              <Button variant="secondary" className="mt-3" onClick={() => setEnding(item)}>
                End package<span className="sr-only"> of {nameOf(item)}</span>
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <Dialog
        open={ending !== null}
        onClose={close}
        alert
        title="End this package?"
        description={
          ending
            ? `${ending.creditsLeft} unused ${ending.creditsLeft === 1 ? 'lesson returns' : 'lessons return'} ${formatAmount(returned, ending.currency, { minor: 'always' })} to your balance. Lessons already booked with it stay booked.`
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
                End package
              </Button>
              <Button variant="secondary" onClick={close}>
                Keep it
              </Button>
            </div>
          </div>
        ) : null}
      </Dialog>
    </>
  );
}
