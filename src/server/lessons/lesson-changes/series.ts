/**
 * Weekly series: a student books the same lesson every week for 2 to 26 weeks in one request. Each
 * week is an ordinary lesson (its own id, hold, mails when it changes); the series ties them
 * together for booking, for the tutor's one answer to a request, and for calling off the rest.
 * Weeks whose time is not offered are skipped and said why; the first must be offered.
 */
import { randomUUID } from 'node:crypto';
import { minorPerUnit } from '../../../shared/amounts';
import { lessonPriceCents } from '../../../shared/lessons/lesson-price';
import { isPlanned } from '../../../shared/lessons/lesson-states';
import { type SkipReason, weeklyStarts } from '../../../shared/lessons/series';
import { ApiError } from '../../http/api-error';
import { type Booker, checkFamilyLimit } from '../../money/family-payer';
import { checkBalanceCovers } from '../../money/lesson-payments';
import { packageCreditsFor, previewPackageCredits } from '../../money/package-credits';
import type { Listing } from '../../platform/tutor-listing';
import { type LessonDeps, type Lines, pushLines } from '../lesson-announcements';
import { findLesson } from '../lesson-queries';
import { type Db, type LessonView, lessonMessages, lessonRowColumns, statusAt } from '../lesson-records';
import { answerWeeksMove, expireDue } from '../lifecycle/answer-moves';
import { bookWeeksMove, type NewLesson } from '../lifecycle/booking-moves';
import { bookableTutor, checkLength, judgeStarts } from '../slots';
import { cancelLesson } from './cancel';
import { isOverlap, lockPeople } from './lesson-change';

export const seriesMessages = {
  notFound: /*i18n*/ 'This series of lessons does not exist',
  nothingPending: /*i18n*/ 'No lesson of this series is waiting for an answer',
} as const;

export interface SkippedWeek {
  /** ISO 8601 UTC. */
  start: string;
  reason: SkipReason;
}

export interface SeriesRequest {
  studentId: string;
  /** Who pays (a parent for their child) and the limit that applies; without it the student pays. */
  booker?: Booker | undefined;
  tutorId: string;
  start: number;
  minutes: number;
  subject: string;
  repeatWeeks: number;
  note?: string | undefined;
  idempotencyKey?: string | undefined;
  now: number;
}

const iso = (at: number) => new Date(at).toISOString();

/** The tutor as a series needs them, checked as a single booking checks them. */
async function seriesTutor(deps: LessonDeps & { listing: Listing }, request: Omit<SeriesRequest, 'now'>) {
  const tutor = await bookableTutor(deps.db, request.tutorId, deps.listing);
  if (!tutor || tutor.hourly_rate === null)
    throw new ApiError(404, lessonMessages.tutorNotFound, 'NOT_FOUND');
  checkLength(tutor.availability, request.minutes);
  if (!tutor.subjects.includes(request.subject))
    throw new ApiError(
      400,
      { text: /*i18n*/ 'Please choose a subject {name} teaches', values: { name: tutor.display_name } },
      'VALIDATION_ERROR',
    );
  return { ...tutor, hourly_rate: tutor.hourly_rate };
}

type SeriesTutor = Awaited<ReturnType<typeof seriesTutor>>;

/** Which weeks are offered and which are skipped, why; 409 when the first is not offered. */
async function planWeeks(
  db: Db,
  tutor: SeriesTutor,
  request: Pick<SeriesRequest, 'studentId' | 'tutorId' | 'start' | 'minutes' | 'repeatWeeks' | 'now'>,
) {
  const starts = weeklyStarts(request.start, request.repeatWeeks, tutor.availability.timeZone);
  const judged = await judgeStarts(db, tutor.availability, { ...request, starts });
  if (judged[0]?.reason !== null) throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
  const offered = judged.filter((week) => week.reason === null).map((week) => week.start);
  const skipped = judged.flatMap((week): SkippedWeek[] =>
    week.reason === null ? [] : [{ start: iso(week.start), reason: week.reason }],
  );
  return { offered, skipped };
}

