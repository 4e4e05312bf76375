/**
 * Lessons over HTTP (docs/api.md, "Lessons"):
 * - GET/PUT /api/availability: a verified tutor's weekly windows, date overrides and settings;
 * - GET /api/tutors/:id/slots: the times a published tutor offers (public);
 * - POST /api/lessons (a verified student books; Idempotency-Key makes a retry safe),
 *   GET /api/lessons, GET /api/lessons/:id, and POST /api/lessons/:id/accept, /decline, /cancel,
 *   /reschedule, /propose (the tutor), /proposal/accept and /proposal/decline (the student);
 * - weekly series: POST /api/lessons with repeatWeeks, GET /api/lessons/preview-series, and
 *   GET /api/series/:id, POST /api/series/:id/accept, /decline (the tutor) and /cancel;
 * - the calendar feed: GET/POST/DELETE /api/calendar-feed, and GET /api/calendar/:token.ics for
 *   calendar apps (the secret token is the only key).
 * Another user's lesson does not exist for the caller: 404 everywhere.
 */

import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { every } from 'hono/combine';
import { compress } from 'hono/compress';
import { createFactory } from 'hono/factory';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { intlLocaleOf } from '../../shared/languages';
import { datePassedMessage, overridesFromToday } from '../../shared/lessons/availability';
import {
  availabilitySchema,
  bookingSchema,
  cancelSchema,
  lessonRangeSchema,
  proposalSchema,
  rescheduleSchema,
  seriesPreviewSchema,
  slotQuerySchema,
} from '../../shared/lessons/lesson-schemas';
import { localDate } from '../../shared/lessons/lesson-times';
import { trialPriceProblem } from '../../shared/lessons/trials';
import { tutorIdSchema } from '../../shared/tutor-schemas';
import type { DB } from '../db/schema';
import { errorResponse } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { IDEMPOTENCY_KEY_HEADER, idempotent, REPLAYED_HEADER } from '../http/idempotency';
import { languageOf } from '../http/language';
import { validate } from '../http/validation';
import { translate } from '../i18n/translations';
import type { Mailer } from '../mail/mailer';
import { bookerFor } from '../money/family-payer';
import { type SessionReader, verifiedOnly, verifiedWithRole } from '../platform/session-guards';
import type { Listing } from '../platform/tutor-listing';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import { readAvailability, saveAvailability } from './availability-store';
import { calendarFeed } from './calendar-feed';
import type { LessonDeps } from './lesson-announcements';
import { answerRequest } from './lesson-changes/answer';
import { bookLesson } from './lesson-changes/booking';
import { cancelLesson } from './lesson-changes/cancel';
import { answerProposal, proposeTime } from './lesson-changes/proposals';
import { rescheduleLesson } from './lesson-changes/reschedule';
import {
  answerSeries,
  bookSeries,
  cancelSeries,
  findSeries,
  previewSeries,
  seriesMessages,
} from './lesson-changes/series';
import type { MailSettings } from './lesson-mail';
import { findLesson, listLessons } from './lesson-queries';
import { lessonMessages } from './lesson-records';
import { findSlots, slotTexts } from './slots';

const DAY = 24 * 60 * 60 * 1000;
/** What GET /api/lessons covers unless asked otherwise: a month back, a year ahead. */
const DEFAULT_PAST_DAYS = 30;
const DEFAULT_FUTURE_DAYS = 365;
/** The longest range GET /api/lessons answers at once. */
const MAX_LIST_RANGE_DAYS = 400;

const lessonParam = z.object({ id: z.uuid() });
const seriesParam = z.object({ id: z.uuid() });
const tutorParam = z.object({ id: tutorIdSchema });
const feedParam = z.object({ token: z.string().regex(/^[\w-]{20,100}\.ics$/) });

const tutorsOnly = verifiedWithRole('tutor', lessonMessages.tutorsOffer);
const studentsOnly = verifiedWithRole('student', lessonMessages.studentsBook);
/** A booking is made by a student, or by a parent for one of their children. */
const bookers = verifiedWithRole(['student', 'parent'], lessonMessages.studentsBook);

