/**
 * Reviews over HTTP (docs/api.md, "Reviews"): a listed tutor's reviews are public; a student
 * with a completed lesson writes or edits theirs, and a parent writes a child's (`studentId`: the
 * review is the child's, one per child and tutor, docs/api.md "Families"); the reviewed tutor answers each once; anyone
 * signed in and verified may report one.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { answerSchema, reviewReportSchema, reviewSchema } from '../../shared/reviews/review-schemas';
import { tutorIdSchema } from '../../shared/tutor-schemas';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { type SessionReader, verifiedOnly } from '../platform/session-guards';
import type { Listing } from '../platform/tutor-listing';
import { studentActedFor } from '../progress/goals';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import {
  answerReview,
  reportReview,
  reviewMessages,
  saveReview,
  studentReviewState,
  tutorReviews,
} from './reviews';

const tutorParam = z.object({ id: tutorIdSchema });
const reviewParam = z.object({ id: z.uuid() });
const pageQuery = z.object({
  page: z
    .string()
    .regex(/^[1-9]\d{0,3}$/, /*i18n*/ 'page must be a whole number from 1')
    .transform(Number)
    .optional(),
});

export function reviewRoutes(deps: {
  db: Kysely<DB>;
  sessions: SessionReader;
  limiters: RateLimiters;
  listing: Listing;
}) {
  const { db, sessions, listing } = deps;
  const { loadSession } = sessions;
  // Reviews, answers and reports share the profile-save budget: people, not scripts, write them.
  const writes = limitByUser(deps.limiters, 'profileUpdate');

  return new Hono<AppEnv>()
    .get(
      '/tutors/:id/reviews',
      validate('param', tutorParam, reviewMessages.tutorNotFound),
      validate('query', pageQuery),
      async (c) => {
        const tutorId = c.req.valid('param').id;
        const reviews = await tutorReviews(db, tutorId, c.req.valid('query').page ?? 1, listing);
        // A signed-in student also learns whether they may review, and sees their own review.
        const viewer = await sessions.signedInUser(c);
        const you =
          viewer?.role === 'student' && viewer.emailVerified
            ? await studentReviewState(db, viewer.id, tutorId, Date.now())
            : null;
        return c.json({ ...reviews, you }, 200);
      },
    )
    .put(
      '/tutors/:id/review',
      loadSession,
      verifiedOnly,
      writes,
      validate('param', tutorParam, reviewMessages.tutorNotFound),
      validate('json', reviewSchema),
      async (c) => {
        const user = c.var.user;
        if (user.role !== 'student' && user.role !== 'parent')
          throw new ApiError(403, reviewMessages.studentsOnly, 'FORBIDDEN');
        const { studentId, ...review } = c.req.valid('json');
        // Whose review it is: the student's own, or the parent's child's (404 for another's child).
        const reviewer = await studentActedFor(db, user, studentId);
        const saved = await saveReview(db, reviewer, c.req.valid('param').id, review, Date.now(), listing);
        return saved.created ? c.json(saved.review, 201) : c.json(saved.review, 200);
      },
    )
    .post(
      '/reviews/:id/answer',
      loadSession,
      verifiedOnly,
      writes,
      validate('param', reviewParam, reviewMessages.notFound),
      validate('json', answerSchema),
      async (c) => {
        const user = c.var.user;
        const answered = await answerReview(
          db,
          user.id,
          c.req.valid('param').id,
          c.req.valid('json').text,
          Date.now(),
        );
        return c.json(answered, 200);
      },
    )
    .post(
      '/reviews/:id/report',
      loadSession,
      verifiedOnly,
      writes,
      validate('param', reviewParam, reviewMessages.notFound),
      validate('json', reviewReportSchema),
      async (c) => {
        const user = c.var.user;
        const report = await reportReview(db, user.id, c.req.valid('param').id, c.req.valid('json').reason);
        return c.json({ reported: true, id: report.id }, 201);
      },
    );
}
