/**
 * When a lesson's room is open, and what may be sent through it: plain rules shared by the server,
 * which enforces them, and the room page, which says them. A room opens 10 minutes before its
 * lesson starts and closes 30 minutes after it ends; only a confirmed lesson has one (a lesson
 * whose end has passed reads as completed, and its room stays open for those 30 minutes). What
 * the room's routes take is checked by ./room-schemas.ts.
 */
import type { LessonStatus } from './lesson-schemas';
import { canBeJoined } from './lesson-states';

export const ROOM_OPENS_BEFORE_MS = 10 * 60 * 1000;
export const ROOM_CLOSES_AFTER_MS = 30 * 60 * 1000;
export const MAX_ROOM_CHAT_LENGTH = 1000;

export type RoomState = 'not-open' | 'open' | 'ended';

export function roomWindow(lesson: { start: number; end: number }) {
  return { opensAt: lesson.start - ROOM_OPENS_BEFORE_MS, closesAt: lesson.end + ROOM_CLOSES_AFTER_MS };
}

export function roomState(lesson: { start: number; end: number }, now: number): RoomState {
  const { opensAt, closesAt } = roomWindow(lesson);
  if (now < opensAt) return 'not-open';
  return now < closesAt ? 'open' : 'ended';
}

/** Only a lesson that took place as planned has a room: confirmed, or completed by its end passing. */
export const hasRoom = (status: LessonStatus) => canBeJoined(status);

/**
 * Whether a list of lessons offers to join one now: a confirmed lesson whose room is open and
 * which has not ended. A lesson that has ended (completed, even while its room stays open for
 * late goodbyes), was missed or was called off is never offered.
 */
export function offersJoin(
  lesson: { start: number; end: number; status: LessonStatus },
  now: number,
): boolean {
  return lesson.status === 'confirmed' && now < lesson.end && roomState(lesson, now) === 'open';
}

/**
 * How long after a lesson's end its tutor may still mark a no-show. A lesson that took place may
 * be reviewed by its student and given notes by its tutor; a no-show marked days later would
 * quietly take those away, so the mark belongs to the day after the lesson only.
 */
export const NO_SHOW_MARKABLE_FOR_MS = 24 * 60 * 60 * 1000;

/** Whether the time to mark a lesson's no-show has passed. */
export const noShowTooLate = (lesson: { end: number }, now: number) =>
  now >= lesson.end + NO_SHOW_MARKABLE_FOR_MS;

/**
 * A tutor may mark a student as a no-show once the lesson has ended, until 24 hours after, and
 * only if the student never joined its room.
 */
export function mayMarkNoShow(
  lesson: { end: number; status: LessonStatus },
  studentJoined: boolean,
  now: number,
): boolean {
  return hasRoom(lesson.status) && now >= lesson.end && !noShowTooLate(lesson, now) && !studentJoined;
}
