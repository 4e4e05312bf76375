/**
 * Small pieces every lesson screen shares: a lesson's status and its payment's as badges, and the
 * zone times are in.
 */
import { Link } from 'react-router';
import type { LessonStatus } from '../../shared/lessons/lesson-schemas';
import { offersJoin, roomState } from '../../shared/lessons/room-rules';
import { roomPath } from '../../shared/routes';
import { describeTimeZone } from '../lib/time-zones';
import { ButtonLink } from './button';

const STATUS: Record<LessonStatus, { label: string; className: string }> = {
  pending: { label: 'Request', className: 'bg-amber-100 text-amber-900' },
  confirmed: { label: 'Confirmed', className: 'bg-emerald-100 text-emerald-900' },
  completed: { label: 'Completed', className: 'bg-slate-200 text-slate-800' },
  cancelled: { label: 'Cancelled', className: 'bg-red-100 text-red-900' },
  declined: { label: 'Declined', className: 'bg-red-100 text-red-900' },
  expired: { label: 'Expired', className: 'bg-slate-200 text-slate-800' },
  no_show: { label: 'No-show', className: 'bg-red-100 text-red-900' },
};

export const statusLabel = (status: LessonStatus) => STATUS[status].label;

export function StatusBadge({ status }: { status: LessonStatus }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS[status].className}`}
    >
      {STATUS[status].label}
    </span>
  );
}

/** Where a lesson's money is, while students pay through Tutorlane. */
export interface LessonPayment {
  status: 'held' | 'settled' | 'released' | 'refunded' | 'fee' | 'none';
  amountCents: number;
  currency: string;
}

const PAYMENT: Record<
  Exclude<LessonPayment['status'], 'none'>,
  { student: string; tutor: string; more: string; className: string }
> = {
  held: {
    student: 'Paid · held',
    tutor: 'Paid · held',
    more: ' until the lesson takes place',
    className: 'bg-sky-100 text-sky-900',
  },
  settled: {
    student: 'Paid to tutor',
    tutor: 'Paid to you',
    more: '',
    className: 'bg-emerald-100 text-emerald-900',
  },
  released: {
    student: 'Released',
    tutor: 'Released',
    more: ': the money went back to the student’s balance',
    className: 'bg-slate-200 text-slate-800',
  },
  fee: {
    student: 'Late cancellation fee',
    tutor: 'Late cancellation fee',
    more: ': part of the price went to the tutor, the rest back to the student’s balance',
    className: 'bg-amber-100 text-amber-900',
  },
  refunded: {
    student: 'Refunded',
    tutor: 'Refunded',
    more: ' to the student by the school',
    className: 'bg-amber-100 text-amber-900',
  },
};

/** "Paid · held", "Paid to tutor", "Released", "Late cancellation fee", "Refunded"; nothing for a lesson without a payment. */
export function PaymentBadge({
  payment,
  reader,
}: {
  payment: LessonPayment | undefined;
  /** Whose schedule it is: a settled lesson was paid to the tutor, or to "you". */
  reader: 'student' | 'tutor';
}) {
  if (!payment || payment.status === 'none') return null;
  const shown = PAYMENT[payment.status];
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${shown.className}`}>
      {shown[reader]}
      {shown.more ? <span className="sr-only">{shown.more}</span> : null}
    </span>
  );
}

/** "Times are in Central European Standard Time (GMT+1) · Madrid." */
export function ZoneNote({ timeZone, className = '' }: { timeZone: string; className?: string }) {
  return (
    <p className={`text-sm text-slate-600 ${className}`}>
      Times are in <span className="font-medium text-slate-800">{describeTimeZone(timeZone)}</span>.
    </p>
  );
}

/**
 * The way into a lesson's room: "Join" while it is open (from 10 minutes before the start) and
 * the lesson has not ended, a quiet link to it before; nothing once it has ended, or for a
 * lesson without a room.
 */
export function RoomLink({
  lesson,
  onlyWhenOpen = false,
}: {
  lesson: { id: string; start: string; end: string; status: LessonStatus };
  /** Say nothing until the room opens (the dashboards: only what can be done now). */
  onlyWhenOpen?: boolean;
}) {
  const times = { start: Date.parse(lesson.start), end: Date.parse(lesson.end), status: lesson.status };
  const now = Date.now();
  if (offersJoin(times, now))
    return (
      <ButtonLink to={roomPath(lesson.id)} className="me-3 mt-2">
        Join
      </ButtonLink>
    );
  if (onlyWhenOpen || lesson.status !== 'confirmed' || roomState(times, now) !== 'not-open') return null;
  return (
    <Link
      to={roomPath(lesson.id)}
      className="me-3 mt-1 inline-block text-sm font-semibold text-brand-700 underline"
    >
      Lesson room
    </Link>
  );
}
