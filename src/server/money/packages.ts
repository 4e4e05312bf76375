/**
 * Lesson packages: a student pays for several lessons with one tutor at once, at the tutor's
 * discount, and books them one by one without paying again.
 *
 * The money is the record of the credits. Buying moves the package's total from the student's
 * balance into its own account, `package:<id>`; each lesson booked with it moves one lesson's
 * price (fixed when bought) from there into the lesson's hold, so the rest of the lesson's money
 * flow is the one every lesson has: released on a decline or cancellation, settled to the tutor
 * on completion. A release gives the credit back to the package while it is active (to the balance
 * once it has ended), and ending a package gives what is left back to the balance.
 *
 * Credits left are the account's balance divided by one lesson's price, so the ledger's rule that a
 * package account never goes below zero is what refuses a credit nobody has. Bookings with one
 * package take turns on its row (locked in the booking's transaction), so each sees the credits
 * the others left.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { minorPerUnit } from '../../shared/amounts';
import { creditsIn, offerPrices, type PackageOffer, packageName } from '../../shared/lessons/packages';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { Listing } from '../platform/tutor-listing';
import { type Booker, checkFamilyLimit } from './family-payer';
import { accounts, balanceOf, lockedBalanceOf, post } from './ledger';
import type { PaymentRules } from './lesson-payments';
import { packageMessages } from './package-messages';

/** A package as the API gives it (docs/api.md). */
export interface PackageView {
  id: string;
  tutor: { id: string; displayName: string };
  student: { id: string; displayName: string };
  lessons: number;
  minutes: number;
  discountPercent: number;
  perLessonCents: number;
  currency: string;
  /** Lessons it still pays for. */
  creditsLeft: number;
  /** Its lessons booked and not yet taken (their price waits in the lesson's hold). */
  creditsHeld: number;
  status: 'active' | 'ended';
  boughtAt: string;
  endedAt: string | null;
}

type Db = Kysely<DB> | Transaction<DB>;

/** A package's own account in the ledger. */
export const packageAccount = (row: { id: string; student_id: string }) =>
  accounts.package(row.id, row.student_id);

function packagesQuery(db: Db) {
  return db
    .selectFrom('lesson_packages as p')
    .innerJoin('users as t', 't.id', 'p.tutor_id')
    .innerJoin('users as s', 's.id', 'p.student_id')
    .selectAll('p')
    .select(['t.display_name as tutor_name', 's.display_name as student_name']);
}

type PackageRow = Awaited<ReturnType<ReturnType<typeof packagesQuery>['executeTakeFirstOrThrow']>>;

async function toView(db: Db, row: PackageRow): Promise<PackageView> {
  const [balance, held] = await Promise.all([
    balanceOf(db, packageAccount(row).id),
    db
      .selectFrom('lessons')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('package_id', '=', row.id)
      .where('payment_status', '=', 'held')
      .executeTakeFirst(),
  ]);
  return {
    id: row.id,
    tutor: { id: row.tutor_id, displayName: row.tutor_name },
    student: { id: row.student_id, displayName: row.student_name },
    lessons: row.lessons,
    minutes: row.minutes,
    discountPercent: row.discount_percent,
    perLessonCents: row.per_lesson_cents,
    currency: row.currency,
    creditsLeft: creditsIn(balance, row.per_lesson_cents),
    creditsHeld: Number(held?.count ?? 0),
    status: row.status,
    boughtAt: row.bought_at.toISOString(),
    endedAt: row.ended_at ? row.ended_at.toISOString() : null,
  };
}

/**
 * The caller's packages, newest first: a student's bought ones, a tutor's sold ones, a parent's
 * bought for their children.
 */
export async function listPackages(db: Kysely<DB>, user: { id: string; role: string }) {
  const column =
    user.role === 'tutor' ? 'p.tutor_id' : user.role === 'parent' ? 'p.payer_id' : 'p.student_id';
  const rows = await packagesQuery(db)
    .where(column, '=', user.id)
    .orderBy('p.bought_at', 'desc')
    .orderBy('p.id')
    .limit(200)
    .execute();
  return Promise.all(rows.map((row) => toView(db, row)));
}

/** One of the student's own packages; anyone else's does not exist for them. */
async function ownPackage(db: Db, studentId: string, packageId: string) {
  const row = await packagesQuery(db)
    .where('p.id', '=', packageId)
    .where('p.student_id', '=', studentId)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, packageMessages.notFound, 'NOT_FOUND');
  return row;
}

export const findPackage = async (db: Kysely<DB>, studentId: string, packageId: string) =>
  toView(db, await ownPackage(db, studentId, packageId));

/**
 * Finds a tutor a student may book, with their rate and the packages they offer: lessons' slots
 * know it (bookableTutor), and app.ts hands it in, so that money imports nothing of lessons.
 */
export type FindBookableTutor = (
  db: Kysely<DB>,
  tutorId: string,
  listing: Listing,
) => Promise<{
  display_name: string;
  hourly_rate: number | null;
  availability: { packages: PackageOffer[] };
} | null>;

/**
 * Buys one of a tutor's offers: its total moves from the balance to the package's account, or
 * 409 INSUFFICIENT_BALANCE says how much is missing.
 */
