/**
 * A lesson's room, in the database: who may enter (the lesson's tutor and student, or for a child
 * without a login of their own the parent linked to them, who joins in the child's place; nobody
 * else: 404), when (src/shared/lessons/room-rules.ts), who joined and when, the room's chat kept
 * with the lesson, and the tutor's no-show mark for a student who never came. The media itself
 * never touches the server: the browsers connect to each other, and the server only passes their
 * signals along (room-routes.ts).
 */
import type { Kysely } from 'kysely';
import {
  hasRoom,
  mayMarkNoShow,
  noShowTooLate,
  type RoomState,
  roomState,
  roomWindow,
} from '../../shared/lessons/room-rules';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { hasLogin } from '../platform/family-links';
import { findLesson } from './lesson-queries';
import { type LessonView, lessonMessages } from './lesson-records';
import { markNoShowMove } from './lifecycle/end-moves';
import type { RoomChatLine } from './room-frames';

export const roomMessages = {
  noRoom: /*i18n*/ 'This lesson is not confirmed, so it has no room.',
  classSeat: /*i18n*/ "This lesson is a session of a group class: join it from the class's page.",
  closed:
    /*i18n*/ 'The room is open from 10 minutes before the lesson starts until 30 minutes after it ends.',
  tutorMarks: /*i18n*/ 'Only the tutor can mark a no-show',
  noShowRefused:
    /*i18n*/ 'A lesson can be marked a no-show once it has ended, and only if the student never joined.',
  noShowTooLate: /*i18n*/ 'A no-show can be marked only until 24 hours after the lesson ends.',
} as const;

export type { RoomChatLine, RoomFrame, RoomLive } from './room-frames';

export interface Room {
  lesson: LessonView;
  you: 'tutor' | 'student';
  /**
   * Whom the caller is in the room: themselves, or the child a parent joins for. Joins and chat
   * lines are the participant's, so the tutor sees the student came, and a no-show is not marked.
   */
  participantId: string;
  /** Whose tabs hear the caller's signals and lines: the other side, and a stand-in parent. */
  otherIds: string[];
  state: RoomState;
  opensAt: number;
  closesAt: number;
}

/**
 * The parent who joins a student's lessons in their place: the one linked to a child without a
 * login of their own (who cannot sign in to join). Undefined for anyone who can sign in.
 */
async function standInFor(db: Kysely<DB>, studentId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('family_links as f')
    .select('f.parent_id')
    .where('f.student_id', '=', studentId)
    .where((eb) => eb.not(hasLogin('f.student_id')))
    .executeTakeFirst();
  return row?.parent_id;
}

/** The room of one of the user's lessons; 404 for anyone else's, 409 for a lesson without a room. */
export async function loadRoom(db: Kysely<DB>, userId: string, lessonId: string, now: number): Promise<Room> {
  const lesson = await findLesson(db, userId, lessonId, now);
  const standIn = await standInFor(db, lesson.student.id);
  // A parent reads every lesson of their child, but is in the room only for a child who cannot
  // sign in: a child with a login of their own joins themselves.
  if (userId !== lesson.tutor.id && userId !== lesson.student.id && userId !== standIn)
    throw new ApiError(404, lessonMessages.notFound, 'NOT_FOUND');
  // A seat in a class meets in its session's room, with the whole class.
  if (lesson.classSession) throw new ApiError(409, roomMessages.classSeat, 'CLASS_SEAT');
  if (!hasRoom(lesson.status)) throw new ApiError(409, roomMessages.noRoom, 'NO_ROOM');
  const times = { start: Date.parse(lesson.start), end: Date.parse(lesson.end) };
  const you = lesson.tutor.id === userId ? 'tutor' : 'student';
  return {
    lesson,
    you,
    participantId: you === 'tutor' ? userId : lesson.student.id,
    otherIds: you === 'tutor' ? [lesson.student.id, ...(standIn ? [standIn] : [])] : [lesson.tutor.id],
    state: roomState(times, now),
    ...roomWindow(times),
  };
}

