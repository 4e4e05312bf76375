/**
 * A student's seats in a class: one lesson per session not yet started, each holding the class's
 * price on the student's balance as a booked lesson does, and given back (or kept as a late fee)
 * by the same ledger moves. What is said about it is collected as mails, queued in the same
 * transaction by the caller. Also a student's standing as a seat or a waitlist place is written,
 * each in one statement.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { studentTerms } from '../../shared/lessons/cancellation-policy';
import type { DB } from '../db/schema';
import type { MailPerson } from '../lessons/lesson-invitation';
import { lessonPolicyOf, lessonRowColumns } from '../lessons/lesson-records';
import { checkMove } from '../lessons/lifecycle/lesson-moves';
import { bookingPayment, postBookingHold } from '../money/booking-hold';
import { type Booker, withinFamilyLimit } from '../money/family-payer';
import { accounts, lockedBalanceOf } from '../money/ledger';
import { type PaymentRules, releaseAllBut, releaseHold, settleHolds } from '../money/lesson-payments';
import type { MailSeat } from './class-mail';

/** The class row as the changes need it, locked for the change. */
export interface LockedClass {
  id: string;
  tutor_id: string;
  title: string;
  subject: string;
  minutes: number;
  seats: number;
  seats_taken: number;
  min_students: number;
  price_cents: number;
  currency: string;
  status: string;
  decided_at: Date | null;
  /** The tutor's cancellation policy as it is now, which a seat taken keeps (none: the defaults). */
  cancellation_window_hours: number | null;
  late_cancel_fee_percent: number | null;
}

/** The class's row, locked, read with its tutor's cancellation policy in the same statement. */
export const lockClass = (trx: Transaction<DB>, id: string): Promise<LockedClass | undefined> =>
  trx
    .selectFrom('classes as c')
    .leftJoin('tutor_availability as a', 'a.user_id', 'c.tutor_id')
    .select([
      'c.id',
      'c.tutor_id',
      'c.title',
      'c.subject',
      'c.minutes',
      'c.seats',
      'c.seats_taken',
      'c.min_students',
      'c.price_cents',
      'c.currency',
      'c.status',
      'c.decided_at',
      'a.cancellation_window_hours',
      'a.late_cancel_fee_percent',
    ])
    .where('c.id', '=', id)
    .forUpdate('c')
    .executeTakeFirst();

/**
 * The student's seat: their standing set to enrolled and the class's count of seats taken raised,
 * in one statement (the count's constraint still refuses a seat past the last).
 */
export async function seatStudent(
  trx: Transaction<DB>,
  cls: LockedClass,
  studentId: string,
  key: string | null | undefined,
  now: number,
) {
  const at = new Date(now);
  const row = await trx
    .with('counted', (db) =>
      db
        .updateTable('classes')
        .set((eb) => ({ seats_taken: eb('seats_taken', '+', 1), updated_at: at }))
        .where('id', '=', cls.id)
        .returning('seats_taken'),
    )
    .insertInto('class_enrolments')
    .values({
      class_id: cls.id,
      student_id: studentId,
      status: 'enrolled',
      position: null,
      idempotency_key: key ?? null,
      enrolled_at: at,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) =>
      oc
        .columns(['class_id', 'student_id'])
        .doUpdateSet({ status: 'enrolled', position: null, enrolled_at: at, updated_at: at }),
    )
    .returning((eb) => eb.selectFrom('counted').select('seats_taken').as('seats_taken'))
    .executeTakeFirstOrThrow();
  cls.seats_taken = Number(row.seats_taken);
}

/**
 * The student's place at the end of the waitlist, numbered after the last in the same statement
 * (the class's row lock keeps two from taking one number; a unique index refuses it anyway).
 */
