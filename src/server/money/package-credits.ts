/**
 * What a package's credits do for a booking (./packages.ts says what a package is): find the
 * package that pays for a lesson and lock its row, spread a series' weeks over the credits left,
 * and say where a released lesson's money goes back (the hold itself is posted with the booking:
 * ./lesson-payments.ts).
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type AccountRef, accounts, balanceOf, lockedBalanceOf } from './ledger';
import type { PaymentRules } from './lesson-payments';
import { packageMessages } from './package-messages';
import { packageAccount } from './packages';

/** A package that pays for a lesson being booked: which, and one lesson's price in it. */
export interface PackageCredit {
  packageId: string;
  perLessonCents: number;
}

/**
 * The booking's hook: the package that pays for a lesson with this tutor of this length, or null
 * when the lesson is paid from the balance. With `packageId` it must be the student's, active,
 * for this tutor and length and have a credit left (else 404, 400 or 409); without, the oldest of
 * the student's active packages for this tutor and length with a credit left is used, if any.
 * The chosen package's row stays locked until the booking commits.
 */
export async function packageCreditFor(
  trx: Transaction<DB>,
  rules: PaymentRules,
  request: {
    studentId: string;
    tutorId: string;
    tutorName: string;
    minutes: number;
    trial: boolean;
    packageId?: string | undefined;
  },
): Promise<PackageCredit | null> {
  const chosen = request.packageId;
  if (chosen !== undefined) {
    if (request.trial) throw new ApiError(400, packageMessages.trial, 'VALIDATION_ERROR');
    if (!rules.on) throw new ApiError(409, packageMessages.paymentsOff, 'PAYMENTS_OFF');
  }
  if (!rules.on || request.trial) return null;
  let query = trx
    .selectFrom('lesson_packages')
    .selectAll()
    .where('student_id', '=', request.studentId)
    // Locked in id order, as every lock of a student's packages (see oldestFirst).
    .orderBy('id')
    .forUpdate();
  query =
    chosen !== undefined
      ? query.where('id', '=', chosen)
      : query
          .where('tutor_id', '=', request.tutorId)
          .where('minutes', '=', request.minutes)
          .where('status', '=', 'active');
  const candidates = oldestFirst(await query.execute());
  if (chosen !== undefined) {
    const row = candidates[0];
    if (!row) throw new ApiError(404, packageMessages.notFound, 'NOT_FOUND');
    if (row.tutor_id !== request.tutorId || row.minutes !== request.minutes)
      throw new ApiError(
        400,
        packageMessages.otherLesson(request.tutorName, row.minutes),
        'VALIDATION_ERROR',
      );
    if (row.status === 'ended') throw new ApiError(409, packageMessages.ended, 'PACKAGE_ENDED');
  }
  for (const row of candidates) {
    const left = await lockedBalanceOf(trx, packageAccount(row), row.currency);
    if (left >= row.per_lesson_cents) return { packageId: row.id, perLessonCents: row.per_lesson_cents };
  }
  if (chosen !== undefined) throw new ApiError(409, packageMessages.usedUp, 'PACKAGE_USED_UP');
  return null;
}

type LessonPackageRow = Selectable<DB['lesson_packages']>;

/**
 * The packages in the order their credits are used: oldest first. Their rows are locked in id
 * order instead, by bookings, series and an account's deletion alike: two transactions locking
 * the same student's packages in different orders could each wait for the other (40P01).
 */
function oldestFirst<Row extends { id: string; bought_at: Date }>(rows: Row[]): Row[] {
  return [...rows].sort(
    (a, b) => a.bought_at.getTime() - b.bought_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** The student's active packages for this tutor and length, oldest first. */
async function activePackages(
  db: Kysely<DB> | Transaction<DB>,
  request: { studentId: string; tutorId: string; minutes: number },
  lock: boolean,
) {
  const query = db
    .selectFrom('lesson_packages')
    .selectAll()
    .where('student_id', '=', request.studentId)
    .where('tutor_id', '=', request.tutorId)
    .where('minutes', '=', request.minutes)
    .where('status', '=', 'active')
    .orderBy('id');
  return oldestFirst(await (lock ? query.forUpdate() : query).execute());
}

/** Each of `weeks` lessons' credit, from `candidates` in order while `leftOf` each covers one. */
async function spreadCredits(
  candidates: LessonPackageRow[],
  weeks: number,
  leftOf: (row: LessonPackageRow) => Promise<number>,
): Promise<(PackageCredit | null)[]> {
  const credits: (PackageCredit | null)[] = [];
  for (const row of candidates) {
    if (credits.length >= weeks) break;
    let left = await leftOf(row);
    for (; left >= row.per_lesson_cents && credits.length < weeks; left -= row.per_lesson_cents)
      credits.push({ packageId: row.id, perLessonCents: row.per_lesson_cents });
  }
  while (credits.length < weeks) credits.push(null);
  return credits;
}

/**
 * A series' hook: for each of its `weeks` lessons in order, the credit of the student's active
 * packages for this tutor and length that pays for it (oldest package first, while credits last),
 * or null where the balance pays. The packages' rows stay locked until the series commits.
 */
export async function packageCreditsFor(
  trx: Transaction<DB>,
  rules: PaymentRules,
  request: { studentId: string; tutorId: string; minutes: number },
  weeks: number,
): Promise<(PackageCredit | null)[]> {
  const candidates = rules.on ? await activePackages(trx, request, true) : [];
  return spreadCredits(candidates, weeks, (row) => lockedBalanceOf(trx, packageAccount(row), row.currency));
}

/**
 * The same credits as a series booked now would use, read without a lock: for a preview, which
 * must not make the student's bookings wait. A booking made meanwhile may change them.
 */
export async function previewPackageCredits(
  db: Kysely<DB>,
  rules: PaymentRules,
  request: { studentId: string; tutorId: string; minutes: number },
  weeks: number,
): Promise<(PackageCredit | null)[]> {
  const candidates = rules.on ? await activePackages(db, request, false) : [];
  return spreadCredits(candidates, weeks, (row) => balanceOf(db, packageAccount(row).id));
}

/**
 * Where a lesson's released money goes back to: the package that paid for it while that package
 * is active (its row locked, so it cannot end in between), else the student's balance.
 */
export async function releaseAccountFor(
  trx: Transaction<DB>,
  lesson: { student_id: string; payer_id?: string | null; package_id: string | null },
): Promise<AccountRef> {
  if (lesson.package_id) {
    const row = await trx
      .selectFrom('lesson_packages')
      .select(['id', 'student_id', 'status'])
      .where('id', '=', lesson.package_id)
      .forUpdate()
      .executeTakeFirst();
    if (row?.status === 'active') return packageAccount(row);
  }
  return accounts.balance(lesson.payer_id ?? lesson.student_id);
}
