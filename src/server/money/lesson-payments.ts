/**
 * What a lesson's money does at each step of the lesson, always inside the transaction that
 * changes the lesson, so the two commit together:
 * - booked (instantly or as a request): its price moves from the student's balance to its hold;
 * - booked with a package's credit (./packages.ts): one lesson's price moves from the package's
 *   account to its hold instead, at the price fixed when the package was bought;
 * - declined, expired, cancelled under the rules, or cancelled by a suspension: the hold goes
 *   back in full to where it came from (the balance, or the package while it is active);
 * - completed, or its student marked a no-show: the hold is settled, the commission to the
 *   school's revenue and the rest to the tutor's payable;
 * - cancelled late by its student: the fee is settled like a lesson (the commission to the
 *   school, the rest to the tutor) and the rest of the hold goes back to the student;
 * - refunded by an admin: whatever it moved is moved back to the student.
 *
 * Only the lesson's lifecycle (src/server/lessons/lifecycle) calls these, in the move that
 * changes the lesson; the demo's history is the one other writer.
 *
 * Each step moves whatever the hold holds at that moment, keyed by the lesson, so a step taken
 * twice (two servers' jobs, a retry) moves nothing the second time, and a lesson booked while
 * payments were off (nothing held) passes through every step untouched.
 */
import { sql, type Transaction } from 'kysely';
import { formatAmount } from '../../shared/amounts';
import type { DB, LessonPaymentStatus } from '../db/schema';
import { ApiError, type ErrorText } from '../http/api-error';
import { type AccountRef, accounts, balanceOf, commissionOf, lockedBalanceOf, post, postAll } from './ledger';
import { releaseAccountFor } from './package-credits';

/** How this school takes money for lessons (src/server/config). */
export interface PaymentRules {
  on: boolean;
  currency: string;
  commissionPercent: number;
}

export const paymentMessages = {
  insufficient: (cents: number, currency: string): ErrorText => ({
    text: /*i18n*/ "Your balance is {missing} short of this lesson's price. Please top up your wallet first.",
    values: (locale) => ({ missing: formatAmount(cents, currency, { locale }) }),
  }),
  nothingToRefund: /*i18n*/ 'This lesson has no payment to refund',
} as const;

export interface PaidLesson {
  id: string;
  student_id: string;
  /** The parent whose wallet pays for a child's lesson (migration 0038); null when the student pays. */
  payer_id?: string | null;
  tutor_id: string;
  subject: string;
  minutes: number;
  price_cents: number;
  currency: string;
}

/** Whose balance a lesson's price comes from and goes back to: the paying parent's, else the student's. */
export const payerOf = (lesson: { student_id: string; payer_id?: string | null }) =>
  lesson.payer_id ?? lesson.student_id;

export const lessonMemo = (lesson: Pick<PaidLesson, 'subject' | 'minutes'>) =>
  `${lesson.subject} lesson (${lesson.minutes} min)`;

async function markPayment(trx: Transaction<DB>, lessonId: string, status: LessonPaymentStatus) {
  await trx.updateTable('lessons').set({ payment_status: status }).where('id', '=', lessonId).execute();
}

/**
 * Checks, before a lesson is written, that the payer's balance (the student's, or the parent's who
 * pays for them) covers its price, and keeps the balance locked until the booking commits: 409
 * INSUFFICIENT_BALANCE with the amount missing.
 */
export async function checkBalanceCovers(
  trx: Transaction<DB>,
  rules: PaymentRules,
  payerId: string,
  priceCents: number,
) {
  if (!rules.on || priceCents === 0) return;
  const balance = await lockedBalanceOf(trx, accounts.balance(payerId), rules.currency);
  if (balance >= priceCents) return;
  throw insufficientBalance(priceCents - balance, rules.currency);
}

/** 409 INSUFFICIENT_BALANCE, with the amount missing. */
export const insufficientBalance = (missingCents: number, currency: string) =>
  new ApiError(409, paymentMessages.insufficient(missingCents, currency), 'INSUFFICIENT_BALANCE', {
    needed: { amountCents: missingCents, currency },
  });

