/**
 * A lesson as it is stored and as the API gives it, and how a stored status reads at a given
 * moment: statuses are stored as they were last written, and read as they are now. A pending
 * request whose deadline has passed reads `expired`, a confirmed lesson whose end has passed reads
 * `completed`, before the minute job (lesson-jobs.ts) writes it.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { feeCents, feeStartsAt, freeUntil, studentTerms } from '../../shared/lessons/cancellation-policy';
import type { LessonStatus } from '../../shared/lessons/lesson-schemas';
import { isPlanned, readStatus } from '../../shared/lessons/lesson-states';
import type { DB, LessonPaymentStatus } from '../db/schema';
import type { ErrorText } from '../http/api-error';
import { tookPlaceBy } from './lifecycle/lesson-states-sql';

export type Db = Kysely<DB> | Transaction<DB>;

/**
 * A lesson that took place by `now`: completed, or confirmed with its end passed (the minute job
 * marks those completed, but a reader must not wait for it). `table` names the lessons' alias.
 */
export const tookPlace = (now: number, table?: string) => tookPlaceBy(now, table);

export const lessonMessages = {
  notFound: /*i18n*/ 'This lesson does not exist',
  tutorNotFound: /*i18n*/ 'This tutor profile does not exist or is not public',
  slotTaken: /*i18n*/ 'This time is no longer available. Please choose another time.',
  started: /*i18n*/ 'This lesson has already started, so it can no longer be cancelled.',
  moveCutoff: (hours: number): ErrorText => ({
    text: /*i18n*/ 'This lesson can only be moved up to {hours, plural, one {# hour} other {# hours}} before it starts. You may still cancel it.',
    values: { hours },
  }),
  lateReason:
    /*i18n*/ 'Please give a reason: the lesson starts within your cancellation window, and your student will read it.',
  studentsBook: /*i18n*/ 'Only students can book lessons',
  tutorsOffer: /*i18n*/ 'Only tutors have availability',
  tutorAnswers: /*i18n*/ 'Only the tutor can accept or decline a request',
  studentMoves: /*i18n*/ 'Only the student can reschedule a lesson',
  notPending: /*i18n*/ 'This request is no longer waiting for an answer',
  requestExpired: /*i18n*/ 'This request has expired',
  notActive: /*i18n*/ 'This lesson is no longer planned',
  sameTime: /*i18n*/ 'The lesson already starts at that time',
  tutorProposes: /*i18n*/ 'Only the tutor can propose a new time',
  studentAnswersProposal: /*i18n*/ 'Only the student can accept or decline a proposed time',
  noProposal: /*i18n*/ 'There is no proposed time waiting for an answer',
  trialNotOffered: /*i18n*/ 'This tutor does not offer a trial lesson.',
  trialTaken:
    /*i18n*/ 'A trial lesson is only for your first lesson with a tutor, and you have already booked or had a lesson with this tutor.',
} as const;

/**
 * Who called a lesson off: one of its two people, or Tutorlane itself when the other person's
 * account was suspended.
 */
/**
 * What is stored as the reason when Tutorlane calls a lesson off because one of its people can no
 * longer take part: never shown, so the other person is not told which of the two it was.
 */
export const ACCOUNT_CLOSED_REASONS = { suspended: 'account suspended', deleted: 'account deleted' } as const;

export type CancelledBy = 'tutor' | 'student' | 'tutorlane';

/**
 * The lesson's cancellation policy, fixed when it was booked, and its cancellation once there is
 * one: `by`, `at` and `reason` are null until it is cancelled.
 */
export interface Cancellation {
  /** ISO 8601 UTC: until then the student cancels or moves it for free. */
  freeUntil: string;
  /** What cancelling after `freeUntil` costs the student, in percent of the price. */
  feePercent: number;
  /**
   * What cancelling now would cost the student (0 when free, or when nothing is held); once
   * cancelled, the fee actually charged.
   */
  fee: { amountCents: number; currency: string };
  /**
   * While it is planned and its price held: from when cancelling will cost the student, and what
   * (the lesson just booked inside its window is free for 15 minutes, so "free" has an end). Null
   * when it will cost nothing before the start, or once it is no longer planned.
   */
  lateFee: { from: string; fee: { amountCents: number; currency: string } } | null;
  by: CancelledBy | null;
  /** ISO 8601 UTC. */
  at: string | null;
  /** The words the person gave, or null (always null when Tutorlane cancelled). */
  reason: string | null;
}

