/**
 * Reviews in the database: a listed tutor's reviews are public (../platform/tutor-listing.ts); only
 * a student with a completed lesson with a listed tutor may review them, once (a second review
 * edits the first); the tutor answers each once; anyone signed in may report one. The tutor's
 * count and sum of ratings on tutor_profiles move in the same transaction, so the search and the
 * tutor page never disagree with the reviews. In public a reviewer is "Maria K.": never an id, an
 * email or a whole surname.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, type Selectable, sql } from 'kysely';
import { displayedAverage, REVIEWS_PAGE_SIZE, reviewerName } from '../../shared/reviews/review-rules';
import type { DB, ReviewsTable } from '../db/schema';
import { ApiError } from '../http/api-error';
import { tookPlace } from '../lessons/lesson-records';
import { type Listing, listedTutor } from '../platform/tutor-listing';

export const reviewMessages = {
  tutorNotFound: /*i18n*/ 'This tutor profile does not exist or is not public',
  notFound: /*i18n*/ 'This review does not exist',
  studentsOnly: /*i18n*/ 'Only students can review tutors',
  notYet: /*i18n*/ 'You can review a tutor once you have had a lesson with them.',
  tutorAnswers: /*i18n*/ 'Only the tutor who was reviewed can answer',
  answered: /*i18n*/ 'You have already answered this review.',
} as const;

export interface ReviewView {
  id: string;
  rating: number;
  text: string;
  createdAt: string;
  editedAt: string | null;
  reviewer: string;
  answer: { text: string; answeredAt: string } | null;
}

type ReviewRow = Pick<
  Selectable<ReviewsTable>,
  'id' | 'rating' | 'body' | 'created_at' | 'edited_at' | 'answer' | 'answered_at'
> & { student_name: string };

const toView = (row: ReviewRow): ReviewView => ({
  id: row.id,
  rating: row.rating,
  text: row.body,
  createdAt: row.created_at.toISOString(),
  editedAt: row.edited_at?.toISOString() ?? null,
  reviewer: reviewerName(row.student_name),
  answer:
    row.answer !== null && row.answered_at !== null
      ? { text: row.answer, answeredAt: row.answered_at.toISOString() }
      : null,
});

const reviewsWithNames = (db: Kysely<DB>) =>
  db
    .selectFrom('reviews as r')
    .innerJoin('users as u', 'u.id', 'r.student_id')
    .select([
      'r.id',
      'r.rating',
      'r.body',
      'r.created_at',
      'r.edited_at',
      'r.answer',
      'r.answered_at',
      'u.display_name as student_name',
    ]);

/** Whether the student has had a lesson with the tutor that took place (completed by now). */
export async function hasCompletedLesson(db: Kysely<DB>, studentId: string, tutorId: string, now: number) {
  const row = await db
    .selectFrom('lessons')
    .select('id')
    .where('student_id', '=', studentId)
    .where('tutor_id', '=', tutorId)
    .where(tookPlace(now))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The listed tutors a student has had a completed lesson with and has not reviewed yet: what the
 * dashboard and the schedule invite them to review.
 */
export async function tutorsToReview(db: Kysely<DB>, studentId: string, now: number, listing: Listing) {
  const rows = await db
    .selectFrom('lessons as l')
    .innerJoin('users as u', 'u.id', 'l.tutor_id')
    .innerJoin('tutor_profiles as tp', 'tp.user_id', 'l.tutor_id')
    .select(['l.tutor_id as tutorId', 'u.display_name as displayName'])
    .where('l.student_id', '=', studentId)
    .where(listedTutor(listing))
    .where(tookPlace(now, 'l'))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('reviews as r')
            .select('r.id')
            .whereRef('r.tutor_id', '=', 'l.tutor_id')
            .where('r.student_id', '=', studentId),
        ),
      ),
    )
    .groupBy(['l.tutor_id', 'u.display_name'])
    .orderBy('u.display_name')
    .limit(10)
    .execute();
  return rows;
}

/** A listed tutor's reviews: the summary, and one page, newest first. */
export async function tutorReviews(db: Kysely<DB>, tutorId: string, page: number, listing: Listing) {
  const tutor = await db
    .selectFrom('tutor_profiles as tp')
    .select(['tp.rating_count', 'tp.rating_sum'])
    .where('tp.user_id', '=', tutorId)
    .where(listedTutor(listing))
    .executeTakeFirst();
  if (!tutor) throw new ApiError(404, reviewMessages.tutorNotFound, 'NOT_FOUND');
  const [counts, rows] = await Promise.all([
    db
      .selectFrom('reviews')
      .select(['rating', (eb) => eb.fn.countAll<string>().as('n')])
      .where('tutor_id', '=', tutorId)
      .where('hidden_at', 'is', null)
      .groupBy('rating')
      .execute(),
    reviewsWithNames(db)
      .where('r.tutor_id', '=', tutorId)
      .where('r.hidden_at', 'is', null)
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id')
      .limit(REVIEWS_PAGE_SIZE)
      .offset((page - 1) * REVIEWS_PAGE_SIZE)
      .execute(),
  ]);
  const distribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } as Record<1 | 2 | 3 | 4 | 5, number>;
  for (const { rating, n } of counts) distribution[rating as 1 | 2 | 3 | 4 | 5] = Number(n);
  return {
    average: displayedAverage(tutor.rating_sum, tutor.rating_count),
    count: tutor.rating_count,
    distribution,
    page,
    pageSize: REVIEWS_PAGE_SIZE,
    reviews: rows.map(toView),
  };
}

