/**
 * Booking: a student asks for a time the tutor offers. With instant booking it is confirmed at
 * once, else it waits for the tutor's answer until its deadline. An Idempotency-Key makes a retry
 * safe: it gets the lesson its first attempt made.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { minorPerUnit } from '../../../shared/amounts';
import { lessonPriceCents } from '../../../shared/lessons/lesson-price';
import { trialPriceCents } from '../../../shared/lessons/trials';
import type { DB } from '../../db/schema';
import { ApiError } from '../../http/api-error';
import { isBelowZero, missingFor } from '../../money/booking-hold';
import { type Booker, checkFamilyLimit } from '../../money/family-payer';
import { checkBalanceCovers, insufficientBalance } from '../../money/lesson-payments';
import { packageCreditFor } from '../../money/package-credits';
import type { Listing } from '../../platform/tutor-listing';
import { type LessonDeps, type Lines, pushLines } from '../lesson-announcements';
import { findLesson } from '../lesson-queries';
import { type Db, type LessonView, lessonMessages, toView } from '../lesson-records';
import { expireDue } from '../lifecycle/answer-moves';
import { bookMove } from '../lifecycle/booking-moves';
import { bookableTutor, checkLength } from '../slots';
import { hadLessonWith } from '../trials';
import { bookingFacts } from './booking-checks';
import { isOverlap, lockPeople } from './lesson-change';

const isUniqueViolation = (error: unknown, constraint: string) => {
  const failure = error as { code?: string; constraint?: string } | null;
  return failure?.code === '23505' && failure.constraint === constraint;
};
const isIdempotencyReplay = (error: unknown) => isUniqueViolation(error, 'lessons_student_idempotency_key');
/** A second trial of a student with a tutor, refused by the database (migration 0016). */
const isSecondTrial = (error: unknown) => isUniqueViolation(error, 'lessons_one_trial_idx');

const trialTaken = () => new ApiError(409, lessonMessages.trialTaken, 'TRIAL_TAKEN');

export interface BookingRequest {
  studentId: string;
  /** Who pays (a parent for their child) and the limit that applies; without it the student pays. */
  booker?: Booker | undefined;
  tutorId: string;
  start: number;
  minutes: number;
  subject: string;
  /** The student's one trial with this tutor: its minutes are then TRIAL_MINUTES. */
  trial?: boolean | undefined;
  /** The student's package to pay with (else one that applies is found, or the balance pays). */
  packageId?: string | undefined;
  note?: string | undefined;
  idempotencyKey?: string | undefined;
  now: number;
}