export async function buyPackage(
  db: Kysely<DB>,
  deps: { payments: PaymentRules; listing: Listing; bookableTutor: FindBookableTutor },
  request: {
    studentId: string;
    /** Who pays (a parent for their child) and the limit that applies; without it the student pays. */
    booker?: Booker | undefined;
    tutorId: string;
    lessons: number;
    minutes: number;
    now: number;
    /**
     * The request's identity under its Idempotency-Key (http/idempotency.ts), the package's id: a
     * run again after a crash answers the package the first run bought instead of a second one.
     */
    requestKey?: string | undefined;
  },
): Promise<PackageView> {
  const { payments } = deps;
  if (!payments.on) throw new ApiError(409, packageMessages.paymentsOff, 'PAYMENTS_OFF');
  const tutor = await deps.bookableTutor(db, request.tutorId, deps.listing);
  if (!tutor || tutor.hourly_rate === null)
    throw new ApiError(404, packageMessages.tutorNotFound, 'NOT_FOUND');
  const offer = tutor.availability.packages.find(
    (item) => item.lessons === request.lessons && item.minutes === request.minutes,
  );
  if (!offer) throw new ApiError(400, packageMessages.notOffered, 'VALIDATION_ERROR');
  const { perLessonCents, totalCents } = offerPrices(
    offer,
    tutor.hourly_rate,
    minorPerUnit(payments.currency),
  );
  const id = request.requestKey ?? randomUUID();
  const payerId = request.booker?.payerId ?? request.studentId;
  await db.transaction().execute(async (trx) => {
    // The payer's row before their money, as a booking takes them (lessons/lesson-changes/
    // lesson-change.ts, lockPeople): an account's deletion holds the row and then the money.
    await trx.selectFrom('users').select('id').where('id', '=', payerId).forKeyShare().execute();
    const balance = await lockedBalanceOf(trx, accounts.balance(payerId), payments.currency);
    // With the balance locked, so that a run of the same request at once waits for this one.
    const bought = await trx
      .selectFrom('lesson_packages')
      .select('id')
      .where('id', '=', id)
      .where('student_id', '=', request.studentId)
      .executeTakeFirst();
    if (bought) return;
    if (balance < totalCents) {
      const missing = totalCents - balance;
      throw new ApiError(
        409,
        packageMessages.insufficient(missing, payments.currency),
        'INSUFFICIENT_BALANCE',
        { needed: { amountCents: missing, currency: payments.currency } },
      );
    }
    // With the payer's balance locked, as a booking checks it.
    if (request.booker)
      await checkFamilyLimit(trx, request.booker, totalCents, payments.currency, request.now);
    await trx
      .insertInto('lesson_packages')
      .values({
        id,
        student_id: request.studentId,
        payer_id: payerId === request.studentId ? null : payerId,
        tutor_id: request.tutorId,
        lessons: offer.lessons,
        minutes: offer.minutes,
        discount_percent: offer.discountPercent,
        per_lesson_cents: perLessonCents,
        currency: payments.currency,
        bought_at: new Date(request.now),
      })
      .execute();
    await post(trx, {
      kind: 'package_buy',
      key: `package:${id}:buy`,
      currency: payments.currency,
      actorId: request.booker?.actorId ?? request.studentId,
      memo: `${packageName(offer)} with ${tutor.display_name}`,
      entries: [
        { account: accounts.balance(payerId), amountCents: -totalCents },
        { account: accounts.package(id, request.studentId), amountCents: totalCents },
      ],
      now: request.now,
    });
  });
  return findPackage(db, request.studentId, id);
}

/** Ends a student's package: what its unused credits hold goes back to the balance that paid. */
export async function endPackage(db: Kysely<DB>, studentId: string, packageId: string, now: number) {
  await db.transaction().execute(async (trx) => {
    const owned = await trx
      .selectFrom('lesson_packages')
      .select('id')
      .where('id', '=', packageId)
      .where('student_id', '=', studentId)
      .executeTakeFirst();
    if (!owned) throw new ApiError(404, packageMessages.notFound, 'NOT_FOUND');
    if (!(await endPackageIn(trx, packageId, studentId, now)))
      throw new ApiError(409, packageMessages.ended, 'PACKAGE_ENDED');
  });
  return findPackage(db, studentId, packageId);
}

/**
 * Ends a package in the caller's transaction (its student, an admin, or the end of a family link):
 * its unused credits go back to the balance that paid for it, the parent's for a child's package.
 * False when it had ended already.
 */
export async function endPackageIn(
  trx: Transaction<DB>,
  packageId: string,
  actorId: string | null,
  now: number,
) {
  // Locked first, as a booking and a release lock it: none of them sees it half ended.
  const row = await trx
    .selectFrom('lesson_packages')
    .selectAll()
    .where('id', '=', packageId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (row.status === 'ended') return false;
  const left = await lockedBalanceOf(trx, packageAccount(row), row.currency);
  if (left > 0)
    await post(trx, {
      kind: 'package_end',
      key: `package:${row.id}:end`,
      currency: row.currency,
      actorId,
      memo: `${packageName(row)}: ${creditsIn(left, row.per_lesson_cents)} unused back to the balance`,
      entries: [
        { account: packageAccount(row), amountCents: -left },
        { account: accounts.balance(row.payer_id ?? row.student_id), amountCents: left },
      ],
      now,
    });
  await trx
    .updateTable('lesson_packages')
    .set({ status: 'ended', ended_at: new Date(now) })
    .where('id', '=', row.id)
    .execute();
  return true;
}
