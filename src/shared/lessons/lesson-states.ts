/**
 * What a lesson's status means, written once for the server's SQL (src/server/lessons/lifecycle/
 * lesson-states-sql.ts builds its conditions from these constants) and for the screens.
 *
 * A status is stored as it was last written and read as it is now: a request whose answer
 * deadline has passed reads expired, and a confirmed lesson whose end has passed reads completed,
 * before the minute job writes either.
 */
import type { LessonStatus } from './lesson-schemas';

/**
 * The stored statuses that lapse by themselves: past the moment in `at` (a column of the lessons
 * table), a stored status reads as `into`. A null moment never passes.
 */
export const LAPSES = {
  pending: { at: 'expires_at', into: 'expired' },
  confirmed: { at: 'ends_at', into: 'completed' },
} as const satisfies Partial<Record<LessonStatus, { at: 'expires_at' | 'ends_at'; into: LessonStatus }>>;

/** Planned: a request still waiting for its answer, or a confirmed lesson that has not ended. */
export const PLANNED_STATUSES = ['pending', 'confirmed'] as const satisfies readonly LessonStatus[];
/** Can be joined: the lessons that have a room (confirmed, or completed by its end passing). */
export const JOINABLE_STATUSES = ['confirmed', 'completed'] as const satisfies readonly LessonStatus[];
/** Took place: completed (a confirmed lesson whose end has passed reads so). */
export const TOOK_PLACE_STATUSES = ['completed'] as const satisfies readonly LessonStatus[];
/** Never happened and never will: called off before it took place, or a request nobody took. */
export const NEVER_HAPPENED_STATUSES = [
  'cancelled',
  'declined',
  'expired',
] as const satisfies readonly LessonStatus[];

const among = (statuses: readonly LessonStatus[]) => (status: LessonStatus) => statuses.includes(status);

/** Whether a lesson, its status read now, is planned. */
export const isPlanned = among(PLANNED_STATUSES);
/** Whether a lesson, its status read now, has a room one may join (when its window is open). */
export const canBeJoined = among(JOINABLE_STATUSES);
/** Whether a lesson, its status read now, took place. */
export const tookPlace = among(TOOK_PLACE_STATUSES);
/** Whether a lesson, its status read now, never happened (the calendar strikes it through). */
export const neverHappened = among(NEVER_HAPPENED_STATUSES);
/** A request waiting for the tutor's answer, its status read now. */
export const isRequest = (status: LessonStatus) => status === 'pending';

/** What a stored status reads as at `now`, given the lesson's deadline and end. */
export function readStatus(
  stored: LessonStatus,
  times: { expires_at: Date | null; ends_at: Date },
  now: number,
): LessonStatus {
  const lapse = LAPSES[stored as keyof typeof LAPSES];
  if (!lapse) return stored;
  const moment = times[lapse.at];
  return moment !== null && moment.getTime() <= now ? lapse.into : stored;
}
