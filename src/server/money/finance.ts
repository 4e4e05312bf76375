/**
 * The school's side of the money: the totals of every account (which sum to zero), top-ups waiting
 * for a transfer to arrive, card payments that could not be credited, what each tutor is owed and
 * each student holds (in their balance and in their packages), payouts, refunds of a balance, of a
 * package's unused credits or of one lesson, and the entries as CSV for a spreadsheet or an
 * accountant.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { type Amount, decimalString, formatAmount } from '../../shared/amounts';
import { creditsIn, packageName } from '../../shared/lessons/packages';
import type { DB } from '../db/schema';
import { type CsvDecimal, csvHeader, csvLine } from '../files/csv';
import { ApiError } from '../http/api-error';
import type { Mailer } from '../mail/mailer';
import { type Actor, accountTarget, recordAudit } from '../platform/audit-log';
import { accounts, lockedBalanceOf, post, totalsOf } from './ledger';
import { namedTotals, totalsQuery } from './ledger-checkpoints';
import { refundLessonPayment } from './lesson-payments';
import { balanceRefundMail, packageRefundMail, payoutMail } from './money-mail';
import { findPackage } from './packages';

export const financeMessages = {
  exceedsPayable: (payable: string) => `A payout can be at most what the tutor is owed (${payable})`,
  exceedsBalance: (balance: string) => `A refund can be at most the student's balance (${balance})`,
  noTutor: 'This tutor does not exist',
  noStudent: 'This student does not exist',
  lessonNotFound: 'This lesson does not exist',
  packageNotFound: 'This package does not exist',
  studentDeleted:
    'This student has deleted their account, so a refund would go to a wallet nobody can use any more.',
  packageEnded: "This package has already ended: what it held is in the student's balance",
  packageEmpty: 'This package has no unused lessons to refund',
  notWholePackage: (left: string) =>
    `A package is refunded whole: what its unused lessons hold now is ${left}. Please refund that amount.`,
} as const;

const amount = (amountCents: number, currency: string): Amount => ({ amountCents, currency });

export async function financeOverview(db: Kysely<DB>, currency: string) {
  const pendingTopUps = db
    .selectFrom('top_ups as t')
    .innerJoin('users as u', 'u.id', 't.student_id')
    .select(['t.id', 't.amount_cents', 't.currency', 't.method', 't.reference', 't.created_at'])
    .select(['u.id as user_id', 'u.display_name', 'u.email'])
    .where('t.status', '=', 'pending')
    .where('t.method', '=', 'manual')
    .orderBy('t.created_at')
    .limit(200);
  // Card payments Stripe took that no wallet holds, newest first: each waits for an admin.
  const unappliedPayments = db
    .selectFrom('unapplied_payments')
    .select(['id', 'provider', 'top_up_id', 'amount_cents', 'currency', 'reason', 'reported_at'])
    .orderBy('reported_at', 'desc')
    .limit(200);
  // Each person's current balance: the running balance of their account's last entry.
  const latest = (kind: 'balance' | 'payable') =>
    db
      .selectFrom('ledger_accounts as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('ledger_entries as e')
            .select('e.balance_after_cents')
            .whereRef('e.account_id', '=', 'a.id')
            .orderBy('e.account_seq', 'desc')
            .limit(1)
            .as('last'),
        (join) => join.onTrue(),
      )
      .select(['u.id', 'u.display_name', 'u.email', 'last.balance_after_cents'])
      .where('a.kind', '=', kind)
      .where('last.balance_after_cents', '<>', 0)
      .orderBy('last.balance_after_cents', 'desc')
      .limit(500);
  // Packages still holding money: the active ones (ending one empties it), oldest first.
  const packages = db
    .selectFrom('lesson_packages as p')
    .innerJoin('users as u', 'u.id', 'p.student_id')
    .innerJoin('users as t', 't.id', 'p.tutor_id')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('ledger_entries as e')
          .select('e.balance_after_cents')
          .where('e.account_id', '=', sql<string>`'package:' || p.id`)
          .orderBy('e.account_seq', 'desc')
          .limit(1)
          .as('last'),
      (join) => join.onTrue(),
    )
    .select(['p.id as package_id', 'p.lessons', 'p.minutes', 'p.per_lesson_cents'])
    .select(['u.id', 'u.display_name', 'u.email', 't.id as tutor_id', 't.display_name as tutor_name'])
    .select('last.balance_after_cents')
    .where('p.status', '=', 'active')
    .where('last.balance_after_cents', '>', 0)
    .orderBy('p.bought_at')
    .orderBy('p.id')
    .limit(500);
  // The totals and the four lists come as JSON arrays of one statement: on the embedded store
  // each statement is a round trip to its thread, which costs more than these small lists.
  const lists = await db
    .selectNoFrom([
      sql<
        { name: string; total: number }[]
      >`(select coalesce(json_agg(totals), '[]') from (${totalsQuery()}) totals)`.as('totals'),
      jsonArrayFrom(pendingTopUps).as('pendingTopUps'),
      jsonArrayFrom(latest('payable')).as('payables'),
      jsonArrayFrom(latest('balance')).as('balances'),
      jsonArrayFrom(unappliedPayments).as('unappliedPayments'),
      jsonArrayFrom(packages).as('packages'),
    ])
    .executeTakeFirstOrThrow();
  const totals = totalsOf(namedTotals(lists.totals));
  const person = (row: { id: string; display_name: string; email: string }) => ({
    id: row.id,
    displayName: row.display_name,
    email: row.email,
  });
  return {
    currency,
    totals: {
      studentBalances: amount(totals.studentBalances, currency),
      held: amount(totals.held, currency),
      // Paid for lesson packages and not yet used or returned.
      packages: amount(totals.packages, currency),
      tutorPayable: amount(totals.tutorPayable, currency),
      schoolRevenue: amount(totals.schoolRevenue, currency),
      clearing: {
        manual: amount(totals.clearing.manual, currency),
        stripe: amount(totals.clearing.stripe, currency),
      },
    },
    pendingTopUps: lists.pendingTopUps.map((row) => ({
      id: row.id,
      student: { id: row.user_id, displayName: row.display_name, email: row.email },
      amountCents: row.amount_cents,
      currency: row.currency,
      method: row.method,
      reference: row.reference,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    payables: lists.payables.map((row) => ({
      tutor: person(row),
      payable: amount(row.balance_after_cents, currency),
    })),
    balances: lists.balances.map((row) => ({
      student: person(row),
      balance: amount(row.balance_after_cents, currency),
    })),
    unappliedPayments: lists.unappliedPayments.map((row) => ({
      id: row.id,
      provider: row.provider,
      topUpId: row.top_up_id,
      amountCents: row.amount_cents,
      currency: row.currency,
      reportedAt: new Date(row.reported_at).toISOString(),
      reason: row.reason,
    })),
    packages: lists.packages.map((row) => ({
      id: row.package_id,
      student: person(row),
      tutor: { id: row.tutor_id, displayName: row.tutor_name },
      lessons: row.lessons,
      minutes: row.minutes,
      creditsLeft: creditsIn(row.balance_after_cents, row.per_lesson_cents),
      unused: amount(row.balance_after_cents, currency),
    })),
  };
}

interface MoneyDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  appUrl: string;
  currency: string;
}

async function userWithRole(db: Kysely<DB>, id: string, role: 'student' | 'tutor') {
  return db
    .selectFrom('users')
    .select(['id', 'display_name', 'email', 'deleted_at'])
    .where('id', '=', id)
    .where('role', '=', role)
    .executeTakeFirst();
}

/**
 * How a payout's or a balance refund's memo begins: the bank reference the admin gave follows, to
 * the end, so entries.csv reads it back exactly.
 */
