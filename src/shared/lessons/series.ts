/**
 * Weekly series: the same lesson every week for a number of weeks, at the same wall-clock time in
 * the tutor's zone (their availability is written in it, so a change of clocks never moves the
 * lesson for them; a student in another zone may see it move by an hour). Shared so the booking
 * box words the weeks it skips as the server names them.
 */
import { Temporal } from 'temporal-polyfill';

export const MIN_REPEAT_WEEKS = 2;
export const MAX_REPEAT_WEEKS = 26;
export const repeatWeeksMessage = /*i18n*/ 'repeatWeeks must be a whole number of weeks from 2 to 26';

/** Why a week of a series is not booked: short words a program can rely on (docs/api.md). */
export const SKIP_REASONS = ['taken', 'own_lesson', 'unavailable', 'too_soon', 'beyond_horizon'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The words the booking box shows for each reason. */
export const skipReasonLabels: Record<SkipReason, string> = {
  taken: /*i18n*/ 'The tutor is already booked then',
  own_lesson: /*i18n*/ 'You have another lesson then',
  unavailable: /*i18n*/ 'The tutor is not available then',
  too_soon: /*i18n*/ 'Too soon to book',
  beyond_horizon: /*i18n*/ 'Too far ahead: the tutor does not take bookings that far out yet',
};

/**
 * The starts of `weeks` weekly lessons from `start`, each the same wall-clock time in `timeZone`.
 * Each is counted from the first, not from the week before, so a week whose time does not exist
 * (the hour the clocks skip) moves only that week.
 */
export function weeklyStarts(start: number, weeks: number, timeZone: string): number[] {
  const first = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(timeZone);
  return Array.from({ length: weeks }, (_, week) => first.add({ weeks: week }).epochMilliseconds);
}
