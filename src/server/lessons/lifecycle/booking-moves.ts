/**
 * A lesson's first moves: booked as a request waiting for the tutor, or confirmed at once. The row
 * is written and its price held in the booking's transaction, from the package whose credit pays
 * for it, else from the student's balance (which the booking checked covers it).
 */
import type { Insertable, Transaction } from 'kysely';
import { requestExpiresAt } from '../../../shared/lessons/availability';
import type { DB } from '../../db/schema';
import { bookingPayment, postBookingHold } from '../../money/booking-hold';
import type { PackageCredit } from '../../money/package-credits';
import {
  announce,
  announceSeries,
  type KnownPeople,
  type LessonDeps,
  type Lines,
} from '../lesson-announcements';
import { type LessonRow, lessonRowColumns } from '../lesson-records';
import { checkMove } from './lesson-moves';

/** A lesson about to be booked: everything but what the move decides (its status and deadline). */
export type NewLesson = Omit<
  Insertable<DB['lessons']>,
  'status' | 'expires_at' | 'payment_status' | 'commission_percent'
> & {
  id: string;
  starts_at: Date;
};

interface Booking {
  /** Confirmed at once (the tutor's instant booking), else a request. */
  instant: boolean;
  /** The package credit that pays for it; null when the balance does. */
  credit: PackageCredit | null;
  now: number;
  /** Who booked it (the student, or the parent for their child): a child's parent hears of a child's booking. */
  bookedBy?: string | null | undefined;
  /** The lesson's people as the booking read them, so that its mails read nothing more. */
  people?: KnownPeople | undefined;
}

/** Writes the lesson and holds its price; its mail is the caller's. */
async function writeBooking(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lesson: NewLesson,
  booking: Booking,
): Promise<LessonRow> {
  const { instant, credit, now } = booking;
  checkMove(instant ? 'bookInstantly' : 'request', 'new');
  const row = await trx
    .insertInto('lessons')
    .values({
      ...lesson,
      package_id: credit?.packageId ?? null,
      status: instant ? 'confirmed' : 'pending',
      expires_at: instant ? null : new Date(requestExpiresAt(now, lesson.starts_at.getTime())),
      ...bookingPayment(deps.payments, lesson.price_cents, credit !== null),
    })
    .returning(lessonRowColumns)
    .executeTakeFirstOrThrow();
  // From the parent's balance when a parent pays (the row carries its payer), as the balance check
  // before it assumed.
  await postBookingHold(trx, row, credit, now);
  return row;
}

/** Books one lesson: confirmed (an invitation to both), or a request the tutor is told of. */
export async function bookMove(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  lesson: NewLesson,
  booking: Booking,
): Promise<LessonRow> {
  const row = await writeBooking(deps, trx, lesson, booking);
  const bookedBy = booking.bookedBy ?? null;
  const known = booking.people && {
    people: booking.people,
    commissionPercent: bookingPayment(deps.payments, row.price_cents, booking.credit !== null)
      .commission_percent,
  };
  if (booking.instant)
    await announce(deps, trx, lines, row, 'confirmed', 'both', { invitation: 'REQUEST', bookedBy }, known);
  else await announce(deps, trx, lines, row, 'requested', 'tutor', { bookedBy }, known);
  return row;
}

/**
 * Books a series' weeks, each paid by its credit in `credits` (same order) or by the balance, and
 * tells of them in one mail, with the weeks skipped.
 */
export async function bookWeeksMove(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  weeks: { lesson: NewLesson; credit: PackageCredit | null }[],
  booking: Omit<Booking, 'credit'> & { skipped: Date[] },
): Promise<LessonRow[]> {
  const rows: LessonRow[] = [];
  for (const week of weeks)
    rows.push(await writeBooking(deps, trx, week.lesson, { ...booking, credit: week.credit }));
  const bookedBy = booking.bookedBy ?? null;
  if (booking.instant)
    await announceSeries(deps, trx, lines, rows, 'confirmed', 'both', booking.skipped, bookedBy);
  else await announceSeries(deps, trx, lines, rows, 'requested', 'tutor', booking.skipped, bookedBy);
  return rows;
}