const MEMO_BEFORE_REFERENCE = {
  payout: 'Payout, reference ',
  balance_refund: 'Refund of balance, reference ',
} as const;

/** The reference a transaction was made with, as a bank statement shows it; '' where it has none. */
function referenceOf(row: { kind: string; memo: string; top_up_reference: string | null }): string {
  if (row.top_up_reference !== null) return row.top_up_reference;
  const before = MEMO_BEFORE_REFERENCE[row.kind as keyof typeof MEMO_BEFORE_REFERENCE];
  return before && row.memo.startsWith(before) ? row.memo.slice(before.length) : '';
}

/**
 * Money leaves the ledger through the manual clearing account: a tutor's payout, or a student's
 * unused balance refunded. At most what the account holds (checked with the account locked).
 */
async function payOut(
  deps: MoneyDeps,
  actor: Actor,
  input: { userId: string; amountCents: number; reference: string; now: number },
  kind: 'payout' | 'balance_refund',
) {
  const { db, currency } = deps;
  const isPayout = kind === 'payout';
  const user = await userWithRole(db, input.userId, isPayout ? 'tutor' : 'student');
  if (!user)
    throw new ApiError(404, isPayout ? financeMessages.noTutor : financeMessages.noStudent, 'NOT_FOUND');
  const account = isPayout ? accounts.payable(user.id) : accounts.balance(user.id);
  const transactionId = await db.transaction().execute(async (trx) => {
    const available = await lockedBalanceOf(trx, account, currency);
    if (input.amountCents > available) {
      const shown = formatAmount(Math.max(available, 0), currency);
      throw isPayout
        ? new ApiError(409, financeMessages.exceedsPayable(shown), 'EXCEEDS_PAYABLE')
        : new ApiError(409, financeMessages.exceedsBalance(shown), 'EXCEEDS_BALANCE');
    }
    const id = await post(trx, {
      kind,
      key: `${kind}:${randomUUID()}`,
      currency,
      actorId: actor.id,
      memo: `${MEMO_BEFORE_REFERENCE[kind]}${input.reference}`,
      entries: [
        { account, amountCents: -input.amountCents },
        { account: accounts.clearing('manual'), amountCents: input.amountCents },
      ],
      now: input.now,
    });
    const shown = formatAmount(input.amountCents, currency);
    await recordAudit(
      trx,
      actor,
      isPayout ? 'payout.recorded' : 'refund.recorded',
      accountTarget(user),
      `${shown}, reference ${input.reference}`,
    );
    const content = (isPayout ? payoutMail : balanceRefundMail)({
      displayName: user.display_name,
      amountCents: input.amountCents,
      currency,
      reference: input.reference,
      appUrl: deps.appUrl,
    });
    // A deleted account's address is a placeholder that reaches nobody.
    if (!user.deleted_at) await deps.mailer.sendMail({ to: user.email, ...content }, trx);
    return id;
  });
  deps.mailer.deliverSoon();
  return String(transactionId);
}

