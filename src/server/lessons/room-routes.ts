/**
 * The lesson room over HTTP (docs/api.md, "The lesson room"). Only the lesson's two participants
 * reach any of it, a parent standing in for a child without a login (404 for everyone else, as
 * for the lesson itself), and joining, signals and
 * chat lines only while the room is open. Signals and chat lines go to the other participant's
 * tabs through the live channel (GET /api/live), which is authenticated, so a tab only ever hears
 * the rooms of its own user's lessons.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { roomChatSchema, roomSignalSchema } from '../../shared/lessons/room-schemas';
import type { Config } from '../config/config';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { type SessionReader, verifiedOnly } from '../platform/session-guards';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import { lessonMessages } from './lesson-records';
import {
  addChatLine,
  attendanceOf,
  listChat,
  loadRoom,
  markNoShow,
  type RoomLive,
  recordJoin,
  requireOpen,
} from './room';

const lessonParam = z.object({ id: z.uuid() });

/** What a room's routes need, a lesson's or a class session's. */
export interface RoomRouteDeps {
  db: Kysely<DB>;
  sessions: SessionReader;
  limiters: RateLimiters;
  live: RoomLive;
  iceServers: Config['iceServers'];
}

export function roomRoutes(deps: RoomRouteDeps) {
  const { db, live } = deps;
  const { loadSession } = deps.sessions;
  const param = validate('param', lessonParam, lessonMessages.notFound);
  const room = (c: { req: { valid(target: 'param'): { id: string } } }, userId: string) =>
    loadRoom(db, userId, c.req.valid('param').id, Date.now());

  return new Hono<AppEnv>()
    .get('/lessons/:id/room', loadSession, verifiedOnly, param, async (c) => {
      const found = await room(c, c.var.user.id);
      return c.json(
        {
          state: found.state,
          opensAt: new Date(found.opensAt).toISOString(),
          closesAt: new Date(found.closesAt).toISOString(),
          you: found.you,
          lesson: found.lesson,
          attendance: await attendanceOf(db, found),
          iceServers: deps.iceServers,
        },
        200,
      );
    })
    .post('/lessons/:id/room/join', loadSession, verifiedOnly, param, async (c) => {
      const user = c.var.user;
      const found = await room(c, user.id);
      requireOpen(found);
      const now = Date.now();
      await recordJoin(db, found.lesson.id, found.participantId, now);
      return c.json({ joinedAt: new Date(now).toISOString() }, 200);
    })
    .post(
      '/lessons/:id/room/signal',
      loadSession,
      verifiedOnly,
      // Setting up a call takes a few dozen signals; a page stuck in a loop stops here.
      limitByUser(deps.limiters, 'roomSignals'),
      param,
      validate('json', roomSignalSchema),
      async (c) => {
        const user = c.var.user;
        const found = await room(c, user.id);
        requireOpen(found);
        const { peer, signal } = c.req.valid('json');
        await live.roomFrame(found.otherIds, {
          type: 'room-signal',
          lessonId: found.lesson.id,
          from: found.you,
          peer,
          signal,
        });
        return c.json({ sent: true }, 202);
      },
    )
    .get('/lessons/:id/room/chat', loadSession, verifiedOnly, param, async (c) => {
      const found = await room(c, c.var.user.id);
      return c.json({ lines: await listChat(db, found.lesson.id) }, 200);
    })
    .post(
      '/lessons/:id/room/chat',
      loadSession,
      verifiedOnly,
      limitByUser(deps.limiters, 'messages'),
      param,
      validate('json', roomChatSchema),
      async (c) => {
        const user = c.var.user;
        const found = await room(c, user.id);
        requireOpen(found);
        const line = await addChatLine(db, found.lesson.id, found.participantId, c.req.valid('json').text);
        await live.roomFrame([user.id, ...found.otherIds], {
          type: 'room-chat',
          lessonId: found.lesson.id,
          line,
        });
        return c.json(line, 201);
      },
    )
    .post('/lessons/:id/no-show', loadSession, verifiedOnly, param, async (c) => {
      const user = c.var.user;
      return c.json(await markNoShow(db, user.id, c.req.valid('param').id, Date.now()), 200);
    });
}
