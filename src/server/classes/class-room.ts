/**
 * A class session's room, in the database: who may enter (the class's tutor and the students who
 * hold a seat in that session, and nobody else: 404), when (the lesson room's rules,
 * src/shared/lessons/room-rules.ts, read on the session's times), who joined, and the chat kept
 * with the session. As in a lesson's room the media never touches the server: every page connects
 * to every other (a mesh of up to six), and the server only passes their signals along.
 *
 * A seat is a lesson (migration 0035), so joining is recorded in lesson_attendance against the
 * seats: the student's against their own, the tutor's against every seat of the session. Each
 * seat then reads, settles and may be marked a no-show exactly as a one-to-one lesson does.
 */
import type { Kysely } from 'kysely';
import { JOINABLE_STATUSES } from '../../shared/lessons/lesson-states';
import { type RoomState, roomState, roomWindow } from '../../shared/lessons/room-rules';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { recordJoin } from '../lessons/room';
import type { ClassRoomChatLine, RoomRole } from '../lessons/room-frames';

export const classRoomMessages = {
  notFound: /*i18n*/ 'This class session does not exist',
  noRoom: /*i18n*/ 'This class session was cancelled, so it has no room.',
  closed:
    /*i18n*/ 'The room is open from 10 minutes before the session starts until 30 minutes after it ends.',
  tutorMutes: /*i18n*/ 'Only the tutor can mute a student',
  notInRoom: /*i18n*/ 'That person is not in this class session',
} as const;

export interface ClassRoomPerson {
  id: string;
  displayName: string;
  role: RoomRole;
  /** When they first joined this session's room, or null. */
  joinedAt: string | null;
}

export interface ClassRoom {
  class: { id: string; title: string; subject: string };
  session: { id: string; start: string; end: string };
  you: RoomRole;
  /** The tutor first, then the students in the order they took their seats. */
  people: ClassRoomPerson[];
  /** Each seat holder's seat (a lesson), by student. */
  seats: Map<string, string>;
  state: RoomState;
  opensAt: number;
  closesAt: number;
}

const notFound = () => new ApiError(404, classRoomMessages.notFound, 'NOT_FOUND');

/**
 * The room of a session the user teaches or holds a seat in; 404 for anyone else (a student who
 * left or was removed holds no seat any more), 409 for a cancelled session or class.
 */
export async function loadClassRoom(
  db: Kysely<DB>,
  userId: string,
  ids: { classId: string; sessionId: string },
  now: number,
): Promise<ClassRoom> {
  const session = await db
    .selectFrom('class_sessions as s')
    .innerJoin('classes as c', 'c.id', 's.class_id')
    .innerJoin('users as t', 't.id', 'c.tutor_id')
    .select([
      's.id',
      's.starts_at',
      's.ends_at',
      's.status',
      'c.id as class_id',
      'c.title',
      'c.subject',
      'c.status as class_status',
      'c.tutor_id',
      't.display_name as tutor_name',
    ])
    .where('s.id', '=', ids.sessionId)
    .where('s.class_id', '=', ids.classId)
    .executeTakeFirst();
  if (!session) throw notFound();
  const seatRows = await db
    .selectFrom('lessons as l')
    .innerJoin('users as u', 'u.id', 'l.student_id')
    .select(['l.id as lesson_id', 'l.student_id', 'u.display_name'])
    .where('l.class_session_id', '=', session.id)
    .where('l.status', 'in', [...JOINABLE_STATUSES])
    .orderBy('l.created_at')
    .orderBy('l.id')
    .execute();
  const you: RoomRole = session.tutor_id === userId ? 'tutor' : 'student';
  if (you === 'student' && !seatRows.some((seat) => seat.student_id === userId)) throw notFound();
  if (session.status !== 'scheduled' || session.class_status !== 'scheduled')
    throw new ApiError(409, classRoomMessages.noRoom, 'NO_ROOM');

  const seats = new Map(seatRows.map((seat) => [seat.student_id, seat.lesson_id]));
  const joined = seatRows.length
    ? await db
        .selectFrom('lesson_attendance')
        .select(['user_id'])
        .select((eb) => eb.fn.min('first_joined_at').as('first'))
        .where('lesson_id', 'in', [...seats.values()])
        .groupBy('user_id')
        .execute()
    : [];
  const joinedAt = (id: string) => {
    const first = joined.find((row) => row.user_id === id)?.first;
    return first ? new Date(first).toISOString() : null;
  };
  const times = { start: session.starts_at.getTime(), end: session.ends_at.getTime() };
  return {
    class: { id: session.class_id, title: session.title, subject: session.subject },
    session: {
      id: session.id,
      start: session.starts_at.toISOString(),
      end: session.ends_at.toISOString(),
    },
    you,
    people: [
      {
        id: session.tutor_id,
        displayName: session.tutor_name,
        role: 'tutor',
        joinedAt: joinedAt(session.tutor_id),
      },
      ...seatRows.map((seat) => ({
        id: seat.student_id,
        displayName: seat.display_name,
        role: 'student' as const,
        joinedAt: joinedAt(seat.student_id),
      })),
    ],
    seats,
    state: roomState(times, now),
    ...roomWindow(times),
  };
}

/** Everyone in the room but the given user: whom a signal for "every page" or a chat line reaches. */
export const othersIn = (room: ClassRoom, userId: string) =>
  room.people.filter((person) => person.id !== userId).map((person) => person.id);

/** Someone else in the room, by id; 404 for anyone who is not (never there, or gone since). */
export function personIn(room: ClassRoom, userId: string, role?: RoomRole): ClassRoomPerson {
  const found = room.people.find((person) => person.id === userId && (!role || person.role === role));
  if (!found) throw new ApiError(404, classRoomMessages.notInRoom, 'NOT_FOUND');
  return found;
}

/** Notes a participant's joining against the seats it concerns (see the top of this file). */
export async function recordClassJoin(db: Kysely<DB>, room: ClassRoom, userId: string, now: number) {
  const seats = room.you === 'tutor' ? [...room.seats.values()] : [room.seats.get(userId)];
  for (const seat of seats) if (seat) await recordJoin(db, seat, userId, now);
}

const chatLine = (row: {
  id: number;
  session_id: string;
  sender_id: string;
  body: string;
  created_at: Date;
}): ClassRoomChatLine => ({
  id: Number(row.id),
  sessionId: row.session_id,
  senderId: row.sender_id,
  text: row.body,
  createdAt: row.created_at.toISOString(),
});

/** The session's chat, oldest first (a session's worth: the newest thousand lines). */
export async function classChat(db: Kysely<DB>, sessionId: string): Promise<ClassRoomChatLine[]> {
  const rows = await db
    .selectFrom('class_session_chat')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
  return rows.reverse().map(chatLine);
}

export async function sayInClass(db: Kysely<DB>, sessionId: string, senderId: string, text: string) {
  const row = await db
    .insertInto('class_session_chat')
    .values({ session_id: sessionId, sender_id: senderId, body: text })
    .returningAll()
    .executeTakeFirstOrThrow();
  return chatLine(row);
}
