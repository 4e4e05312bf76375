/**
 * What the rooms pass between their participants through the live channel (the live hub,
 * src/server/messages/live.ts, carries them without reading them): a lesson room's two pages,
 * and a class session's room, where every page talks to every other (a mesh) and so names the
 * page a signal is for.
 */
import type { RoomSignal } from '../../shared/lessons/room-schemas';

export interface RoomChatLine {
  id: number;
  lessonId: string;
  senderId: string;
  text: string;
  createdAt: string;
}

export interface ClassRoomChatLine {
  id: number;
  sessionId: string;
  senderId: string;
  text: string;
  createdAt: string;
}

export type RoomRole = 'tutor' | 'student';

export type RoomFrame =
  | { type: 'room-signal'; lessonId: string; from: RoomRole; peer: string; signal: RoomSignal['signal'] }
  | { type: 'room-chat'; lessonId: string; line: RoomChatLine }
  | {
      type: 'class-room-signal';
      sessionId: string;
      from: { userId: string; role: RoomRole; peer: string };
      /** The page the signal is for; null for one every page hears (hello, bye, state). */
      to: string | null;
      signal: RoomSignal['signal'];
    }
  | { type: 'class-room-chat'; sessionId: string; line: ClassRoomChatLine }
  /** The tutor muted a student's microphone: their page turns it off, the others stop playing it. */
  | { type: 'class-room-muted'; sessionId: string; userId: string; by: string };

/**
 * What the rooms need of the live channel: frames pushed to the given users' tabs. Passed in (it
 * is the live hub), so that lessons and classes do not import the messages feature, which reads them.
 */
export interface RoomLive {
  roomFrame(recipients: string[], frame: RoomFrame): Promise<void>;
}