/** What GET /api/lessons/preview-series answers: the weeks a booking would make, and those it would skip. */
export async function previewSeries(
  deps: LessonDeps & { listing: Listing },
  request: Omit<SeriesRequest, 'subject' | 'note' | 'idempotencyKey'>,
) {
  const tutor = await bookableTutor(deps.db, request.tutorId, deps.listing);
  if (!tutor || tutor.hourly_rate === null)
    throw new ApiError(404, lessonMessages.tutorNotFound, 'NOT_FOUND');
  checkLength(tutor.availability, request.minutes);
  const { offered, skipped } = await planWeeks(
    deps.db,
    { ...tutor, hourly_rate: tutor.hourly_rate },
    request,
  );
  const priceCents = lessonPriceCents(
    tutor.hourly_rate,
    request.minutes,
    minorPerUnit(deps.payments.currency),
  );
  // The weeks a package would pay cost its price, as the booking would make them.
  // Read without a lock: a preview must not make the student's bookings wait.
  const credits = await previewPackageCredits(deps.db, deps.payments, request, offered.length);
  const totalCents = credits.reduce((sum, credit) => sum + (credit ? credit.perLessonCents : priceCents), 0);
  return {
    lessons: offered.map((start) => ({ start: iso(start), end: iso(start + request.minutes * 60_000) })),
    skipped,
    price: { amountCents: priceCents, currency: deps.payments.currency },
    total: { amountCents: totalCents, currency: deps.payments.currency },
  };
}

/** A series as the API gives it: its lessons as the caller sees them, by start. */
export interface SeriesView {
  id: string;
  lessons: LessonView[];
}

async function seriesView(db: Db, userId: string, seriesId: string, now: number): Promise<SeriesView> {
  const rows = await db
    .selectFrom('lessons')
    .select('id')
    .where('series_id', '=', seriesId)
    .orderBy('starts_at')
    .orderBy('id')
    .execute();
  const lessons: LessonView[] = [];
  for (const row of rows) lessons.push(await findLesson(db, userId, row.id, now));
  return { id: seriesId, lessons };
}

