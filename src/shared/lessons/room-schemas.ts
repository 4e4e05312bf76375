/** What the lesson room's routes take: a chat line, and the signals two pages exchange (zod). */
import { z } from 'zod';
import { freeText } from '../schemas';
import { MAX_ROOM_CHAT_LENGTH } from './room-rules';

/** A line of the room's chat. */
export const roomChatSchema = z.strictObject({
  text: freeText(MAX_ROOM_CHAT_LENGTH, {
    notText: /*i18n*/ 'A chat line must be text',
    tooLong: /*i18n*/ 'A chat line must be at most 1000 characters',
    badCharacters: /*i18n*/ 'A chat line must not contain control characters',
    required: /*i18n*/ 'Please write something',
  }),
});

/** A page's id in a room: new on every load of the page. */
const pageId = z.string().regex(/^[\w-]{8,64}$/, /*i18n*/ 'peer must be an id of 8 to 64 characters');

const sdp = z.string().max(100_000, /*i18n*/ 'A session description is at most 100,000 characters');

/**
 * What one participant's page tells the other's, through the server: who it is (a page id, new
 * on every load, so a rejoin is told apart from a late message of the page before), the WebRTC
 * offer, answer and ICE candidates, and what it shows (microphone, camera, screen).
 */
export const roomSignalSchema = z.strictObject({
  peer: pageId,
  signal: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('hello') }),
    z.strictObject({ kind: z.literal('bye') }),
    z.strictObject({ kind: z.literal('description'), type: z.enum(['offer', 'answer']), sdp }),
    z.strictObject({
      kind: z.literal('candidate'),
      candidate: z.string().max(2000),
      sdpMid: z.string().max(100).nullable(),
      sdpMLineIndex: z.number().int().min(0).max(100).nullable(),
    }),
    z.strictObject({
      kind: z.literal('state'),
      muted: z.boolean(),
      videoOff: z.boolean(),
      sharing: z.boolean(),
    }),
  ]),
});

export type RoomSignal = z.infer<typeof roomSignalSchema>;

/**
 * A class room's signal: in a mesh each page has a connection with every other, so what sets one
 * up (a description, a candidate) names the page it is for (`to`: that page's user and id);
 * hello, bye and state may go to every page in the room at once, or to one.
 */
export const classRoomSignalSchema = roomSignalSchema
  .extend({
    to: z.strictObject({ userId: z.string().min(1).max(64), peer: pageId }).optional(),
  })
  .refine((body) => body.to !== undefined || ['hello', 'bye', 'state'].includes(body.signal.kind), {
    message: /*i18n*/ 'A description or a candidate must name the page it is for',
    path: ['to'],
  });

/** The tutor mutes a student's microphone for everyone in the room. */
export const classRoomMuteSchema = z.strictObject({
  userId: z.string().min(1, /*i18n*/ 'Please say whose microphone to mute').max(64),
});