/** A new time the tutor proposed, waiting for the student's answer. */
export interface Proposal {
  /** ISO 8601 UTC. */
  start: string;
  end: string;
  /** The tutor's words, or an empty string. */
  note: string;
  proposedAt: string;
}

/** A lesson as the API gives it (docs/api.md). All instants are ISO 8601 UTC. */
export interface LessonView {
  id: string;
  start: string;
  end: string;
  minutes: number;
  status: LessonStatus;
  subject: string;
  note: string;
  /** Booked as the student's one trial lesson with this tutor. */
  trial: boolean;
  price: { amountCents: number; currency: string };
  tutor: { id: string; displayName: string };
  student: { id: string; displayName: string };
  /**
   * Until when the student may cancel or move it for free (`cancellation.freeUntil`); null once
   * it is no longer planned. Cancelling stays possible after it, until the start.
   */
  changeableUntil: string | null;
  /** Its cancellation policy, and who cancelled it, when and why. */
  cancellation: Cancellation;
  /**
   * What its price did: held from the student's balance, settled to the tutor, released back,
   * refunded by an admin, or none (booked while payments were off, or free).
   */
  payment: { status: LessonPaymentStatus; amountCents: number; currency: string };
  /** The student's lesson package that paid for it, or null when the balance did (or nothing). */
  packageId: string | null;
  /** The tutor's open proposal of a new time; null when none is open, and always from its start. */
  proposal: Proposal | null;
  /** The weekly series it was booked in (docs/api.md, "Weekly series"); null for a single booking. */
  seriesId: string | null;
  /** The group class whose session this is a seat in (docs/api.md, "Group classes"); null for a one-to-one lesson. */
  classSession: { classId: string; sessionId: string; title: string } | null;
  /**
   * A parent booked it and pays for it (docs/api.md, "Families"): the tutor's schedule says so.
   * Only whether: never who the parent is.
   */
  bookedByParent: boolean;
}

export type LessonRow = Pick<
  Selectable<DB['lessons']>,
  | 'id'
  | 'tutor_id'
  | 'student_id'
  | 'subject'
  | 'note'
  | 'starts_at'
  | 'ends_at'
  | 'minutes'
  | 'price_cents'
  | 'currency'
  | 'status'
  | 'expires_at'
  | 'sequence'
  | 'cancelled_by'
  | 'cancel_reason'
  | 'updated_at'
  | 'payment_status'
  | 'trial'
  | 'proposed_start'
  | 'proposed_end'
  | 'proposal_note'
  | 'proposed_at'
  | 'series_id'
  | 'created_at'
  | 'cancel_window_hours'
  | 'late_fee_percent'
  | 'class_session_id'
  | 'cancel_fee_cents'
  | 'cancelled_late'
  | 'package_id'
  | 'payer_id'
>;

/** What a stored status reads as at `now`. */
export const statusAt = (row: Pick<LessonRow, 'status' | 'expires_at' | 'ends_at'>, now: number) =>
  readStatus(row.status, row, now);

export { isPlanned };

/**
 * A lesson's policy and cancellation. Nothing changes a lesson once it is cancelled, so the last
 * update is the moment it was.
 */
function cancellationOf(row: LessonRow, status: LessonStatus, now: number): Cancellation {
  const policy = {
    freeUntil: new Date(freeUntil(row.starts_at.getTime(), row.cancel_window_hours)).toISOString(),
    feePercent: row.late_fee_percent,
  };
  const money = (amountCents: number) => ({ amountCents, currency: row.currency });
  if (row.status !== 'cancelled') {
    // Only what is held can be charged: a lesson booked while payments were off costs nothing.
    const rules = lessonPolicyOf(row);
    const chargeable = isPlanned(status) && row.payment_status === 'held';
    const fee = chargeable ? studentTerms(rules, now).feeCents : 0;
    const from = chargeable ? feeStartsAt(rules) : null;
    const lateFee =
      from === null
        ? null
        : { from: new Date(from).toISOString(), fee: money(feeCents(rules.priceCents, rules.feePercent)) };
    return { ...policy, fee: money(fee), lateFee, by: null, at: null, reason: null };
  }
  const by: CancelledBy =
    row.cancelled_by === null ? 'tutorlane' : row.cancelled_by === row.tutor_id ? 'tutor' : 'student';
  // The school's own cancellations carry the admin's words, which both people were mailed; one
  // forced by an account's suspension or deletion says nothing of which it was.
  const accountClosed = (Object.values(ACCOUNT_CLOSED_REASONS) as (string | null)[]).includes(
    row.cancel_reason,
  );
  return {
    ...policy,
    fee: money(row.cancel_fee_cents ?? 0),
    lateFee: null,
    by,
    at: row.updated_at.toISOString(),
    reason: by === 'tutorlane' && accountClosed ? null : row.cancel_reason,
  };
}

