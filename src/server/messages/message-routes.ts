/**
 * Messages over HTTP (docs/api.md, "Messages"), for verified users:
 * - GET /api/conversations (the inbox), POST /api/conversations (start one, with its first message),
 *   GET /api/conversations/:id (the other side and the pair's next lesson, or a class's members),
 *   GET and POST /api/conversations/:id/messages, POST /api/conversations/:id/read;
 * - POST /api/support/conversation: the person's one conversation with the school's support, which
 *   then goes through the routes above (every admin reads and answers it as Support);
 * - POST /api/blocks, DELETE /api/blocks/:userId, POST /api/messages/:id/report;
 * - GET /api/live: the WebSocket that pushes new messages and reads to each signed-in tab.
 * A conversation someone is not part of does not exist for them: 404. A parent reads their linked
 * children's conversations with tutors (403 PARENT_READ_ONLY on writing in them) and writes in the
 * ones a tutor opened with them about a child (docs/api.md, "Families").
 */
import { upgradeWebSocket } from '@hono/node-server';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  blockSchema,
  messagePageSchema,
  newConversationSchema,
  newMessageSchema,
  reportSchema,
} from '../../shared/conversation-schemas';
import * as productMessages from '../../shared/messages';
import type { DB } from '../db/schema';
import { ApiError, errorResponse } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { findLesson } from '../lessons/lesson-queries';
import { plannedAt } from '../lessons/lifecycle/lesson-states-sql';
import { type SessionReader, type SessionUser, verifiedOnly } from '../platform/session-guards';
import type { Listing } from '../platform/tutor-listing';
import { limitByUser, type RateLimiters, tooManyRequests } from '../rate-limit/rate-limits';
import { classOf, membersOf } from './class-conversations';
import {
  conversationOf,
  familyFactsOf,
  messageMessages,
  NO_FAMILY,
  personSide,
  SUPPORT_SIDE,
} from './conversations';
import { listConversations, listMessages, markRead, unreadTotal } from './inbox';
import type { LiveHub } from './live';
import { reportMessage } from './message-reports';
import { block, conversationExists, sendMessage, startConversation, unblock } from './messages';
import { adminIds, openSupportConversation, readerOf } from './support';

/** A page of messages, at most. */
const PAGE_SIZE = 100;

const conversationParam = z.object({ id: z.uuid() });
const messageParam = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
});
const userParam = z.object({ userId: z.string().regex(/^[\w-]{1,64}$/) });

