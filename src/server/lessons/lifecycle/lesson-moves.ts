/**
 * A lesson's life as one table: the moves it may make, each from the stored statuses it may start
 * in and to the status it ends in ('same' for a move that keeps it). Every function that changes a
 * lesson's status or its money (the other files of this folder) asks this table first; a move the
 * table does not hold is refused with 409. docs/architecture.md ("A lesson's life") shows it.
 *
 * 'new' is a lesson not yet booked. The table is about stored statuses: a request past its
 * deadline is still stored pending until the minute job expires it, and each move also checks the
 * status as it reads now where that matters (a lesson cannot be cancelled once it has expired).
 */
import type { LessonStatus } from '../../../shared/lessons/lesson-schemas';
import { ApiError, type ErrorText } from '../../http/api-error';

export type LessonState = 'new' | LessonStatus;

interface Move {
  from: readonly LessonState[];
  to: LessonStatus | 'same';
  /** What the move does, for a refusal: "This lesson is {status}, so it cannot be {does}". */
  does: string;
}

const PLANNED = ['pending', 'confirmed'] as const;
const EVERY_STATUS = [
  'pending',
  'confirmed',
  'declined',
  'expired',
  'cancelled',
  'completed',
  'no_show',
] as const satisfies readonly LessonStatus[];

export const LESSON_MOVES = {
  /** A student books a tutor who answers requests: it waits for the tutor, its price held. */
  request: { from: ['new'], to: 'pending', does: 'requested' },
  /** A student books a tutor who takes bookings at once: confirmed, its price held. */
  bookInstantly: { from: ['new'], to: 'confirmed', does: 'booked' },
  /** The tutor accepts a request. */
  confirm: { from: ['pending'], to: 'confirmed', does: 'confirmed' },
  /** The tutor declines a request: its price goes back. */
  decline: { from: ['pending'], to: 'declined', does: 'declined' },
  /** A request's answer deadline passes (the minute job, or a booking that finds it): its price goes back. */
  expire: { from: ['pending'], to: 'expired', does: 'expired' },
  /** The student cancels before the start: free, or with the late fee inside the lesson's window. */
  cancelByStudent: { from: PLANNED, to: 'cancelled', does: 'cancelled' },
  /** The tutor cancels before the start: the price goes back in full. */
  cancelByTutor: { from: PLANNED, to: 'cancelled', does: 'cancelled' },
  /** An admin cancels (or refunds) a lesson before its start: the price goes back in full. */
  cancelByAdmin: { from: PLANNED, to: 'cancelled', does: 'cancelled' },
  /** One of its people is suspended: the price goes back in full. */
  cancelForSuspension: { from: PLANNED, to: 'cancelled', does: 'cancelled' },
  /** One of its people deletes their account: the price goes back in full. */
  cancelForDeletion: { from: PLANNED, to: 'cancelled', does: 'cancelled' },
  /** The student (or an admin) moves it to another time: same status, same hold. */
  move: { from: PLANNED, to: 'same', does: 'moved' },
  /** The student accepts the tutor's proposed time: moved, same status, same hold. */
  acceptProposal: { from: PLANNED, to: 'same', does: 'moved' },
  /** A confirmed lesson's end passes: its hold is settled to the tutor and the school. */
  complete: { from: ['confirmed'], to: 'completed', does: 'completed' },
  /** The tutor marks a student who never came: paid as a lesson that took place. */
  markNoShow: { from: ['confirmed', 'completed'], to: 'no_show', does: 'marked a no-show' },
  /**
   * An admin gives back what the lesson's money did, whatever its status: the ledger decides
   * what there is to give back (a planned lesson is then cancelled, by cancelByAdmin).
   */
  refund: { from: EVERY_STATUS, to: 'same', does: 'refunded' },
} as const satisfies Record<string, Move>;

export type LessonMoveName = keyof typeof LESSON_MOVES;

export const LESSON_STATES: readonly LessonState[] = ['new', ...EVERY_STATUS];

export const moveMessages = {
  notAllowed: (from: LessonState, move: LessonMoveName): ErrorText => ({
    text: /*i18n*/ 'This lesson is {state, select, new {not booked} pending {a request} confirmed {confirmed} declined {declined} expired {expired} cancelled {cancelled} completed {completed} no_show {a no-show} other {{state}}}, so it cannot be {does, select, requested {requested} booked {booked} confirmed {confirmed} declined {declined} expired {expired} cancelled {cancelled} moved {moved} completed {completed} refunded {refunded} other {marked a no-show}}.',
    values: { state: from, does: LESSON_MOVES[move].does },
  }),
} as const;

/** Whether the table lets `move` start from `from`. */
export const moveAllowed = (move: LessonMoveName, from: LessonState) =>
  (LESSON_MOVES[move].from as readonly LessonState[]).includes(from);

/** The status `move` leaves a lesson in that was `from`. */
export function moveTarget(move: LessonMoveName, from: LessonState): LessonState {
  const to = LESSON_MOVES[move].to;
  return to === 'same' ? from : to;
}

/** Refuses, with 409 MOVE_NOT_ALLOWED, a move the table does not hold from `from`. */
export function checkMove(move: LessonMoveName, from: LessonState): void {
  if (!moveAllowed(move, from))
    throw new ApiError(409, moveMessages.notAllowed(from, move), 'MOVE_NOT_ALLOWED');
}

/** The stored statuses a move starts from, for a query that picks the lessons it moves. */
export const storedFrom = (move: LessonMoveName) =>
  LESSON_MOVES[move].from.filter((state): state is LessonStatus => state !== 'new');
