/**
 * Progress over HTTP (docs/api.md, "Progress"):
 * - GET/PUT /api/lessons/:id/notes: a lesson's notes, read by both participants, written by the
 *   tutor once the lesson has taken place;
 * - GET/POST /api/goals, PATCH /api/goals/:id, POST /api/goals/:id/milestones, PATCH
 *   /api/milestones/:id: a student's goals, which their tutors read (`?studentId=`), add
 *   milestones to and tick;
 * - GET /api/history/:personId: the lessons (with notes) between the caller and one person, and,
 *   for a tutor looking at a student, that student's goals.
 * A user sees only their own notes, goals and lessons: anything else is 404. A parent sees their
 * children's (docs/api.md, "Families"): a lesson's notes by its id, goals and a history with
 * `?studentId=` naming the child (another parent's child is 404), and sets goals as the child would.
 */
import { type Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  goalChangeSchema,
  goalSchema,
  milestoneChangeSchema,
  milestoneSchema,
  notesSchema,
} from '../../shared/progress/progress-rules';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { lessonsBetween } from '../lessons/lesson-queries';
import { lessonMessages } from '../lessons/lesson-records';
import {
  type SessionReader,
  type SessionUser,
  type SignedInEnv,
  verifiedOnly,
} from '../platform/session-guards';
import { browserZoneQuery, zoneOf } from '../platform/user-time-zone';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import {
  addMilestone,
  changeGoal,
  createGoal,
  goalMessages,
  goalsOf,
  listGoals,
  studentActedFor,
  teaches,
  tickMilestone,
} from './goals';
import { readNotes, saveNotes } from './notes';

const lessonParam = z.object({ id: z.uuid() });
const goalParam = z.object({ id: z.uuid() });
const personParam = z.object({ id: z.string().regex(/^[\w-]{1,64}$/) });
const goalsQuery = z.object({
  studentId: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .optional(),
});

const historyQuery = browserZoneQuery.extend(goalsQuery.shape);

/** How many lessons a history shows: years of weekly lessons. */
const HISTORY_LIMIT = 200;
type Request = Context<AppEnv & SignedInEnv>;
type Caller = SessionUser;

const historyMessages = {
  notFound: /*i18n*/ 'This person does not exist, or has no lessons with you',
} as const;

export function progressRoutes(deps: { db: Kysely<DB>; sessions: SessionReader; limiters: RateLimiters }) {
  const { db } = deps;
  const { loadSession } = deps.sessions;
  // Every route is for a verified user; a change also counts against the user's limit of writes.
  const verified = [loadSession, verifiedOnly] as const;
  const writing = [...verified, limitByUser(deps.limiters, 'progressWrites')] as const;
  /** The caller's change to what the path names, made now. */
  const change = <Input, Result>(
    act: (db: Kysely<DB>, user: Caller, id: string, input: Input, now: number) => Promise<Result>,
    c: Request,
    id: string,
    input: Input,
  ) => act(db, c.var.user, id, input, Date.now());

  return new Hono<AppEnv>()
    .get(
      '/lessons/:id/notes',
      ...verified,
      validate('param', lessonParam, lessonMessages.notFound),
      async (c) => c.json(await readNotes(db, c.var.user, c.req.valid('param').id, Date.now()), 200),
    )
    .put(
      '/lessons/:id/notes',
      ...writing,
      validate('param', lessonParam, lessonMessages.notFound),
      validate('json', notesSchema),
      async (c) => c.json(await change(saveNotes, c, c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .get('/goals', ...verified, validate('query', goalsQuery), async (c) =>
      c.json({ goals: await listGoals(db, c.var.user, c.req.valid('query').studentId) }, 200),
    )
    .post('/goals', ...writing, validate('json', goalSchema), async (c) =>
      c.json(await createGoal(db, c.var.user, c.req.valid('json'), Date.now()), 201),
    )
    .patch(
      '/goals/:id',
      ...writing,
      validate('param', goalParam, goalMessages.notFound),
      validate('json', goalChangeSchema),
      async (c) => c.json(await change(changeGoal, c, c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .post(
      '/goals/:id/milestones',
      ...writing,
      validate('param', goalParam, goalMessages.notFound),
      validate('json', milestoneSchema),
      async (c) =>
        c.json(await change(addMilestone, c, c.req.valid('param').id, c.req.valid('json').title), 201),
    )
    .patch(
      '/milestones/:id',
      ...writing,
      validate('param', goalParam, goalMessages.milestoneNotFound),
      validate('json', milestoneChangeSchema),
      async (c) =>
        c.json(await change(tickMilestone, c, c.req.valid('param').id, c.req.valid('json').done), 200),
    )
    .get(
      '/history/:id',
      ...verified,
      validate('param', personParam, historyMessages.notFound),
      validate('query', historyQuery),
      async (c) => {
        const user = c.var.user;
        const personId = c.req.valid('param').id;
        const now = Date.now();
        // A parent reads the history between their child and one of the child's tutors.
        const whose =
          user.role === 'parent' ? await studentActedFor(db, user, c.req.valid('query').studentId) : user.id;
        const lessons =
          personId === whose ? [] : await lessonsBetween(db, whose, personId, now, HISTORY_LIMIT);
        const first = lessons[0];
        if (!first) throw new ApiError(404, historyMessages.notFound, 'NOT_FOUND');
        const person = first.tutor.id === personId ? first.tutor : first.student;
        const isTheirTutor = user.role === 'tutor' && (await teaches(db, user.id, personId));
        return c.json(
          {
            person: {
              ...person,
              role: first.tutor.id === personId ? ('tutor' as const) : ('student' as const),
            },
            timeZone: (await zoneOf(db, user.id, c.req.valid('query').timeZone)).timeZone,
            lessons,
            /** The student's goals, for a tutor who teaches them; null otherwise. */
            goals: isTheirTutor ? await goalsOf(db, personId) : null,
          },
          200,
        );
      },
    );
}