/** Posts a lesson's hold: `amountCents` from the account that pays it into the lesson's hold. */
export async function postHold(
  trx: Transaction<DB>,
  lesson: PaidLesson,
  from: AccountRef,
  amountCents: number,
  memo: string,
  now: number,
) {
  await post(trx, {
    kind: 'lesson_hold',
    key: `lesson:${lesson.id}:hold`,
    currency: lesson.currency,
    lessonId: lesson.id,
    actorId: lesson.student_id,
    memo,
    entries: [
      { account: from, amountCents: -amountCents },
      { account: accounts.hold(lesson.id), amountCents },
    ],
    now,
  });
}

/** Moves a just-booked lesson's price from the payer's balance to its hold. */
export async function holdPrice(trx: Transaction<DB>, rules: PaymentRules, lesson: PaidLesson, now: number) {
  if (!rules.on || lesson.price_cents === 0) return;
  await postHold(trx, lesson, accounts.balance(payerOf(lesson)), lesson.price_cents, lessonMemo(lesson), now);
  await trx
    .updateTable('lessons')
    .set({ payment_status: 'held', commission_percent: rules.commissionPercent })
    .where('id', '=', lesson.id)
    .execute();
}

async function lessonFor(trx: Transaction<DB>, lessonId: string) {
  return trx
    .selectFrom('lessons')
    .select([
      'id',
      'student_id',
      'payer_id',
      'tutor_id',
      'subject',
      'minutes',
      'price_cents',
      'currency',
      'commission_percent',
      'payment_status',
      'package_id',
    ])
    .where('id', '=', lessonId)
    .executeTakeFirstOrThrow();
}

/**
 * Gives what a lesson's hold holds back to where it came from (declined, expired, cancelled): the
 * package that paid for it while that package is active, else the student's balance. A fee taken
 * from the hold first leaves the rest to go back.
 */
export async function releaseHold(
  trx: Transaction<DB>,
  lessonId: string,
  by: { actorId: string | null; now: number },
) {
  const lesson = await lessonFor(trx, lessonId);
  // The package's row before any ledger account, in the order a booking and an ending lock them.
  const back = await releaseAccountFor(trx, lesson);
  const held = await lockedBalanceOf(trx, accounts.hold(lesson.id), lesson.currency);
  if (held <= 0) return;
  await postRelease(trx, lesson, back, held, by, lessonMemo(lesson));
  await markPayment(trx, lesson.id, 'released');
}

/** Moves `amountCents` of a lesson's hold back to `back`, where the price came from. */
function postRelease(
  trx: Transaction<DB>,
  lesson: { id: string; currency: string },
  back: AccountRef,
  amountCents: number,
  by: { actorId: string | null; now: number },
  memo: string,
) {
  return post(trx, {
    kind: 'lesson_release',
    key: `lesson:${lesson.id}:release`,
    currency: lesson.currency,
    lessonId: lesson.id,
    actorId: by.actorId,
    memo,
    entries: [
      { account: accounts.hold(lesson.id), amountCents: -amountCents },
      { account: back, amountCents },
    ],
    now: by.now,
  });
}

/**
 * Settles what each lesson's hold holds (a lesson that took place, or whose student did not come):
 * the commission stored on the lesson to the school, the rest to the tutor.
 */
export async function settleHold(trx: Transaction<DB>, lessonId: string, now: number) {
  await settleHolds(trx, [lessonId], now);
}

/** Lessons settled per round of statements: one parameter each in its lists. */
const SETTLED_PER_ROUND = 5_000;

/**
 * settleHold for many lessons at once, as the minute job settles every lesson that ended in the
 * same minute: a few statements for all of them rather than a few for each. The holds are locked
 * in name order before they are read, as a single settlement locks its one.
 */