export async function joinWaitlist(
  trx: Transaction<DB>,
  classId: string,
  studentId: string,
  key: string | undefined,
  now: number,
): Promise<number> {
  const at = new Date(now);
  const row = await trx
    .insertInto('class_enrolments')
    .columns([
      'class_id',
      'student_id',
      'status',
      'position',
      'idempotency_key',
      'enrolled_at',
      'created_at',
      'updated_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('class_enrolments')
        .select([
          eb.val(classId).as('class_id'),
          eb.val(studentId).as('student_id'),
          eb.val('waitlisted').as('status'),
          sql<number>`coalesce(max(position), 0) + 1`.as('position'),
          eb.val(key ?? null).as('idempotency_key'),
          sql<Date | null>`null::timestamptz`.as('enrolled_at'),
          eb.val(at).as('created_at'),
          eb.val(at).as('updated_at'),
        ])
        .where('class_id', '=', classId)
        .where('status', '=', 'waitlisted'),
    )
    .onConflict((oc) =>
      oc.columns(['class_id', 'student_id']).doUpdateSet((eb) => ({
        status: 'waitlisted',
        position: eb.ref('excluded.position'),
        updated_at: at,
      })),
    )
    .returning('position')
    .executeTakeFirstOrThrow();
  return Number(row.position);
}

/** The class's sessions still to start: what a new seat holds and pays for. */
export const sessionsAhead = (trx: Transaction<DB>, classId: string, now: number) =>
  trx
    .selectFrom('class_sessions')
    .select(['id', 'starts_at', 'ends_at', 'blocked_until'])
    .where('class_id', '=', classId)
    .where('status', '=', 'scheduled')
    .where('starts_at', '>', new Date(now))
    .orderBy('starts_at')
    .execute();
export type AheadSession = Awaited<ReturnType<typeof sessionsAhead>>[number];

/**
 * Whether the payer's balance covers `totalCents` (the balance stays locked until commit) within
 * the monthly limit a parent set, if any.
 */
export async function balanceCovers(
  trx: Transaction<DB>,
  payments: PaymentRules,
  booker: Booker,
  totalCents: number,
  now: number,
) {
  if (!payments.on || totalCents === 0) return true;
  const balance = await lockedBalanceOf(trx, accounts.balance(booker.payerId), payments.currency);
  return balance >= totalCents && (await withinFamilyLimit(trx, booker, totalCents, now));
}

/** Whether the student has a lesson (or another class's seat) at the time of one of these sessions. */
export async function studentBusyAt(trx: Transaction<DB>, studentId: string, sessions: AheadSession[]) {
  if (sessions.length === 0) return false;
  const found = await trx
    .selectFrom('lessons')
    .select('id')
    .where('student_id', '=', studentId)
    .where('status', 'in', ['pending', 'confirmed'])
    .where((eb) =>
      eb.or(
        sessions.map((session) =>
          eb.and([eb('starts_at', '<', session.ends_at), eb('ends_at', '>', session.starts_at)]),
        ),
      ),
    )
    .executeTakeFirst();
  return found !== undefined;
}

/**
 * Seats the student in every session ahead: a confirmed lesson each, its price held. The tutor's
 * cancellation policy as it is now stays with each seat, as with a booked lesson. Each lesson is
 * written with its payment and its hold posted after it, as a booking's is; the database refuses
 * a hold that would take the payer's balance below zero (../money/booking-hold.ts).
 */
export async function takeSeats(
  trx: Transaction<DB>,
  payments: PaymentRules,
  cls: LockedClass,
  booker: Booker,
  sessions: AheadSession[],
  now: number,
): Promise<MailSeat[]> {
  const { studentId } = booker;
  const seats: MailSeat[] = [];
  for (const session of sessions) {
    checkMove('bookInstantly', 'new');
    const row = await trx
      .insertInto('lessons')
      .values({
        id: randomUUID(),
        tutor_id: cls.tutor_id,
        student_id: studentId,
        payer_id: booker.payerId === studentId ? null : booker.payerId,
        class_session_id: session.id,
        subject: cls.subject,
        starts_at: session.starts_at,
        ends_at: session.ends_at,
        blocked_until: session.blocked_until,
        minutes: cls.minutes,
        price_cents: cls.price_cents,
        currency: cls.currency,
        status: 'confirmed',
        cancel_window_hours: cls.cancellation_window_hours ?? 24,
        late_fee_percent: cls.late_cancel_fee_percent ?? 100,
        created_at: new Date(now),
        updated_at: new Date(now),
        ...bookingPayment(payments, cls.price_cents, false),
      })
      .returning([
        'id',
        'student_id',
        'payer_id',
        'tutor_id',
        'subject',
        'minutes',
        'price_cents',
        'currency',
        'sequence',
        'starts_at',
        'ends_at',
        'payment_status',
      ])
      .executeTakeFirstOrThrow();
    await postBookingHold(trx, row, null, now);
    seats.push({ lessonId: row.id, start: row.starts_at, end: row.ends_at, sequence: row.sequence });
  }
  return seats;
}

/**
 * Gives up the student's seats in sessions not yet started. With `policy`, the first follows the
 * cancellation policy it was taken under (inside its window its fee is kept and paid to the tutor,
 * the 15-minute grace after enrolling applies); every other seat is released in full. Answers the
 * seats given up and the fee kept.
 */
export async function giveUpSeats(
  trx: Transaction<DB>,
  classId: string,
  studentId: string,
  by: { actorId: string | null; reason: string | null; policy: boolean; now: number },
): Promise<{ seats: MailSeat[]; fee: number }> {
  const rows = await trx
    .selectFrom('lessons as l')
    .innerJoin('class_sessions as s', 's.id', 'l.class_session_id')
    .select(lessonRowColumns.map((column) => `l.${column}` as const))
    .where('s.class_id', '=', classId)
    .where('l.student_id', '=', studentId)
    .where('l.status', '=', 'confirmed')
    .where('l.starts_at', '>', new Date(by.now))
    .orderBy('l.starts_at')
    .forUpdate()
    .execute();
  let fee = 0;
  const seats: MailSeat[] = [];
  for (const [index, row] of rows.entries()) {
    checkMove(by.actorId === studentId ? 'cancelByStudent' : 'cancelByAdmin', row.status);
    // The next session's fee stays held, to be paid with that session's settlement.
    const kept =
      by.policy && index === 0
        ? await releaseAllBut(trx, row.id, studentTerms(lessonPolicyOf(row), by.now).feeCents, by)
        : 0;
    if (kept === 0) await releaseHold(trx, row.id, { actorId: by.actorId, now: by.now });
    fee += kept;
    const updated = await trx
      .updateTable('lessons')
      .set((eb) => ({
        status: 'cancelled',
        cancelled_by: by.actorId,
        cancel_reason: by.reason,
        cancel_fee_cents: kept,
        sequence: eb('sequence', '+', 1),
        updated_at: new Date(by.now),
      }))
      .where('id', '=', row.id)
      .returning(['id', 'starts_at', 'ends_at', 'sequence'])
      .executeTakeFirstOrThrow();
    seats.push({
      lessonId: updated.id,
      start: updated.starts_at,
      end: updated.ends_at,
      sequence: updated.sequence,
    });
  }
  return { seats, fee };
}

/** A reader of class mails, by id. */
export type People = Map<string, MailPerson>;

/**
 * The fees of seats given up late, each kept in its hold until its session has taken place: paid
 * now to the tutor, less the commission, as that session's other seats were. Safe with several
 * servers: a hold is locked and settled only while it holds something.
 */
export async function settleKeptFees(db: Kysely<DB>, now: number): Promise<number> {
  const due = await db
    .selectFrom('lessons')
    .select('id')
    .where('class_session_id', 'is not', null)
    .where('status', '=', 'cancelled')
    .where('payment_status', '=', 'held')
    .where('ends_at', '<=', new Date(now))
    .orderBy('id')
    .limit(500)
    .execute();
  if (due.length === 0) return 0;
  const ids = due.map((row) => row.id);
  await db.transaction().execute(async (trx) => {
    await settleHolds(trx, ids, now);
    // A fee, as a one-to-one lesson's late cancellation is marked.
    await trx.updateTable('lessons').set({ payment_status: 'fee' }).where('id', 'in', ids).execute();
  });
  return ids.length;
}