/** The series its first week's Idempotency-Key made, for a retry. */
async function replayedSeries(db: Db, studentId: string, key: string | undefined, now: number) {
  if (!key) return undefined;
  const found = await db
    .selectFrom('lessons')
    .select('series_id')
    .where('student_id', '=', studentId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  if (!found?.series_id) return undefined;
  return seriesView(db, studentId, found.series_id, now);
}

/**
 * Books a weekly series in one transaction: every offered week is a lesson, each week's price held
 * from the student's package while its credits last, else from the balance (which must cover the
 * rest, or nothing is booked). Two series sent at once for the same times meet the lessons
 * table's exclusion constraints: the second is refused whole.
 */
export async function bookSeries(
  deps: LessonDeps & { listing: Listing },
  request: SeriesRequest,
): Promise<{ series: SeriesView & { skipped: SkippedWeek[] }; created: boolean }> {
  const { db } = deps;
  const { now } = request;
  const earlier = await replayedSeries(db, request.studentId, request.idempotencyKey, now);
  if (earlier) return { series: { ...earlier, skipped: [] }, created: false };
  const tutor = await seriesTutor(deps, request);
  const seriesId = randomUUID();
  const lines: Lines = [];
  let skipped: SkippedWeek[] = [];
  try {
    await db.transaction().execute(async (trx) => {
      // Before any lock on the student's money (see lockPeople for the order).
      await lockPeople(trx, request.tutorId, request.studentId, request.booker?.payerId);
      await expireDue(deps, trx, now, lines, [request.tutorId, request.studentId]);
      const plan = await planWeeks(trx, tutor, request);
      skipped = plan.skipped;
      const instant = tutor.availability.instantBooking;
      const priceCents = lessonPriceCents(
        tutor.hourly_rate,
        request.minutes,
        minorPerUnit(deps.payments.currency),
      );
      // A package for this tutor and length pays the first weeks its credits cover, at its own
      // price, as it would for single bookings; the balance pays the rest. Both stay locked until
      // every week and its hold commit.
      const credits = await packageCreditsFor(trx, deps.payments, request, plan.offered.length);
      const fromBalance = credits.filter((credit) => credit === null).length;
      const payerId = request.booker?.payerId ?? request.studentId;
      await checkBalanceCovers(trx, deps.payments, payerId, priceCents * fromBalance);
      if (request.booker && deps.payments.on)
        await checkFamilyLimit(trx, request.booker, priceCents * fromBalance, deps.payments.currency, now);
      await trx
        .insertInto('lesson_series')
        .values({
          id: seriesId,
          tutor_id: request.tutorId,
          student_id: request.studentId,
          weeks: request.repeatWeeks,
          created_at: new Date(now),
        })
        .execute();
      const weeks = plan.offered.map((start, week) => {
        const end = start + request.minutes * 60_000;
        const credit = credits[week] ?? null;
        const lesson: NewLesson = {
          id: randomUUID(),
          series_id: seriesId,
          tutor_id: request.tutorId,
          student_id: request.studentId,
          payer_id: payerId === request.studentId ? null : payerId,
          subject: request.subject,
          note: request.note ?? '',
          starts_at: new Date(start),
          ends_at: new Date(end),
          minutes: request.minutes,
          trial: false,
          blocked_until: new Date(end + tutor.availability.bufferMinutes * 60_000),
          price_cents: credit ? credit.perLessonCents : priceCents,
          currency: deps.payments.currency,
          // The first week carries the key: a retry finds the series through it.
          idempotency_key: week === 0 ? (request.idempotencyKey ?? null) : null,
          // Every week keeps the tutor's policy as it is at booking, as a single lesson does.
          cancel_window_hours: tutor.availability.cancellationWindowHours,
          late_fee_percent: tutor.availability.lateCancelFeePercent,
          created_at: new Date(now),
          updated_at: new Date(now),
        };
        return { lesson, credit };
      });
      const skippedStarts = plan.skipped.map((week) => new Date(week.start));
      await bookWeeksMove(deps, trx, lines, weeks, {
        instant,
        now,
        skipped: skippedStarts,
        bookedBy: request.booker?.actorId ?? request.studentId,
      });
    });
  } catch (error) {
    const made = await replayedSeries(db, request.studentId, request.idempotencyKey, now);
    if (made) return { series: { ...made, skipped: [] }, created: false };
    if (isOverlap(error)) throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
    throw error;
  }
  deps.mailer.deliverSoon();
  await pushLines(deps, lines);
  return { series: { ...(await seriesView(db, request.studentId, seriesId, now)), skipped }, created: true };
}

/** The series' people, or 404 for anyone else (`tutorOnly`: 404 for its student too). */
async function seriesFor(db: Db, userId: string, seriesId: string, tutorOnly: boolean) {
  const series = await db
    .selectFrom('lesson_series')
    .select(['id', 'tutor_id', 'student_id'])
    .where('id', '=', seriesId)
    .executeTakeFirst();
  const allowed = series && (series.tutor_id === userId || (!tutorOnly && series.student_id === userId));
  if (!allowed) throw new ApiError(404, seriesMessages.notFound, 'NOT_FOUND');
  return series;
}

/** A series as one of its people sees it, or 404. */
export async function findSeries(db: Db, userId: string, seriesId: string, now: number) {
  await seriesFor(db, userId, seriesId, false);
  return seriesView(db, userId, seriesId, now);
}

/**
 * The tutor's one answer to a series request: every week still waiting (not expired, not started)
 * is confirmed, or declined with its hold given back, in one transaction and told in one mail.
 */
export async function answerSeries(
  deps: LessonDeps,
  userId: string,
  seriesId: string,
  answer: 'accept' | 'decline',
  now: number,
): Promise<SeriesView> {
  await seriesFor(deps.db, userId, seriesId, true);
  const lines: Lines = [];
  await deps.db.transaction().execute(async (trx) => {
    const locked = await trx
      .selectFrom('lessons')
      .select(lessonRowColumns)
      .where('series_id', '=', seriesId)
      .orderBy('starts_at')
      .forUpdate()
      .execute();
    const waiting = locked.filter((row) => statusAt(row, now) === 'pending' && row.starts_at.getTime() > now);
    if (waiting.length === 0) throw new ApiError(409, seriesMessages.nothingPending, 'NOT_PENDING');
    await answerWeeksMove(deps, trx, lines, waiting, answer, { actorId: userId, now });
  });
  deps.mailer.deliverSoon();
  await pushLines(deps, lines);
  return seriesView(deps.db, userId, seriesId, now);
}

/** A week the series' cancel left standing, and why (the single-lesson rule that kept it). */
export interface KeptWeek {
  lessonId: string;
  code: string;
  message: string;
}

/**
 * Calls off every week of the series that has not started, each through the single-lesson cancel
 * (its own transaction, its rules, its money and mails), so whatever that rule decides for one
 * lesson it decides for each week: a week inside the tutor's window is cancelled with its late fee,
 * and a week it refuses (one that started or changed meanwhile) stays and is listed in `kept`.
 */
export async function cancelSeries(
  deps: LessonDeps,
  userId: string,
  seriesId: string,
  reason: string | undefined,
  now: number,
): Promise<SeriesView & { kept: KeptWeek[] }> {
  await seriesFor(deps.db, userId, seriesId, false);
  const upcoming = await deps.db
    .selectFrom('lessons')
    .select(['id', 'status', 'expires_at', 'ends_at', 'starts_at'])
    .where('series_id', '=', seriesId)
    .where('starts_at', '>', new Date(now))
    .orderBy('starts_at')
    .execute();
  const kept: KeptWeek[] = [];
  for (const lesson of upcoming) {
    if (!isPlanned(statusAt(lesson, now))) continue;
    try {
      await cancelLesson(deps, userId, lesson.id, reason, now);
    } catch (error) {
      // Refused by the lesson's own rules (or changed meanwhile): it stays, and the rest go on.
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      kept.push({ lessonId: lesson.id, code: error.code ?? 'CONFLICT', message: error.message });
    }
  }
  return { ...(await seriesView(deps.db, userId, seriesId, now)), kept };
}