export async function settleHolds(trx: Transaction<DB>, lessonIds: string[], now: number) {
  for (let start = 0; start < lessonIds.length; start += SETTLED_PER_ROUND) {
    const ids = lessonIds.slice(start, start + SETTLED_PER_ROUND);
    const holdIds = ids.map((id) => accounts.hold(id).id);
    // A lesson that held nothing (booked while payments were off) has no hold account to lock.
    const locked = await trx
      .selectFrom('ledger_accounts')
      .select('id')
      .where('id', 'in', holdIds)
      .orderBy('id')
      .forUpdate()
      .execute();
    if (locked.length === 0) continue;
    const held = await trx
      .selectFrom('lessons as l')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('ledger_entries as e')
            .select('e.balance_after_cents')
            .whereRef('e.account_id', '=', sql<string>`'hold:' || l.id`)
            .orderBy('e.account_seq', 'desc')
            .limit(1)
            .as('last'),
        (join) => join.onTrue(),
      )
      .select(['l.id', 'l.tutor_id', 'l.subject', 'l.minutes', 'l.currency', 'l.commission_percent'])
      .select('last.balance_after_cents as held')
      .where('l.id', 'in', ids)
      .where('last.balance_after_cents', '>', 0)
      .execute();
    if (held.length === 0) continue;
    await postAll(
      trx,
      held.map((lesson) => {
        const commission = commissionOf(lesson.held, lesson.commission_percent ?? 0);
        return {
          kind: 'lesson_settle' as const,
          key: `lesson:${lesson.id}:settle`,
          currency: lesson.currency,
          lessonId: lesson.id,
          actorId: null,
          memo: lessonMemo(lesson),
          entries: [
            { account: accounts.hold(lesson.id), amountCents: -lesson.held },
            { account: accounts.payable(lesson.tutor_id), amountCents: lesson.held - commission },
            { account: accounts.revenue(), amountCents: commission },
          ],
          now,
        };
      }),
    );
    await trx
      .updateTable('lessons')
      .set({ payment_status: 'settled' })
      .where(
        'id',
        'in',
        held.map((lesson) => lesson.id),
      )
      .execute();
  }
}

/**
 * A late cancellation's fee (docs/decisions/0021-cancellation-policy.md): of the hold, `feeCents`
 * is settled as a lesson is (under the same key, so a refund reverses it the same way), the tutor
 * getting it less the commission stored on the lesson, and the rest goes back where the price came
 * from (the student's balance, or the package that paid while it is active), both in the cancelling
 * transaction. Answers the fee actually charged: never more than the hold
 * holds, and nothing for a lesson with nothing held (booked while payments were off).
 */
export async function chargeLateFee(
  trx: Transaction<DB>,
  lessonId: string,
  feeCents: number,
  by: { actorId: string; now: number },
): Promise<number> {
  const lesson = await lessonFor(trx, lessonId);
  // The package's row before any ledger account, in the order a booking and an ending lock them:
  // what the fee leaves goes back where the price came from, a package credit's too.
  const back = await releaseAccountFor(trx, lesson);
  const held = await lockedBalanceOf(trx, accounts.hold(lesson.id), lesson.currency);
  if (held <= 0) return 0;
  const fee = Math.min(Math.max(0, feeCents), held);
  if (fee === 0) {
    await releaseHold(trx, lessonId, by);
    return 0;
  }
  const commission = commissionOf(fee, lesson.commission_percent ?? 0);
  await post(trx, {
    kind: 'lesson_settle',
    key: `lesson:${lesson.id}:settle`,
    currency: lesson.currency,
    lessonId: lesson.id,
    actorId: by.actorId,
    memo: `${lessonMemo(lesson)}, late cancellation fee`,
    entries: [
      { account: accounts.hold(lesson.id), amountCents: -fee },
      { account: accounts.payable(lesson.tutor_id), amountCents: fee - commission },
      { account: accounts.revenue(), amountCents: commission },
    ],
    now: by.now,
  });
  if (held > fee)
    await postRelease(
      trx,
      lesson,
      back,
      held - fee,
      by,
      `${lessonMemo(lesson)}, cancelled late: the rest of the price`,
    );
  await markPayment(trx, lesson.id, 'fee');
  return fee;
}