const handlers = createFactory<AppEnv>();

export function lessonRoutes(deps: {
  db: Kysely<DB>;
  mailer: Mailer;
  limiters: RateLimiters;
  sessions: SessionReader;
  mail: MailSettings;
  conversations: LessonDeps['conversations'];
  live: LessonDeps['live'];
  listing: Listing;
  payments: LessonDeps['payments'];
}) {
  const { db, limiters, sessions } = deps;
  const { loadSession } = sessions;
  const lessons: LessonDeps & { listing: Listing } = {
    db,
    mailer: deps.mailer,
    mail: deps.mail,
    conversations: deps.conversations,
    live: deps.live,
    listing: deps.listing,
    payments: deps.payments,
  };
  /** The tutor's answer to a request: accepting and declining differ only in the answer. */
  const answer = (choice: 'accept' | 'decline') =>
    handlers.createHandlers(
      loadSession,
      verifiedOnly,
      changes,
      validate('param', lessonParam, lessonMessages.notFound),
      async (c) =>
        c.json(await answerRequest(lessons, c.var.user.id, c.req.valid('param').id, choice, Date.now()), 200),
    );
  /** The student's answer to a proposed time: accepting and declining differ only in the answer. */
  const answerProposed = (choice: 'accept' | 'decline') =>
    handlers.createHandlers(
      loadSession,
      verifiedOnly,
      changes,
      validate('param', lessonParam, lessonMessages.notFound),
      async (c) =>
        c.json(
          await answerProposal(lessons, c.var.user.id, c.req.valid('param').id, choice, Date.now()),
          200,
        ),
    );
  /** The tutor's one answer to a series request. */
  const answerAll = (choice: 'accept' | 'decline') =>
    handlers.createHandlers(
      loadSession,
      verifiedOnly,
      changes,
      validate('param', seriesParam, seriesMessages.notFound),
      async (c) =>
        c.json(
          { series: await answerSeries(lessons, c.var.user.id, c.req.valid('param').id, choice, Date.now()) },
          200,
        ),
    );
  const feedUrl = (token: string) => `${deps.mail.appUrl}/api/calendar/${token}.ics`;
  const changes = limitByUser(limiters, 'lessonChanges');
  /** Counted as a lesson change; a retry with its Idempotency-Key gets the first answer again. */
  const booking = every(changes, idempotent(db));
  /** A tutor's availability as the API gives it: `timeZone` is null until the tutor chose one. */
  const availabilityOf = async (tutorId: string) => {
    const [availability, user] = await Promise.all([
      readAvailability(db, tutorId),
      db.selectFrom('users').select('time_zone').where('id', '=', tutorId).executeTakeFirst(),
    ]);
    // Dates that have passed since they were saved change nothing any more: not shown.
    const today = localDate(Date.now(), availability.timeZone);
    const overrides = availability.overrides.filter((override) => override.date >= today);
    return { ...availability, overrides, timeZone: user?.time_zone ?? null };
  };

  return new Hono<AppEnv>()
    .get('/availability', loadSession, tutorsOnly, async (c) =>
      c.json(await availabilityOf(c.var.user.id), 200),
    )
    .put(
      '/availability',
      loadSession,
      tutorsOnly,
      limitByUser(limiters, 'profileUpdate'),
      validate('json', availabilitySchema),
      async (c) => {
        const user = c.var.user;
        const input = c.req.valid('json');
        // "Today" in the zone the dates are in once saved: the one sent.
        const saved = await readAvailability(db, user.id);
        const overrides = overridesFromToday(
          input.overrides,
          localDate(Date.now(), input.timeZone),
          new Set(saved.overrides.map((override) => override.date)),
        );
        if (overrides.passed !== undefined) {
          const date = input.overrides[overrides.passed]?.date ?? '';
          const field = `overrides.${overrides.passed}.date`;
          return errorResponse(c, 400, { text: datePassedMessage, values: { date } }, 'VALIDATION_ERROR', {
            field,
          });
        }
        if (input.trial) {
          // Checked against the rate as saved now: a trial costs at most half an hour of it.
          const profile = await db
            .selectFrom('tutor_profiles')
            .select('hourly_rate')
            .where('user_id', '=', user.id)
            .executeTakeFirst();
          const language = languageOf(c);
          const problem = trialPriceProblem(
            input.trial.priceCents,
            profile?.hourly_rate ?? null,
            deps.payments.currency,
            (text, values) => translate(language, text, values),
            intlLocaleOf(language),
          );
          if (problem)
            return c.json({ message: problem, code: 'VALIDATION_ERROR', field: 'trial.priceCents' }, 400);
        }
        await saveAvailability(db, user.id, { ...input, overrides: overrides.kept });
        return c.json(await availabilityOf(user.id), 200);
      },
    )
    .get(
      '/tutors/:id/slots',
      // A month of slots is some 5 kB of JSON, a tenth of it gzipped: the booking box waits for
      // it on a tutor's page, often over a phone's network.
      compress(),
      validate('param', tutorParam, lessonMessages.tutorNotFound),
      validate('query', slotQuerySchema),
      async (c) => {
        const { from, to, minutes } = c.req.valid('query');
        // Who asks only narrows what is offered (a student's own lessons), so the cheap check will do.
        const viewer = await sessions.signedInUser(c);
        const slots = await findSlots(
          db,
          {
            tutorId: c.req.valid('param').id,
            from,
            to,
            minutes,
            studentId: viewer?.role === 'student' ? viewer.id : undefined,
            now: Date.now(),
          },
          deps.listing,
        );
        return c.json({ slots: slotTexts(slots) }, 200);
      },
    )
    .post('/lessons', loadSession, bookers, booking, validate('json', bookingSchema), async (c) => {
      // Checked by `booking`; also kept with the lesson, so a retry after its answer was purged
      // still finds the lesson it made.
      const key = c.req.header(IDEMPOTENCY_KEY_HEADER);
      const { studentId: forStudent, ...input } = c.req.valid('json');
      const booker = await bookerFor(db, c.var.user, forStudent);
      if (input.repeatWeeks !== undefined) {
        const { series, created } = await bookSeries(lessons, {
          ...input,
          repeatWeeks: input.repeatWeeks,
          studentId: booker.studentId,
          booker,
          idempotencyKey: key,
          now: Date.now(),
        });
        if (created)
          c.get('logger').info({ seriesId: series.id, lessons: series.lessons.length }, 'series booked');
        else c.header(REPLAYED_HEADER, 'true');
        return c.json({ series }, created ? 201 : 200);
      }
      const { lesson, created } = await bookLesson(lessons, {
        ...input,
        studentId: booker.studentId,
        booker,
        idempotencyKey: key,
        now: Date.now(),
      });
      if (created) c.get('logger').info({ lessonId: lesson.id, status: lesson.status }, 'lesson booked');
      else c.header(REPLAYED_HEADER, 'true');
      return created ? c.json(lesson, 201) : c.json(lesson, 200);
    })
    .get('/lessons', loadSession, verifiedOnly, validate('query', lessonRangeSchema), async (c) => {
      const now = Date.now();
      const query = c.req.valid('query');
      const from = query.from ?? (query.to ?? now) - DEFAULT_PAST_DAYS * DAY;
      const to = query.to ?? Math.max(from, now) + DEFAULT_FUTURE_DAYS * DAY;
      if (to - from > MAX_LIST_RANGE_DAYS * DAY)
        return errorResponse(c, 400, /*i18n*/ 'Lessons can be listed 400 days at a time', 'VALIDATION_ERROR');
      return c.json({ lessons: await listLessons(db, c.var.user.id, from, to, now) }, 200);
    })
    .get(
      '/lessons/preview-series',
      loadSession,
      studentsOnly,
      validate('query', seriesPreviewSchema),
      async (c) =>
        c.json(
          await previewSeries(lessons, {
            ...c.req.valid('query'),
            studentId: c.var.user.id,
            now: Date.now(),
          }),
          200,
        ),
    )
    .get(
      '/lessons/:id',
      loadSession,
      verifiedOnly,
      validate('param', lessonParam, lessonMessages.notFound),
      async (c) => c.json(await findLesson(db, c.var.user.id, c.req.valid('param').id, Date.now()), 200),
    )
    .post('/lessons/:id/accept', ...answer('accept'))
    .post('/lessons/:id/decline', ...answer('decline'))
    .post(
      '/lessons/:id/cancel',
      loadSession,
      verifiedOnly,
      changes,
      validate('param', lessonParam, lessonMessages.notFound),
      validate('json', cancelSchema),
      async (c) =>
        c.json(
          await cancelLesson(
            lessons,
            c.var.user.id,
            c.req.valid('param').id,
            c.req.valid('json').reason,
            Date.now(),
          ),
          200,
        ),
    )
    .post(
      '/lessons/:id/reschedule',
      loadSession,
      verifiedOnly,
      changes,
      validate('param', lessonParam, lessonMessages.notFound),
      validate('json', rescheduleSchema),
      async (c) =>
        c.json(
          await rescheduleLesson(
            lessons,
            c.var.user.id,
            c.req.valid('param').id,
            c.req.valid('json').start,
            Date.now(),
          ),
          200,
        ),
    )
    .post(
      '/lessons/:id/propose',
      loadSession,
      verifiedOnly,
      changes,
      validate('param', lessonParam, lessonMessages.notFound),
      validate('json', proposalSchema),
      async (c) =>
        c.json(
          await proposeTime(lessons, c.var.user.id, c.req.valid('param').id, c.req.valid('json'), Date.now()),
          200,
        ),
    )
    .post('/lessons/:id/proposal/accept', ...answerProposed('accept'))
    .post('/lessons/:id/proposal/decline', ...answerProposed('decline'))
    .get(
      '/series/:id',
      loadSession,
      verifiedOnly,
      validate('param', seriesParam, seriesMessages.notFound),
      async (c) =>
        c.json({ series: await findSeries(db, c.var.user.id, c.req.valid('param').id, Date.now()) }, 200),
    )
    .post('/series/:id/accept', ...answerAll('accept'))
    .post('/series/:id/decline', ...answerAll('decline'))
    .post(
      '/series/:id/cancel',
      loadSession,
      verifiedOnly,
      changes,
      validate('param', seriesParam, seriesMessages.notFound),
      validate('json', cancelSchema),
      async (c) =>
        c.json(
          {
            series: await cancelSeries(
              lessons,
              c.var.user.id,
              c.req.valid('param').id,
              c.req.valid('json').reason,
              Date.now(),
            ),
          },
          200,
        ),
    )
    .get('/calendar-feed', loadSession, verifiedOnly, async (c) => {
      const feed = await db
        .selectFrom('calendar_feeds')
        .select('token')
        .where('user_id', '=', c.var.user.id)
        .executeTakeFirst();
      return c.json({ url: feed ? feedUrl(feed.token) : null }, 200);
    })
    .post('/calendar-feed', loadSession, verifiedOnly, changes, async (c) => {
      // A new address each time: the old one stops working at once.
      const token = randomBytes(24).toString('base64url');
      await db
        .insertInto('calendar_feeds')
        .values({ user_id: c.var.user.id, token })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ token, created_at: new Date() }))
        .execute();
      return c.json({ url: feedUrl(token) }, 200);
    })
    .delete('/calendar-feed', loadSession, verifiedOnly, async (c) => {
      await db.deleteFrom('calendar_feeds').where('user_id', '=', c.var.user.id).execute();
      return c.json({ url: null }, 200);
    })
    .get('/calendar/:token', validate('param', feedParam, 'No such calendar'), async (c) => {
      const token = c.req.valid('param').token.slice(0, -'.ics'.length);
      const feed = await calendarFeed(db, token, deps.mail, Date.now());
      if (feed === null) return errorResponse(c, 404, /*i18n*/ 'No such calendar', 'NOT_FOUND');
      c.header('Content-Type', 'text/calendar; charset=utf-8');
      c.header('Cache-Control', 'private, no-cache');
      return c.body(feed, 200);
    });
}
