/**
 * Small pieces every lesson screen shares: a lesson's status and its payment's as badges, and the
 * way into its room (the zone times are in is ./zone-note.tsx, which a tutor's page needs alone).
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import type { LessonStatus } from '../../shared/lessons/lesson-schemas';
import { offersJoin, roomState } from '../../shared/lessons/room-rules';
import { classRoomPath, roomPath } from '../../shared/routes';
import { i18n } from '../lib/i18n';
import { ButtonLink } from './button';

const STATUS: Record<LessonStatus, { label: MessageDescriptor; className: string }> = {
  pending: { label: msg`Request`, className: 'bg-amber-100 text-amber-900' },
  confirmed: { label: msg`Confirmed`, className: 'bg-emerald-100 text-emerald-900' },
  completed: { label: msg`Completed`, className: 'bg-slate-200 text-slate-800' },
  cancelled: { label: msg`Cancelled`, className: 'bg-red-100 text-red-900' },
  declined: { label: msg`Declined`, className: 'bg-red-100 text-red-900' },
  expired: { label: msg`Expired`, className: 'bg-slate-200 text-slate-800' },
  no_show: { label: msg`No-show`, className: 'bg-red-100 text-red-900' },
};

/** The status's name in the page's language. */
export const statusLabel = (status: LessonStatus) => i18n._(STATUS[status].label);

export function StatusBadge({ status }: { status: LessonStatus }) {
  const { t } = useLingui();
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS[status].className}`}
    >
      {t(STATUS[status].label)}
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
  { student: MessageDescriptor; tutor: MessageDescriptor; more: MessageDescriptor | null; className: string }
> = {
  held: {
    student: msg`Paid · held`,
    tutor: msg`Paid · held`,
    more: msg`until the lesson takes place`,
    className: 'bg-sky-100 text-sky-900',
  },
  settled: {
    student: msg`Paid to tutor`,
    tutor: msg`Paid to you`,
    more: null,
    className: 'bg-emerald-100 text-emerald-900',
  },
  released: {
    student: msg`Released`,
    tutor: msg`Released`,
    more: msg`the money went back to the student’s balance`,
    className: 'bg-slate-200 text-slate-800',
  },
  fee: {
    student: msg`Late cancellation fee`,
    tutor: msg`Late cancellation fee`,
    more: msg`part of the price went to the tutor, the rest back to the student’s balance`,
    className: 'bg-amber-100 text-amber-900',
  },
  refunded: {
    student: msg`Refunded`,
    tutor: msg`Refunded`,
    more: msg`to the student by the school`,
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
  const { t } = useLingui();
  if (!payment || payment.status === 'none') return null;
  const shown = PAYMENT[payment.status];
  // Read after the badge's words, as one sentence ("Released: the money went back…").
  const joiner = payment.status === 'released' || payment.status === 'fee' ? ': ' : ' ';
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${shown.className}`}>
      {t(shown[reader])}
      {shown.more ? <span className="sr-only">{`${joiner}${t(shown.more)}`}</span> : null}
    </span>
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
  lesson: {
    id: string;
    start: string;
    end: string;
    status: LessonStatus;
    /** A group class's session (or a seat in one) meets in the class session's room. */
    classSession?: { classId: string; sessionId: string } | null;
  };
  /** Say nothing until the room opens (the dashboards: only what can be done now). */
  onlyWhenOpen?: boolean;
}) {
  const times = { start: Date.parse(lesson.start), end: Date.parse(lesson.end), status: lesson.status };
  const now = Date.now();
  const group = lesson.classSession;
  const path = group ? classRoomPath(group.classId, group.sessionId) : roomPath(lesson.id);
  if (offersJoin(times, now))
    return (
      <ButtonLink to={path} className="me-3 mt-2">
        <Trans>Join</Trans>
      </ButtonLink>
    );
  if (onlyWhenOpen || lesson.status !== 'confirmed' || roomState(times, now) !== 'not-open') return null;
  return (
    <Link to={path} className="me-3 mt-1 inline-block text-sm font-semibold text-brand-700 underline">
      {group ? <Trans>Class room</Trans> : <Trans>Lesson room</Trans>}
    </Link>
  );
}