export const recordPayout = (
  deps: MoneyDeps,
  actor: Actor,
  input: { tutorId: string; amountCents: number; reference: string; now: number },
) => payOut(deps, actor, { ...input, userId: input.tutorId }, 'payout');

export const recordBalanceRefund = (
  deps: MoneyDeps,
  actor: Actor,
  input: { studentId: string; amountCents: number; reference: string; now: number },
) => payOut(deps, actor, { ...input, userId: input.studentId }, 'balance_refund');

/**
 * An admin pays a package's unused credits back to the student, whole: what its account holds goes
 * out through the manual clearing account, as a balance refund does, and the package ends. Lessons
 * already booked with it stay booked; if one is called off, its price goes to the balance, as for
 * any ended package. `amountCents` is what the admin sent: it must be what the package holds, so a
 * credit used meanwhile is not refunded twice.
 */
export async function refundPackage(
  deps: MoneyDeps,
  actor: Actor,
  input: { packageId: string; amountCents: number; reference: string; now: number },
) {
  const { db } = deps;
  const refunded = await db.transaction().execute(async (trx) => {
    // Locked first, as a booking, a release and the student's own ending lock it.
    const row = await trx
      .selectFrom('lesson_packages as p')
      .innerJoin('users as s', 's.id', 'p.student_id')
      .innerJoin('users as t', 't.id', 'p.tutor_id')
      .select([
        'p.id',
        'p.student_id',
        'p.lessons',
        'p.minutes',
        'p.per_lesson_cents',
        'p.currency',
        'p.status',
      ])
      .select(['s.display_name', 's.email', 's.deleted_at', 't.display_name as tutor_name'])
      .where('p.id', '=', input.packageId)
      .forUpdate('p')
      .executeTakeFirst();
    if (!row) throw new ApiError(404, financeMessages.packageNotFound, 'NOT_FOUND');
    if (row.status === 'ended') throw new ApiError(409, financeMessages.packageEnded, 'PACKAGE_ENDED');
    const account = accounts.package(row.id, row.student_id);
    const left = await lockedBalanceOf(trx, account, row.currency);
    if (left <= 0) throw new ApiError(409, financeMessages.packageEmpty, 'NOTHING_TO_REFUND');
    if (input.amountCents !== left)
      throw new ApiError(
        409,
        financeMessages.notWholePackage(formatAmount(left, row.currency)),
        'NOT_WHOLE_PACKAGE',
        { unused: amount(left, row.currency) },
      );
    const credits = creditsIn(left, row.per_lesson_cents);
    const what = `${packageName(row)} with ${row.tutor_name}`;
    const transactionId = await post(trx, {
      kind: 'package_refund',
      key: `package:${row.id}:refund`,
      currency: row.currency,
      actorId: actor.id,
      memo: `Refund of ${what}: ${credits} unused, reference ${input.reference}`,
      entries: [
        { account, amountCents: -left },
        { account: accounts.clearing('manual'), amountCents: left },
      ],
      now: input.now,
    });
    await trx
      .updateTable('lesson_packages')
      .set({ status: 'ended', ended_at: new Date(input.now) })
      .where('id', '=', row.id)
      .execute();
    const shown = formatAmount(left, row.currency);
    const student = { id: row.student_id, display_name: row.display_name, email: row.email };
    await recordAudit(
      trx,
      actor,
      'package.refunded',
      accountTarget(student),
      `${shown} for ${credits} unused of ${what}, reference ${input.reference}`,
    );
    if (!row.deleted_at)
      await deps.mailer.sendMail(
        {
          to: row.email,
          ...packageRefundMail({
            displayName: row.display_name,
            amountCents: left,
            currency: row.currency,
            credits,
            packageName: what,
            reference: input.reference,
            appUrl: deps.appUrl,
          }),
        },
        trx,
      );
    return { transactionId: String(transactionId), studentId: row.student_id };
  });
  deps.mailer.deliverSoon();
  return {
    transactionId: refunded.transactionId,
    package: await findPackage(db, refunded.studentId, input.packageId),
  };
}