/** What the cancellation rules (src/shared/lessons/cancellation-policy.ts) read from a lesson. */
export function lessonPolicyOf(
  row: Pick<
    LessonRow,
    'cancel_window_hours' | 'late_fee_percent' | 'price_cents' | 'created_at' | 'starts_at' | 'status'
  >,
) {
  return {
    windowHours: row.cancel_window_hours,
    feePercent: row.late_fee_percent,
    priceCents: row.price_cents,
    bookedAt: row.created_at.getTime(),
    start: row.starts_at.getTime(),
    pending: row.status === 'pending',
  };
}

/**
 * The open proposal, as it reads at `now`: one only stands while the lesson is planned and has
 * not started, so an unanswered one lapses at the start without anything clearing it.
 */
export function proposalAt(
  row: Pick<
    LessonRow,
    | 'status'
    | 'expires_at'
    | 'starts_at'
    | 'ends_at'
    | 'proposed_start'
    | 'proposed_end'
    | 'proposal_note'
    | 'proposed_at'
  >,
  now: number,
): Proposal | null {
  if (!row.proposed_start || !row.proposed_end || !row.proposed_at) return null;
  if (!isPlanned(statusAt(row, now)) || row.starts_at.getTime() <= now) return null;
  return {
    start: row.proposed_start.toISOString(),
    end: row.proposed_end.toISOString(),
    note: row.proposal_note ?? '',
    proposedAt: row.proposed_at.toISOString(),
  };
}

/** The columns that hold no proposal: set with every change that ends one. */
export const noProposal = {
  proposed_start: null,
  proposed_end: null,
  proposal_note: null,
  proposed_at: null,
} as const;

export function toView(
  row: LessonRow & {
    tutor_name: string;
    student_name: string;
    class_id?: string | null;
    class_title?: string | null;
  },
  now: number,
): LessonView {
  const status = statusAt(row, now);
  return {
    id: row.id,
    start: row.starts_at.toISOString(),
    end: row.ends_at.toISOString(),
    minutes: row.minutes,
    status,
    subject: row.subject,
    note: row.note,
    trial: row.trial,
    price: { amountCents: row.price_cents, currency: row.currency },
    tutor: { id: row.tutor_id, displayName: row.tutor_name },
    student: { id: row.student_id, displayName: row.student_name },
    changeableUntil: isPlanned(status)
      ? new Date(freeUntil(row.starts_at.getTime(), row.cancel_window_hours)).toISOString()
      : null,
    cancellation: cancellationOf(row, status, now),
    payment: { status: row.payment_status, amountCents: row.price_cents, currency: row.currency },
    packageId: row.package_id,
    proposal: proposalAt(row, now),
    seriesId: row.series_id,
    classSession:
      row.class_session_id === null
        ? null
        : {
            classId: row.class_id ?? '',
            sessionId: row.class_session_id,
            title: row.class_title ?? row.subject,
          },
    bookedByParent: row.payer_id !== null,
  };
}

/** The columns of a stored lesson, as a LessonRow holds them. */
export const lessonRowColumns = [
  'id',
  'tutor_id',
  'student_id',
  'subject',
  'note',
  'starts_at',
  'ends_at',
  'minutes',
  'price_cents',
  'currency',
  'status',
  'expires_at',
  'sequence',
  'cancelled_by',
  'cancel_reason',
  'updated_at',
  'payment_status',
  'trial',
  'proposed_start',
  'proposed_end',
  'proposal_note',
  'proposed_at',
  'series_id',
  'created_at',
  'cancel_window_hours',
  'late_fee_percent',
  'cancel_fee_cents',
  'cancelled_late',
  'package_id',
  'class_session_id',
  'payer_id',
] as const;
