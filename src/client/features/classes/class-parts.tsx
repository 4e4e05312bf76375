/**
 * What the class screens share: a class's status as a badge, its seats as a person reads them,
 * its price a session, and its next session. Plain Intl (no Temporal), so the public pages stay light.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { formatAmount } from '../../../shared/amounts';
import type { ClassStatus } from '../../../shared/classes/class-constants';
import type { ClassSession, ClassView } from './class-api';

const STATUS: Record<ClassStatus, { label: MessageDescriptor; className: string }> = {
  scheduled: { label: msg`Scheduled`, className: 'bg-sky-100 text-sky-900' },
  held: { label: msg`Going ahead`, className: 'bg-emerald-100 text-emerald-900' },
  cancelled: { label: msg`Cancelled`, className: 'bg-red-100 text-red-900' },
  ended: { label: msg`Ended`, className: 'bg-slate-200 text-slate-800' },
};

export function ClassStatusBadge({ status }: { status: ClassStatus }) {
  const { t } = useLingui();
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS[status].className}`}
    >
      {t(STATUS[status].label)}
    </span>
  );
}

const SESSION_STATUS: Record<ClassSession['status'], MessageDescriptor> = {
  scheduled: msg`Scheduled`,
  cancelled: msg`Cancelled`,
  ended: msg`Took place`,
};

export function SessionStatus({ status }: { status: ClassSession['status'] }) {
  const { t } = useLingui();
  const tone =
    status === 'cancelled'
      ? 'bg-red-100 text-red-900'
      : status === 'ended'
        ? 'bg-slate-200 text-slate-800'
        : 'bg-sky-100 text-sky-900';
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}>
      {t(SESSION_STATUS[status])}
    </span>
  );
}

/** "2 of 5 seats left", or "Full: join the waitlist". */
export function SeatsLeft({
  view,
  className = '',
}: {
  view: Pick<ClassView, 'seats' | 'seatsTaken'>;
  className?: string;
}) {
  const left = Math.max(0, view.seats - view.seatsTaken);
  const seats = view.seats;
  return (
    <span className={`${className} ${left === 0 ? 'text-amber-900' : 'text-emerald-900'}`}>
      {left === 0 ? (
        <Trans>Full: join the waitlist</Trans>
      ) : (
        <Plural value={left} one={`# of ${seats} seats left`} other={`# of ${seats} seats left`} />
      )}
    </span>
  );
}

/** "Free", or "$12 a session". */
export function PricePerSession({ price }: { price: ClassView['price'] }) {
  if (price.amountCents === 0) return <Trans>Free</Trans>;
  const amount = formatAmount(price);
  return <Trans>{amount} a session</Trans>;
}

/** The sessions still to come (not cancelled, not ended), soonest first. */
export const sessionsAhead = (view: Pick<ClassView, 'sessions'>, now = Date.now()) =>
  view.sessions.filter((session) => session.status !== 'cancelled' && Date.parse(session.start) > now);

/** The session to come next (or under way), if any. */
export const nextSession = (view: Pick<ClassView, 'sessions'>) =>
  view.sessions.find((session) => session.status === 'scheduled');