/**
 * An admin refunds one lesson: what it moved goes back to the student. A lesson still planned is
 * called off at the same time (a refunded lesson is not given for free), which its caller tells.
 */
export async function refundLesson(
  db: Kysely<DB>,
  actor: Actor,
  input: { lessonId: string; reason: string; now: number },
  /** Calls the lesson off if it is still planned (the lessons' own rules and mails). */
  callOff: (trx: Transaction<DB>, lessonId: string) => Promise<void>,
) {
  return db.transaction().execute(async (trx) => {
    const lesson = await trx
      .selectFrom('lessons as l')
      .innerJoin('users as s', 's.id', 'l.student_id')
      .select([
        'l.id',
        'l.subject',
        'l.price_cents',
        'l.currency',
        's.id as student_id',
        's.display_name',
        's.email',
        's.deleted_at',
      ])
      .where('l.id', '=', input.lessonId)
      .forUpdate()
      .executeTakeFirst();
    if (!lesson) throw new ApiError(404, financeMessages.lessonNotFound, 'NOT_FOUND');
    // The refund would go to a wallet nobody can sign in to any more.
    if (lesson.deleted_at) throw new ApiError(409, financeMessages.studentDeleted, 'ACCOUNT_DELETED');
    await refundLessonPayment(trx, lesson.id, {
      actorId: actor.id ?? '',
      reason: input.reason,
      now: input.now,
    });
    await callOff(trx, lesson.id);
    await recordAudit(
      trx,
      actor,
      'lesson.refunded',
      accountTarget({ id: lesson.student_id, display_name: lesson.display_name, email: lesson.email }),
      `${lesson.subject} lesson ${lesson.id}, ${formatAmount(lesson.price_cents, lesson.currency)}: ${input.reason}`,
    );
    return lesson.id;
  });
}