/** Refuses what only an open room allows (joining, signals, chat lines); a class's room says it of its session. */
export function requireOpen(room: { state: RoomState }, closed: string = roomMessages.closed): void {
  if (room.state !== 'open') throw new ApiError(409, closed, 'ROOM_CLOSED');
}

/** When each participant first joined, or null. */
export async function attendanceOf(db: Kysely<DB>, room: Room) {
  const rows = await db
    .selectFrom('lesson_attendance')
    .select(['user_id', 'first_joined_at'])
    .where('lesson_id', '=', room.lesson.id)
    .execute();
  const at = (userId: string) =>
    rows.find((row) => row.user_id === userId)?.first_joined_at.toISOString() ?? null;
  return { tutor: at(room.lesson.tutor.id), student: at(room.lesson.student.id) };
}

/** Notes a participant's joining: the first time is kept, the latest too. */
export async function recordJoin(db: Kysely<DB>, lessonId: string, userId: string, now: number) {
  const at = new Date(now);
  await db
    .insertInto('lesson_attendance')
    .values({ lesson_id: lessonId, user_id: userId, first_joined_at: at, last_joined_at: at })
    .onConflict((oc) => oc.columns(['lesson_id', 'user_id']).doUpdateSet({ last_joined_at: at }))
    .execute();
}

const toLine = (row: {
  id: number;
  lesson_id: string;
  sender_id: string;
  body: string;
  created_at: Date;
}) => ({
  id: Number(row.id),
  lessonId: row.lesson_id,
  senderId: row.sender_id,
  text: row.body,
  createdAt: row.created_at.toISOString(),
});

export async function listChat(db: Kysely<DB>, lessonId: string): Promise<RoomChatLine[]> {
  const rows = await db
    .selectFrom('lesson_chat')
    .selectAll()
    .where('lesson_id', '=', lessonId)
    .orderBy('id')
    .limit(1000)
    .execute();
  return rows.map(toLine);
}

export async function addChatLine(db: Kysely<DB>, lessonId: string, senderId: string, text: string) {
  const row = await db
    .insertInto('lesson_chat')
    .values({ lesson_id: lessonId, sender_id: senderId, body: text })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toLine(row);
}

/** The tutor marks a student who never joined as a no-show, from the lesson's end until 24 hours after. */
export async function markNoShow(db: Kysely<DB>, userId: string, lessonId: string, now: number) {
  const lesson = await findLesson(db, userId, lessonId, now);
  if (lesson.tutor.id !== userId) throw new ApiError(403, roomMessages.tutorMarks, 'FORBIDDEN');
  const joined = await db
    .selectFrom('lesson_attendance')
    .select('user_id')
    .where('lesson_id', '=', lessonId)
    .where('user_id', '=', lesson.student.id)
    .executeTakeFirst();
  const times = { end: Date.parse(lesson.end), status: lesson.status };
  if (noShowTooLate(times, now)) throw new ApiError(409, roomMessages.noShowTooLate, 'NO_SHOW_REFUSED');
  if (!mayMarkNoShow(times, joined !== undefined, now))
    throw new ApiError(409, roomMessages.noShowRefused, 'NO_SHOW_REFUSED');
  // The tutor kept the time: a no-show is paid like a lesson that took place. A second mark sent
  // at the same moment finds the lesson already a no-show once it has the row: it is refused as a
  // mark sent a moment later would be, with the room's own code.
  try {
    await db.transaction().execute((trx) => markNoShowMove(trx, lessonId, now));
  } catch (error) {
    if (error instanceof ApiError && error.code === 'MOVE_NOT_ALLOWED')
      throw new ApiError(409, roomMessages.noShowRefused, 'NO_SHOW_REFUSED');
    throw error;
  }
  return findLesson(db, userId, lessonId, now);
}
