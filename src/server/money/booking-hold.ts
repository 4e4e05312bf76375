/**
 * What a booking does with its lesson's money when it writes the lesson (./lesson-payments.ts says
 * what each later step does): the payment written with the lesson's row, the hold posted without
 * locking the balance first (the database refuses a balance below zero), and what the person is
 * told is missing when it does.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB, LessonPaymentStatus } from '../db/schema';
import { accounts, balanceOf } from './ledger';
import { lessonMemo, type PaidLesson, type PaymentRules, payerOf, postHold } from './lesson-payments';

/**
 * What a lesson being booked is written with: its price held (from a package's credit, or from the
 * payer's balance when payments are on and it is not free) at the school's commission now, or
 * nothing held. Written with the lesson's row, so its hold needs no second write to it.
 */
export function bookingPayment(rules: PaymentRules, priceCents: number, byPackage: boolean) {
  return byPackage || (rules.on && priceCents > 0)
    ? { payment_status: 'held' as const, commission_percent: rules.commissionPercent }
    : { payment_status: 'none' as const, commission_percent: null };
}

/**
 * A just-booked lesson's hold, its row written as bookingPayment says: one lesson's price from the
 * package whose credit pays for it, else the price from the payer's balance. The database refuses
 * a balance taken below zero (the booking checked it covers the price, or answers that refusal).
 */
export async function postBookingHold(
  trx: Transaction<DB>,
  lesson: PaidLesson & { payment_status: LessonPaymentStatus },
  credit: { packageId: string; perLessonCents: number } | null,
  now: number,
) {
  if (lesson.payment_status !== 'held') return;
  const from = credit
    ? accounts.package(credit.packageId, lesson.student_id)
    : accounts.balance(payerOf(lesson));
  const amountCents = credit ? credit.perLessonCents : lesson.price_cents;
  await postHold(
    trx,
    lesson,
    from,
    amountCents,
    credit ? `${lessonMemo(lesson)}, from a package` : lessonMemo(lesson),
    now,
  );
}

/** Whether a write failed because it would take a balance, a hold or a package below zero. */
export const isBelowZero = (error: unknown) => {
  const failure = error as { code?: string; constraint?: string } | null;
  return failure?.code === '23514' && failure.constraint === 'ledger_entries_never_negative';
};

/**
 * What a payer's balance lacks of `priceCents` now (read without a lock): after the database
 * refused a hold for taking the balance below zero, what the person is told is missing.
 */
export async function missingFor(db: Kysely<DB>, payerId: string, priceCents: number) {
  return priceCents - (await balanceOf(db, accounts.balance(payerId).id));
}