export function messageRoutes(deps: {
  db: Kysely<DB>;
  sessions: SessionReader;
  limiters: RateLimiters;
  live: LiveHub;
  trustedOrigins: string[];
  listing: Listing;
  /** ADMIN_TWO_FACTOR: where required, an admin answers support only with two-factor on. */
  adminTwoFactor: 'required' | 'optional';
}) {
  const { db, sessions, limiters, live, listing } = deps;
  const requireTwoFactor = deps.adminTwoFactor === 'required';
  /** Who reads, as the session a request carries shows them (support's only if it proved two-factor). */
  const reader = (c: { var: { user: SessionUser; secondFactorProved: boolean } }) =>
    readerOf(c.var.user, requireTwoFactor, c.var.secondFactorProved);
  const { loadSession } = sessions;
  const trusted = new Set(deps.trustedOrigins);
  const sending = limitByUser(limiters, 'messages', messageMessages.tooFast);
  const reporting = limitByUser(limiters, 'messageReports', messageMessages.tooManyReports);

  /**
   * Support's shared read mark moved (an admin read or answered): every other admin's tabs get
   * their own count, and stop showing the conversation as waiting.
   */
  async function supportRead(conversationId: string, byId: string, requesterId: string) {
    for (const adminId of await adminIds(db, requireTwoFactor))
      if (adminId !== byId && adminId !== requesterId)
        await live.conversationRead(
          adminId,
          conversationId,
          await unreadTotal(db, { id: adminId, isAdmin: true }),
        );
  }

  /**
   * The pair's next lesson as the reader may see it. A parent sees it only where the lessons'
   * own rules let them read their child's lesson; elsewhere the conversation shows none.
   */
  async function nextLessonFor(userId: string, lessonId: string, now: number) {
    try {
      return await findLesson(db, userId, lessonId, now);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }

  return new Hono<AppEnv>()
    .get('/conversations', loadSession, verifiedOnly, async (c) => {
      const user = reader(c);
      const [conversations, total] = await Promise.all([listConversations(db, user), unreadTotal(db, user)]);
      return c.json({ conversations, unreadTotal: total }, 200);
    })
    .get('/conversations/unread', loadSession, verifiedOnly, async (c) =>
      c.json({ unreadTotal: await unreadTotal(db, reader(c)) }, 200),
    )
    .post('/support/conversation', loadSession, verifiedOnly, async (c) => {
      const opened = await openSupportConversation(db, c.var.user);
      return c.json({ conversationId: opened.id }, opened.created ? 201 : 200);
    })
    .post(
      '/conversations',
      loadSession,
      verifiedOnly,
      sending,
      validate('json', newConversationSchema),
      async (c) => {
        const user = c.var.user;
        const body = c.req.valid('json');
        // A parent answers the conversations tutors open about their children; they start none.
        if (user.role === 'parent') throw new ApiError(403, messageMessages.parentStartsNone, 'FORBIDDEN');
        const otherId = user.role === 'student' ? body.tutorId : body.studentId;
        if (otherId === undefined) {
          const expected = user.role === 'student' ? 'tutorId' : 'studentId';
          throw new ApiError(
            400,
            { text: /*i18n*/ 'Say who the message is for: {field}', values: { field: expected } },
            'VALIDATION_ERROR',
          );
        }
        // A student opens at most ten new conversations a day: the limit counts only new ones. It
        // is spent before the transaction (which it must not hold open) and given back when the
        // conversation turned out to exist, or nothing was sent.
        let spent = false;
        if (user.role === 'student' && !(await conversationExists(db, user.id, otherId))) {
          const wait = await limiters.consume('newConversations', user.id);
          if (wait !== null) return tooManyRequests(c, wait, messageMessages.tooManyConversations);
          spent = true;
        }
        let started: Awaited<ReturnType<typeof startConversation>>;
        try {
          started = await startConversation(db, user, otherId, body.text, listing);
        } catch (error) {
          if (spent) await limiters.refund('newConversations', user.id);
          throw error;
        }
        if (spent && !started.created) await limiters.refund('newConversations', user.id);
        await live.messageSent(started.message, started.recipients);
        return c.json({ id: started.id, message: started.message, about: started.about }, 201);
      },
    )
    .get(
      '/conversations/:id',
      loadSession,
      verifiedOnly,
      validate('param', conversationParam, messageMessages.notFound),
      async (c) => {
        const user = c.var.user;
        const { row, otherId, me } = await conversationOf(db, reader(c), c.req.valid('param').id);
        if (row.class_id !== null) {
          // A class's group: its members instead of another side; no block or next lesson of a pair.
          const [cls, members] = await Promise.all([classOf(db, row.class_id), membersOf(db, row.id)]);
          return c.json(
            {
              id: row.id,
              support: false,
              class: cls,
              other: null,
              members,
              nextLesson: null,
              blockedByMe: false,
              ...NO_FAMILY,
            },
            200,
          );
        }
        const support = row.requester_id !== null;
        const now = Date.now();
        // Support is no person to block and has no lessons with anyone: only a pair has either. A
        // pair with a parent is about their child, whose lessons it is.
        const [other, next, blocked, family] = await Promise.all([
          otherId === null ? SUPPORT_SIDE : personSide(db, otherId),
          support
            ? undefined
            : db
                .selectFrom('lessons')
                .select('id')
                .where('student_id', '=', row.about_student_id ?? row.student_id)
                .where('tutor_id', '=', row.tutor_id)
                .where(plannedAt(now))
                .orderBy('starts_at')
                .executeTakeFirst(),
          support || otherId === null
            ? undefined
            : db
                .selectFrom('blocks')
                .select('blocked_id')
                .where('blocker_id', '=', user.id)
                .where('blocked_id', '=', otherId)
                .executeTakeFirst(),
          familyFactsOf(db, row, me),
        ]);
        return c.json(
          {
            id: row.id,
            support,
            class: null,
            other,
            members: [],
            nextLesson: next ? await nextLessonFor(user.id, next.id, now) : null,
            blockedByMe: Boolean(blocked),
            ...family,
          },
          200,
        );
      },
    )
    .get(
      '/conversations/:id/messages',
      loadSession,
      verifiedOnly,
      validate('param', conversationParam, messageMessages.notFound),
      validate('query', messagePageSchema),
      async (c) => {
        const page = await listMessages(db, reader(c), c.req.valid('param').id, {
          ...c.req.valid('query'),
          limit: PAGE_SIZE,
        });
        return c.json(page, 200);
      },
    )
    .post(
      '/conversations/:id/messages',
      loadSession,
      verifiedOnly,
      sending,
      validate('param', conversationParam, messageMessages.notFound),
      validate('json', newMessageSchema),
      async (c) => {
        const user = c.var.user;
        const sent = await sendMessage(
          db,
          reader(c),
          c.req.valid('param').id,
          c.req.valid('json').text,
          requireTwoFactor,
        );
        await live.messageSent(sent.message, sent.recipients, sent.requesterId);
        if (sent.requesterId !== null && sent.requesterId !== user.id)
          await supportRead(sent.message.conversationId, user.id, sent.requesterId);
        return c.json(sent.message, 201);
      },
    )
    .post(
      '/conversations/:id/read',
      loadSession,
      verifiedOnly,
      validate('param', conversationParam, messageMessages.notFound),
      async (c) => {
        const user = c.var.user;
        const id = c.req.valid('param').id;
        const read = await markRead(db, reader(c), id);
        await live.conversationRead(user.id, id, read.unreadTotal);
        if (read.me === 'support' && read.requesterId !== null)
          await supportRead(id, user.id, read.requesterId);
        return c.json({ unreadTotal: read.unreadTotal }, 200);
      },
    )
    .post('/blocks', loadSession, verifiedOnly, validate('json', blockSchema), async (c) => {
      await block(db, c.var.user.id, c.req.valid('json').userId);
      return c.json({ blocked: true }, 200);
    })
    .delete(
      '/blocks/:userId',
      loadSession,
      verifiedOnly,
      validate('param', userParam, messageMessages.userNotFound),
      async (c) => {
        await unblock(db, c.var.user.id, c.req.valid('param').userId);
        return c.json({ blocked: false }, 200);
      },
    )
    .post(
      '/messages/:id/report',
      loadSession,
      verifiedOnly,
      reporting,
      validate('param', messageParam, messageMessages.messageNotFound),
      validate('json', reportSchema),
      async (c) => {
        const report = await reportMessage(
          db,
          reader(c),
          c.req.valid('param').id,
          c.req.valid('json').reason,
        );
        if (!report.created) return c.json({ reported: true, id: report.id }, 200);
        c.get('logger').info({ reportId: report.id }, 'message reported');
        return c.json({ reported: true, id: report.id }, 201);
      },
    )
    .get(
      '/live',
      async (c, next) => {
        // A page on another site may not open a channel with this visitor's cookies.
        const origin = c.req.header('origin');
        if (origin && !trusted.has(origin))
          return errorResponse(c, 403, productMessages.forbiddenOrigin, 'FORBIDDEN_ORIGIN');
        await next();
      },
      loadSession,
      verifiedOnly,
      async (c, next) => {
        // Support's messages go to every tab of an admin who answers it: a session of theirs that
        // did not prove the second factor would hear them, so it opens no channel.
        const user = c.var.user;
        if (requireTwoFactor && user.isAdmin && user.twoFactorEnabled && !c.var.secondFactorProved)
          throw new ApiError(403, productMessages.adminTwoFactorSignInAgain, 'TWO_FACTOR_REQUIRED');
        await next();
      },
      upgradeWebSocket((c) => {
        const user = c.var.user;
        // Filed under the session that signed it in (not a cookie read from the header again,
        // which with two session cookies may be another one): it closes when that session ends.
        const sessionToken = c.get('sessionToken');
        if (!sessionToken) throw new ApiError(401, productMessages.notSignedIn, 'UNAUTHORIZED');
        let detach = () => {};
        return {
          onOpen(_event, socket) {
            detach = live.attach(user.id, sessionToken, socket);
          },
          onClose() {
            detach();
          },
        };
      }),
      // Reached only without an Upgrade header.
      (c) =>
        errorResponse(
          c,
          426,
          /*i18n*/ 'This address is for the live channel: open it as a WebSocket.',
          'UPGRADE_REQUIRED',
        ),
    );
}