/**
 * A group class's seat given up inside its window: of the hold, `keepCents` stays held until the
 * session has taken place, when the class job settles it to the tutor with that session's
 * settlement (less the commission stored on the seat); the rest goes back where it came from now.
 * Answers what stays held: never more than the hold holds.
 */
export async function releaseAllBut(
  trx: Transaction<DB>,
  lessonId: string,
  keepCents: number,
  by: { actorId: string | null; now: number },
): Promise<number> {
  const lesson = await lessonFor(trx, lessonId);
  const back = await releaseAccountFor(trx, lesson);
  const held = await lockedBalanceOf(trx, accounts.hold(lesson.id), lesson.currency);
  const kept = Math.min(Math.max(0, keepCents), Math.max(0, held));
  if (held - kept > 0)
    await postRelease(
      trx,
      lesson,
      back,
      held - kept,
      by,
      `${lessonMemo(lesson)}, cancelled late: the rest of the price`,
    );
  if (kept === 0 && held > 0) await markPayment(trx, lesson.id, 'released');
  return kept;
}

/**
 * An admin's refund of one lesson, decided from what the ledger holds for it (never from a status
 * column): what its hold holds goes back to the student; else its settlement (of the price, or of
 * a late cancellation's fee) is reversed, the tutor's share and the school's commission both
 * returned to the student (the tutor's payable may go below zero if it was paid out: they then owe
 * it to the school). A lesson refunded already, or whose money all went back, has nothing to refund.
 */
export async function refundLessonPayment(
  trx: Transaction<DB>,
  lessonId: string,
  by: { actorId: string; reason: string; now: number },
) {
  const lesson = await lessonFor(trx, lessonId);
  const memo = `${lessonMemo(lesson)}, refunded: ${by.reason}`;
  const key = `lesson:${lesson.id}:refund`;
  const settleKey = `lesson:${lesson.id}:settle`;
  const nothing = () => new ApiError(409, paymentMessages.nothingToRefund, 'NOTHING_TO_REFUND');
  const posted = await trx
    .selectFrom('ledger_transactions')
    .select('idempotency_key')
    .where('idempotency_key', 'in', [key, settleKey])
    .execute();
  const has = (wanted: string) => posted.some((row) => row.idempotency_key === wanted);
  if (has(key)) throw nothing();
  const held = await lockedBalanceOf(trx, accounts.hold(lesson.id), lesson.currency);
  if (held > 0) {
    await post(trx, {
      kind: 'lesson_refund',
      key,
      currency: lesson.currency,
      lessonId: lesson.id,
      actorId: by.actorId,
      memo,
      entries: [
        { account: accounts.hold(lesson.id), amountCents: -held },
        { account: accounts.balance(payerOf(lesson)), amountCents: held },
      ],
      now: by.now,
    });
  } else if (has(settleKey)) {
    // What the settlement (of the price, or of a late cancellation's fee) gave each account, given back.
    const settled = await trx
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
      .select(['e.account_id', 'e.account_kind', 'e.amount_cents'])
      .where('t.idempotency_key', '=', settleKey)
      .execute();
    const price = -(settled.find((entry) => entry.account_kind === 'hold')?.amount_cents ?? 0);
    const tutorShare = settled.find((entry) => entry.account_kind === 'payable')?.amount_cents ?? 0;
    const commission = settled.find((entry) => entry.account_kind === 'revenue')?.amount_cents ?? 0;
    await post(trx, {
      kind: 'lesson_refund',
      key,
      currency: lesson.currency,
      lessonId: lesson.id,
      actorId: by.actorId,
      memo,
      entries: [
        { account: accounts.payable(lesson.tutor_id), amountCents: -tutorShare },
        { account: accounts.revenue(), amountCents: -commission },
        { account: accounts.balance(payerOf(lesson)), amountCents: price },
      ],
      now: by.now,
    });
  } else {
    throw nothing();
  }
  await markPayment(trx, lesson.id, 'refunded');
}

/** What a lesson's hold holds now (for a reader; not locked). */
export const heldFor = (trx: Transaction<DB>, lessonId: string) => balanceOf(trx, accounts.hold(lessonId).id);
