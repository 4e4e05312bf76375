/**
 * A tutor's cancellation policy and what it means for one lesson at one moment: plain functions,
 * the same on the server (which decides and charges) and in the browser (which warns before a
 * student confirms). The policy is fixed on each lesson when it is booked; a tutor's later change
 * only applies to later bookings.
 *
 * - Free changes end `windowHours` before the start ("free until"). Before then the student may
 *   cancel or move the lesson for nothing.
 * - Inside the window the student may still cancel until the start, paying `feePercent` of the
 *   price (rounded half up to a whole minor unit), but may not move it.
 * - Cancelled within GRACE_MS of being booked, or while still a request the tutor has not
 *   accepted, it is free even inside the window: the student cannot have known, or the tutor has
 *   not committed.
 * - The tutor may cancel until the start, the student's money going back in full; inside the
 *   window they must give a reason, and it counts as a late cancellation.
 * - Nobody cancels a lesson that has started.
 */
import { english, type Say } from '../say';

const HOUR = 3_600_000;

/** The windows a tutor may choose, in hours before the lesson. */
export const CANCELLATION_WINDOW_HOURS = [0, 2, 4, 12, 24, 48] as const;
export type CancellationWindowHours = (typeof CANCELLATION_WINDOW_HOURS)[number];

/** The late cancellation fees a tutor may choose, in percent of the lesson's price. */
export const LATE_CANCEL_FEE_PERCENTS = [0, 50, 100] as const;
export type LateCancelFeePercent = (typeof LATE_CANCEL_FEE_PERCENTS)[number];

export interface CancellationPolicy {
  cancellationWindowHours: number;
  lateCancelFeePercent: number;
}

/** A tutor who never chose keeps the rule every lesson had before policies: 24 hours, the whole price. */
export const DEFAULT_CANCELLATION_POLICY = {
  cancellationWindowHours: 24,
  lateCancelFeePercent: 100,
} as const satisfies CancellationPolicy;

/** A cancellation this soon after booking is free: a slip of the finger, or a change of mind. */
export const GRACE_MS = 15 * 60_000;

/** What is fixed on a lesson, and what the rules read from it. All instants in epoch ms. */
export interface PolicyLesson {
  /** The lesson's window in hours, as it was when booked. */
  windowHours: number;
  /** The fee in percent, as it was when booked. */
  feePercent: number;
  priceCents: number;
  bookedAt: number;
  start: number;
  /** A request the tutor has not accepted yet. */
  pending: boolean;
}

/** When free changes end for a lesson starting at `start`. */
export const freeUntil = (start: number, windowHours: number) => start - windowHours * HOUR;

/** `priceCents × percent / 100`, rounded half up to a whole minor unit. */
export function feeCents(priceCents: number, percent: number): number {
  return Math.floor((priceCents * percent + 50) / 100);
}

export interface StudentCancelTerms {
  /** Whether the student may cancel now at all (only before the start). */
  canCancel: boolean;
  /** What cancelling now costs them, in minor units (0 when free). */
  feeCents: number;
  /** Whether they may move it now (only before free changes end). */
  canMove: boolean;
}

/**
 * From when cancelling costs the student: the later of the window's start and the end of the grace
 * after booking. Null when it costs nothing until the start: no fee in the policy, a window that
 * (with the grace) reaches the start, or a request the tutor has not accepted (free for as long as
 * it stays one).
 */
export function feeStartsAt(lesson: PolicyLesson): number | null {
  if (lesson.pending || feeCents(lesson.priceCents, lesson.feePercent) === 0) return null;
  const from = Math.max(freeUntil(lesson.start, lesson.windowHours), lesson.bookedAt + GRACE_MS);
  return from < lesson.start ? from : null;
}

/** What the student may do with the lesson at `now`, and what cancelling costs. */
export function studentTerms(lesson: PolicyLesson, now: number): StudentCancelTerms {
  if (now >= lesson.start) return { canCancel: false, feeCents: 0, canMove: false };
  const from = feeStartsAt(lesson);
  return {
    canCancel: true,
    feeCents: from === null || now < from ? 0 : feeCents(lesson.priceCents, lesson.feePercent),
    canMove: now < freeUntil(lesson.start, lesson.windowHours),
  };
}

export interface TutorCancelTerms {
  canCancel: boolean;
  /** Inside the window: a reason is needed, and admins see it counted. */
  late: boolean;
}

/**
 * Whether the tutor may cancel at `now`, and whether it would be a late cancellation: calling off
 * a request they never accepted is no broken promise, so it is never late.
 */
export function tutorTerms(
  lesson: Pick<PolicyLesson, 'windowHours' | 'start' | 'pending'>,
  now: number,
): TutorCancelTerms {
  if (now >= lesson.start) return { canCancel: false, late: false };
  return { canCancel: true, late: !lesson.pending && now >= freeUntil(lesson.start, lesson.windowHours) };
}

/** The policy in one sentence, as a tutor's page and the booking box state it (`say`: ../say.ts). */
export function policySentence(policy: CancellationPolicy, say: Say = english): string {
  const { cancellationWindowHours: hours, lateCancelFeePercent: percent } = policy;
  if (hours === 0) return say(/*i18n*/ 'Free cancellation and moves until the lesson starts.');
  if (percent === 0)
    return say(
      /*i18n*/ 'Free cancellation until the lesson starts; moves until {hours, plural, one {# hour} other {# hours}} before it.',
      { hours },
    );
  return say(
    /*i18n*/ 'Free cancellation until {hours, plural, one {# hour} other {# hours}} before the lesson; after that, {percent}% of the price.',
    { hours, percent },
  );
}