/** What a student may do on a tutor's page: review them (or edit their review), and which it is. */
export async function studentReviewState(db: Kysely<DB>, studentId: string, tutorId: string, now: number) {
  const [eligible, own] = await Promise.all([
    hasCompletedLesson(db, studentId, tutorId, now),
    reviewsWithNames(db)
      .where('r.student_id', '=', studentId)
      .where('r.tutor_id', '=', tutorId)
      .executeTakeFirst(),
  ]);
  return { canReview: eligible, review: own ? toView(own) : null };
}

/**
 * Recounts the tutor's ratings, leaving out reviews a moderator hid; the caller holds the tutor's
 * profile row.
 */
export async function recount(trx: Kysely<DB>, tutorId: string) {
  await trx
    .updateTable('tutor_profiles')
    .set({
      rating_count: sql<number>`(select count(*) from reviews where tutor_id = ${tutorId} and hidden_at is null)`,
      rating_sum: sql<number>`(select coalesce(sum(rating), 0) from reviews where tutor_id = ${tutorId} and hidden_at is null)`,
    })
    .where('user_id', '=', tutorId)
    .execute();
}

/** The student's review of the tutor, made or edited; `created` says which. */
export async function saveReview(
  db: Kysely<DB>,
  studentId: string,
  tutorId: string,
  input: { rating: number; text: string },
  now: number,
  listing: Listing,
) {
  return db.transaction().execute(async (trx) => {
    // One writer of a tutor's reviews at a time, so the recount sees every review committed before.
    const tutor = await trx
      .selectFrom('tutor_profiles as tp')
      .select('tp.user_id')
      .where('tp.user_id', '=', tutorId)
      .where(listedTutor(listing))
      .forUpdate()
      .executeTakeFirst();
    if (!tutor) throw new ApiError(404, reviewMessages.tutorNotFound, 'NOT_FOUND');
    if (!(await hasCompletedLesson(trx, studentId, tutorId, now)))
      throw new ApiError(403, reviewMessages.notYet, 'NO_COMPLETED_LESSON');
    const at = new Date(now);
    const saved = await trx
      .insertInto('reviews')
      .values({
        id: randomUUID(),
        tutor_id: tutorId,
        student_id: studentId,
        rating: input.rating,
        body: input.text,
        created_at: at,
      })
      .onConflict((oc) =>
        oc
          .columns(['student_id', 'tutor_id'])
          .doUpdateSet({ rating: input.rating, body: input.text, edited_at: at }),
      )
      .returning(['id', 'edited_at'])
      .executeTakeFirstOrThrow();
    await recount(trx, tutorId);
    const row = await reviewsWithNames(trx).where('r.id', '=', saved.id).executeTakeFirstOrThrow();
    return { review: toView(row), created: saved.edited_at === null };
  });
}

/** The reviewed tutor's one public answer. */
export async function answerReview(
  db: Kysely<DB>,
  tutorId: string,
  reviewId: string,
  text: string,
  now: number,
) {
  const review = await db
    .selectFrom('reviews')
    .select(['tutor_id'])
    .where('id', '=', reviewId)
    .executeTakeFirst();
  if (!review) throw new ApiError(404, reviewMessages.notFound, 'NOT_FOUND');
  if (review.tutor_id !== tutorId) throw new ApiError(403, reviewMessages.tutorAnswers, 'FORBIDDEN');
  // Only an unanswered review takes the answer: two answers racing leave exactly one.
  const updated = await db
    .updateTable('reviews')
    .set({ answer: text, answered_at: new Date(now) })
    .where('id', '=', reviewId)
    .where('answer', 'is', null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    throw new ApiError(409, reviewMessages.answered, 'ALREADY_ANSWERED');
  return toView(await reviewsWithNames(db).where('r.id', '=', reviewId).executeTakeFirstOrThrow());
}

/** A report of a review, with a copy of its text as it was, for the moderation queue. */
export async function reportReview(db: Kysely<DB>, reporterId: string, reviewId: string, reason: string) {
  const review = await db
    .selectFrom('reviews')
    .select(['body'])
    .where('id', '=', reviewId)
    .executeTakeFirst();
  if (!review) throw new ApiError(404, reviewMessages.notFound, 'NOT_FOUND');
  const row = await db
    .insertInto('review_reports')
    .values({ review_id: reviewId, reporter_id: reporterId, reason, review_text: review.body })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id) };
}