async function replayed(db: Db, studentId: string, key: string | undefined, now: number) {
  if (!key) return undefined;
  const found = await db
    .selectFrom('lessons')
    .select('id')
    .where('student_id', '=', studentId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return found ? findLesson(db, studentId, found.id, now) : undefined;
}

/** Books a lesson: `created` is false when an earlier request with the same key made it. */
export async function bookLesson(
  // Required here, though other changes need no listing: booking finds a tutor for a student.
  deps: LessonDeps & { listing: Listing },
  request: BookingRequest,
): Promise<{ lesson: LessonView; created: boolean }> {
  const { db } = deps;
  const { now } = request;
  const earlier = await replayed(db, request.studentId, request.idempotencyKey, now);
  if (earlier) return { lesson: earlier, created: false };

  const tutor = await bookableTutor(db, request.tutorId, deps.listing);
  if (!tutor) throw new ApiError(404, lessonMessages.tutorNotFound, 'NOT_FOUND');
  const trial = request.trial === true;
  if (trial && !tutor.availability.trial.offered)
    throw new ApiError(409, lessonMessages.trialNotOffered, 'TRIAL_NOT_OFFERED');
  // A trial's length is its own; the tutor's lengths are for the lessons after it.
  if (!trial) checkLength(tutor.availability, request.minutes);
  if (!tutor.subjects.includes(request.subject))
    throw new ApiError(
      400,
      { text: /*i18n*/ 'Please choose a subject {name} teaches', values: { name: tutor.display_name } },
      'VALIDATION_ERROR',
    );
  if (tutor.hourly_rate === null) throw new ApiError(404, lessonMessages.tutorNotFound, 'NOT_FOUND');
  const hourlyRate = tutor.hourly_rate;

  const id = randomUUID();
  let lines: Lines = [];
  /** The lesson as the last attempt wrote it, with its people's names: the answer, read no more. */
  let answer: LessonView | undefined;
  /** What the last attempt takes from the payer's balance, when the balance pays. */
  let fromBalance: { payerId: string; priceCents: number } | undefined;
  /**
   * One attempt in a transaction. `careful`: the payer's balance is locked and checked before the
   * lesson is written, as a parent's monthly limit needs; otherwise the hold's own write takes the
   * lock, and the database refuses a balance taken below zero (the booking then answers what is
   * missing, or is tried carefully when the balance has come to cover it meanwhile).
   */
  const attempt = (connection: Kysely<DB>, careful: boolean) =>
    connection.transaction().execute(async (trx) => {
      lines = [];
      // Before any lock on the student's money (see lockPeople for the order).
      const people = await lockPeople(trx, request.tutorId, request.studentId, request.booker?.payerId);
      const facts = await bookingFacts(trx, tutor.availability, {
        tutorId: request.tutorId,
        studentId: request.studentId,
        start: request.start,
        minutes: request.minutes,
        now,
        packages: deps.payments.on && !trial && request.packageId === undefined,
      });
      if (facts.due) await expireDue(deps, trx, now, lines, [request.tutorId, request.studentId]);
      // Only before any other lesson with the tutor. Two trials sent at once may both pass this
      // check; the database's unique index then refuses the second (caught below).
      if (trial && (await hadLessonWith(trx, request.studentId, request.tutorId, now))) throw trialTaken();
      if (!facts.offered) throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
      const instant = tutor.availability.instantBooking;
      const end = request.start + request.minutes * 60_000;
      // A package's credit pays first, at its own price; its row is locked until the booking
      // commits, so of bookings sent at once each sees the credits the others left.
      const credit =
        facts.packages || request.packageId !== undefined
          ? await packageCreditFor(trx, deps.payments, {
              studentId: request.studentId,
              tutorId: request.tutorId,
              tutorName: tutor.display_name,
              minutes: request.minutes,
              trial,
              packageId: request.packageId,
            })
          : null;
      const priceCents = credit
        ? credit.perLessonCents
        : trial
          ? trialPriceCents(tutor.availability.trial, hourlyRate, deps.payments.currency)
          : lessonPriceCents(hourlyRate, request.minutes, minorPerUnit(deps.payments.currency));
      const payerId = request.booker?.payerId ?? request.studentId;
      fromBalance = credit ? undefined : { payerId, priceCents };
      const limited = deps.payments.on && request.booker?.parent?.monthlyLimitCents != null;
      if (!credit && (careful || limited)) {
        // The balance is locked from here until the lesson and its hold commit: of bookings sent
        // at once, each sees what the others left.
        await checkBalanceCovers(trx, deps.payments, payerId, priceCents);
        // With the payer's balance locked: a limit a parent set is settled like the balance is.
        if (request.booker && deps.payments.on)
          await checkFamilyLimit(trx, request.booker, priceCents, deps.payments.currency, now);
      }
      const row = await bookMove(
        deps,
        trx,
        lines,
        {
          id,
          tutor_id: request.tutorId,
          student_id: request.studentId,
          payer_id: payerId === request.studentId ? null : payerId,
          subject: request.subject,
          note: request.note ?? '',
          starts_at: new Date(request.start),
          ends_at: new Date(end),
          minutes: request.minutes,
          trial,
          blocked_until: new Date(end + tutor.availability.bufferMinutes * 60_000),
          price_cents: priceCents,
          currency: deps.payments.currency,
          idempotency_key: request.idempotencyKey ?? null,
          // The tutor's policy as it is now stays with the lesson: a later change is for later bookings.
          cancel_window_hours: tutor.availability.cancellationWindowHours,
          late_fee_percent: tutor.availability.lateCancelFeePercent,
          created_at: new Date(now),
          updated_at: new Date(now),
        },
        { instant, credit, now, bookedBy: request.booker?.actorId ?? request.studentId, people },
      );
      // A one-to-one lesson, so no class to name; the names are those read with the lock.
      const tutorName = people.people.get(request.tutorId)?.displayName;
      const studentName = people.people.get(request.studentId)?.displayName;
      answer =
        tutorName === undefined || studentName === undefined
          ? undefined
          : toView({ ...row, tutor_name: tutorName, student_name: studentName }, now);
    });
  try {
    // On one connection: what follows a refusal does not queue for the pool again behind others.
    await db.connection().execute(async (connection) => {
      try {
        await attempt(connection, false);
      } catch (error) {
        if (!isBelowZero(error) || !fromBalance) throw error;
        // The database refused the hold for the balance: told what is missing, as the careful
        // check tells it; or, when the balance covers it by now, booked carefully.
        const missing = await missingFor(connection, fromBalance.payerId, fromBalance.priceCents);
        if (missing > 0) throw insufficientBalance(missing, deps.payments.currency);
        await attempt(connection, true);
      }
    });
  } catch (error) {
    // A retry that raced its own first attempt finds the time taken, by the lesson it asked for.
    const refused =
      isOverlap(error) || isIdempotencyReplay(error) || isSecondTrial(error) || error instanceof ApiError;
    const made = refused ? await replayed(db, request.studentId, request.idempotencyKey, now) : undefined;
    if (made) return { lesson: made, created: false };
    if (isOverlap(error)) throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
    if (isSecondTrial(error)) throw trialTaken();
    throw error;
  }
  deps.mailer.deliverSoon();
  await pushLines(deps, lines);
  return { lesson: answer ?? (await findLesson(db, request.studentId, id, now)), created: true };
}
