/**
 * A class session's room over HTTP (docs/api.md, "A class session's room"). Only the class's tutor
 * and the session's seat holders reach any of it (404 for everyone else), and joining, signals,
 * chat lines and muting only while the room is open. Everything said goes to the other people's
 * tabs through the live channel (GET /api/live), so a tab only ever hears rooms its user is in.
 */

import { Hono } from 'hono';
import { z } from 'zod';
import {
  classRoomMuteSchema,
  classRoomSignalSchema,
  roomChatSchema,
} from '../../shared/lessons/room-schemas';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { requireOpen } from '../lessons/room';
import type { RoomRouteDeps } from '../lessons/room-routes';
import { verifiedOnly } from '../platform/session-guards';
import { limitByUser } from '../rate-limit/rate-limits';
import {
  classChat,
  classRoomMessages,
  loadClassRoom,
  othersIn,
  personIn,
  recordClassJoin,
  sayInClass,
} from './class-room';

const id = z.string().regex(/^[\w-]{1,64}$/);
const sessionParam = z.object({ id, sessionId: id });

export function classRoomRoutes(deps: RoomRouteDeps) {
  const { db, live } = deps;
  const { loadSession } = deps.sessions;
  const param = validate('param', sessionParam, classRoomMessages.notFound);
  const room = (
    c: { req: { valid(target: 'param'): { id: string; sessionId: string } } },
    userId: string,
  ) => {
    const { id: classId, sessionId } = c.req.valid('param');
    return loadClassRoom(db, userId, { classId, sessionId }, Date.now());
  };
  /** The room, for what only an open room allows. */
  const openRoom = async (...args: Parameters<typeof room>) => {
    const found = await room(...args);
    requireOpen(found, classRoomMessages.closed);
    return found;
  };
  const path = '/classes/:id/sessions/:sessionId/room';

  return new Hono<AppEnv>()
    .get(path, loadSession, verifiedOnly, param, async (c) => {
      const found = await room(c, c.var.user.id);
      return c.json(
        {
          state: found.state,
          opensAt: new Date(found.opensAt).toISOString(),
          closesAt: new Date(found.closesAt).toISOString(),
          you: found.you,
          class: found.class,
          session: found.session,
          people: found.people,
          iceServers: deps.iceServers,
        },
        200,
      );
    })
    .post(`${path}/join`, loadSession, verifiedOnly, param, async (c) => {
      const found = await openRoom(c, c.var.user.id);
      const now = Date.now();
      await recordClassJoin(db, found, c.var.user.id, now);
      return c.json({ joinedAt: new Date(now).toISOString() }, 200);
    })
    .post(
      `${path}/signal`,
      loadSession,
      verifiedOnly,
      // A mesh of six sets up five connections per page; a page stuck in a loop still stops here.
      limitByUser(deps.limiters, 'roomSignals'),
      param,
      validate('json', classRoomSignalSchema),
      async (c) => {
        const user = c.var.user;
        const found = await openRoom(c, user.id);
        const { peer, to, signal } = c.req.valid('json');
        const recipients = to ? [personIn(found, to.userId).id] : othersIn(found, user.id);
        await live.roomFrame(recipients, {
          type: 'class-room-signal',
          sessionId: found.session.id,
          from: { userId: user.id, role: found.you, peer },
          to: to?.peer ?? null,
          signal,
        });
        return c.json({ sent: true }, 202);
      },
    )
    .get(`${path}/chat`, loadSession, verifiedOnly, param, async (c) => {
      const found = await room(c, c.var.user.id);
      return c.json({ lines: await classChat(db, found.session.id) }, 200);
    })
    .post(
      `${path}/chat`,
      loadSession,
      verifiedOnly,
      limitByUser(deps.limiters, 'messages'),
      param,
      validate('json', roomChatSchema),
      async (c) => {
        const user = c.var.user;
        const found = await openRoom(c, user.id);
        const line = await sayInClass(db, found.session.id, user.id, c.req.valid('json').text);
        await live.roomFrame(
          found.people.map((person) => person.id),
          { type: 'class-room-chat', sessionId: found.session.id, line },
        );
        return c.json(line, 201);
      },
    )
    .post(
      `${path}/mute`,
      loadSession,
      verifiedOnly,
      param,
      validate('json', classRoomMuteSchema),
      async (c) => {
        const user = c.var.user;
        const found = await openRoom(c, user.id);
        if (found.you !== 'tutor') throw new ApiError(403, classRoomMessages.tutorMutes, 'FORBIDDEN');
        const student = personIn(found, c.req.valid('json').userId, 'student');
        // Everyone hears it: the student's page turns the microphone off, the others stop playing it.
        await live.roomFrame(
          found.people.map((person) => person.id),
          { type: 'class-room-muted', sessionId: found.session.id, userId: student.id, by: user.id },
        );
        return c.json({ muted: student.id }, 200);
      },
    );
}