/** The amount as a decimal number in whole units, for a spreadsheet to add up. */
const decimalAmount = (amountCents: number, currency: string): CsvDecimal => ({
  decimal: decimalString(amountCents, currency),
});

/** Every entry between two instants, one line each; the amounts of the file sum to zero. */
export async function* entriesCsv(db: Kysely<DB>, range: { from?: Date; to?: Date }, currency: string) {
  yield csvHeader([
    'transaction',
    'kind',
    'time',
    'account',
    'owner',
    'lesson',
    'reference',
    'amount',
    'amount_minor_units',
  ]);
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
      .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
      .leftJoin('users as u', 'u.id', 'a.user_id')
      // A top-up's transaction is keyed by the top-up (creditTopUp): its reference is the top-up's.
      .leftJoin('top_ups as tu', (join) =>
        join
          .on('t.kind', '=', 'top_up')
          .on(sql<string>`'top_up:' || tu.id`, '=', sql.ref('t.idempotency_key')),
      )
      .select([
        'e.id',
        't.id as transaction_id',
        't.kind',
        't.memo',
        'tu.reference as top_up_reference',
        't.created_at',
        'e.account_id',
        'u.email',
        't.lesson_id',
        'e.amount_cents',
      ])
      .$if(range.from !== undefined, (q) => q.where('t.created_at', '>=', range.from as Date))
      .$if(range.to !== undefined, (q) => q.where('t.created_at', '<', range.to as Date))
      .where('e.id', '>', after)
      .orderBy('e.id')
      .limit(1000)
      .execute();
    for (const row of rows)
      yield csvLine([
        row.transaction_id,
        row.kind,
        row.created_at.toISOString(),
        row.account_id,
        row.email ?? '',
        row.lesson_id ?? '',
        referenceOf(row),
        decimalAmount(row.amount_cents, currency),
        row.amount_cents,
      ]);
    if (rows.length < 1000) return;
    after = rows.at(-1)?.id ?? after;
  }
}

/** What each tutor is owed now, for a pay run. */
export async function payablesCsv(db: Kysely<DB>, currency: string) {
  const { payables } = await financeOverview(db, currency);
  return (
    csvHeader(['tutor_id', 'name', 'email', 'payable', 'currency']) +
    payables
      .map((row) =>
        csvLine([
          row.tutor.id,
          row.tutor.displayName,
          row.tutor.email,
          decimalAmount(row.payable.amountCents, currency),
          currency,
        ]),
      )
      .join('')
  );
}

/** Earnings settled to a tutor between two instants, less refunds of their lessons in it. */
export async function earningsBetween(db: Kysely<DB>, tutorId: string, from: Date, to: Date) {
  const row = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .select((eb) => eb.fn.sum<number | string>('e.amount_cents').as('total'))
    .where('e.account_id', '=', accounts.payable(tutorId).id)
    .where('t.kind', 'in', ['lesson_settle', 'lesson_refund'])
    .where('t.created_at', '>=', from)
    .where('t.created_at', '<', to)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
