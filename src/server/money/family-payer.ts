/**
 * Who pays for a booking, a package or a class seat (migration 0038): the student, or the parent
 * linked to them; and the monthly limit a parent may set on what a child with a login of their own
 * spends. Every rule a balance depends on is settled under the payer's balance lock, as any
 * booking's is.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { formatAmount } from '../../shared/amounts';
import type { DB } from '../db/schema';
import { ApiError, type ErrorText } from '../http/api-error';
import { hasLogin } from '../platform/family-links';
import type { SessionUser } from '../platform/session-guards';

type Db = Kysely<DB> | Transaction<DB>;

export const familyPayerMessages = {
  childNotFound: /*i18n*/ 'Child not found',
  chooseChild: /*i18n*/ 'Please choose which child this is for',
  limitReached: (leftCents: number, currency: string): ErrorText => ({
    text: /*i18n*/ 'This would pass the monthly limit set for this student: {left} is left this month.',
    values: (locale) => ({ left: formatAmount(Math.max(0, leftCents), currency, { locale }) }),
  }),
} as const;

const notFound = () => new ApiError(404, familyPayerMessages.childNotFound, 'NOT_FOUND');

/** A parent's child as a row: 404 for anyone else's, or for someone who is not a child of theirs. */
export async function ownChild(db: Db, parentId: string, childId: string) {
  const row = await db
    .selectFrom('family_links as f')
    .innerJoin('users as u', 'u.id', 'f.student_id')
    .select([
      'u.id',
      'u.display_name',
      'u.email',
      'u.birth_year',
      'u.deleted_at',
      'f.added_by_parent',
      'f.monthly_limit_cents',
    ])
    .select(hasLogin('u.id').as('has_login'))
    .where('f.parent_id', '=', parentId)
    .where('f.student_id', '=', childId)
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound();
  return { ...row, has_login: Boolean(row.has_login) };
}
export type ChildRow = Awaited<ReturnType<typeof ownChild>>;

/** The parent who pays for a student, and the limit they set; undefined when the student pays. */
export async function payingParentOf(db: Db, studentId: string) {
  const row = await db
    .selectFrom('family_links as f')
    .innerJoin('users as p', 'p.id', 'f.parent_id')
    .select(['f.parent_id', 'f.monthly_limit_cents', 'p.time_zone'])
    .where('f.student_id', '=', studentId)
    .where('p.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    parentId: row.parent_id,
    monthlyLimitCents: row.monthly_limit_cents === null ? null : Number(row.monthly_limit_cents),
    timeZone: row.time_zone ?? 'UTC',
  };
}
export type PayingParent = NonNullable<Awaited<ReturnType<typeof payingParentOf>>>;

/** Whose lesson a booking is and whose wallet pays for it. */
export interface Booker {
  /** The lesson's student: the signed-in student, or the parent's child named by `studentId`. */
  studentId: string;
  /** Whose balance pays: the student's own, or their parent's. */
  payerId: string;
  /** Set when a parent pays: the limit that applies to this student's spending. */
  parent?: PayingParent | undefined;
  /** Who made the request (a parent booking for a child, or the student). */
  actorId: string;
}

/**
 * Who a booking, a package or an enrolment is for, from the signed-in user and the `studentId`
 * they named: a parent names one of their children (anyone else's is 404, as is none at all); a
 * student books for themselves (naming anyone else is 404), on their parent's wallet when linked.
 */
export async function bookerFor(db: Db, user: SessionUser, studentId: string | undefined): Promise<Booker> {
  if (user.role === 'parent') {
    if (!studentId) throw new ApiError(400, familyPayerMessages.chooseChild, 'VALIDATION_ERROR');
    await ownChild(db, user.id, studentId);
    const parent = await payingParentOf(db, studentId);
    if (!parent || parent.parentId !== user.id) throw notFound();
    return { studentId, payerId: user.id, parent, actorId: user.id };
  }
  if (studentId !== undefined && studentId !== user.id) throw notFound();
  const parent = await payingParentOf(db, user.id);
  return parent
    ? { studentId: user.id, payerId: parent.parentId, parent, actorId: user.id }
    : { studentId: user.id, payerId: user.id, actorId: user.id };
}

/** The first instant of the month `now` falls in, in `timeZone`, and of the next one. */
export function monthAround(now: number, timeZone: string) {
  const here = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(timeZone);
  const start = here.with({ day: 1 }).startOfDay();
  return {
    from: new Date(start.epochMilliseconds),
    to: new Date(start.add({ months: 1 }).epochMilliseconds),
  };
}

/**
 * What a student's bookings and packages made this month (the parent's zone) hold or spent of the
 * parent's balance: what went out of it for them, less what came back.
 */
export async function spentThisMonth(
  db: Db,
  parentId: string,
  studentIds: string[] | null,
  from: Date,
  to: Date,
) {
  // Both sums in one statement: a dashboard reads it on every visit.
  const row = await db.selectNoFrom(spentSums(db, parentId, studentIds, from, to)).executeTakeFirst();
  return spentOf(row);
}

/**
 * `spentThisMonth` as two sums to select (what the lessons and what the packages spent), for a
 * statement that reads more besides; `spentOf` adds them up.
 */
export function spentSums(db: Db, parentId: string, studentIds: string[] | null, from: Date, to: Date) {
  const balance = `balance:${parentId}`;
  const lessons = db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .innerJoin('lessons as l', 'l.id', 't.lesson_id')
    .select(sql<string>`coalesce(-sum(e.amount_cents), 0)`.as('spent'))
    .where('e.account_id', '=', balance)
    .where('l.payer_id', '=', parentId)
    .$if(studentIds !== null, (qb) => qb.where('l.student_id', 'in', studentIds ?? []))
    .where('l.created_at', '>=', from)
    .where('l.created_at', '<', to);
  const packages = db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .innerJoin('lesson_packages as p', (join) =>
      join.on((eb) =>
        eb('t.idempotency_key', 'in', [
          sql<string>`'package:' || p.id || ':buy'`,
          sql<string>`'package:' || p.id || ':end'`,
        ]),
      ),
    )
    .select(sql<string>`coalesce(-sum(e.amount_cents), 0)`.as('spent'))
    .where('e.account_id', '=', balance)
    .where('p.payer_id', '=', parentId)
    .$if(studentIds !== null, (qb) => qb.where('p.student_id', 'in', studentIds ?? []))
    .where('p.bought_at', '>=', from)
    .where('p.bought_at', '<', to);
  return [lessons.as('spent_on_lessons'), packages.as('spent_on_packages')] as const;
}

export const spentOf = (
  row: { spent_on_lessons: string | number | null; spent_on_packages: string | number | null } | undefined,
) => Number(row?.spent_on_lessons ?? 0) + Number(row?.spent_on_packages ?? 0);

/** Whether `amountCents` more stays inside the student's monthly limit (true when none applies). */
export async function withinFamilyLimit(
  trx: Transaction<DB>,
  booker: Booker,
  amountCents: number,
  now: number,
) {
  const limit = booker.parent?.monthlyLimitCents;
  if (!booker.parent || limit === null || limit === undefined || amountCents === 0) return true;
  const { from, to } = monthAround(now, booker.parent.timeZone);
  const spent = await spentThisMonth(trx, booker.parent.parentId, [booker.studentId], from, to);
  return spent + amountCents <= limit;
}

/** Who pays for a student's seat or lesson that nobody asked for just now (a waitlist moving up). */
export async function bookerOf(db: Db, studentId: string): Promise<Booker> {
  const parent = await payingParentOf(db, studentId);
  return parent
    ? { studentId, payerId: parent.parentId, parent, actorId: studentId }
    : { studentId, payerId: studentId, actorId: studentId };
}

/**
 * Refuses a booking or package that would take this student's spending this month past the limit
 * their parent set: 409 FAMILY_LIMIT, before anything is held. Called with the parent's balance
 * locked (by the balance check), so of two bookings at once the second sees the first's hold.
 */
export async function checkFamilyLimit(
  trx: Transaction<DB>,
  booker: Booker,
  amountCents: number,
  currency: string,
  now: number,
) {
  const limit = booker.parent?.monthlyLimitCents;
  if (!booker.parent || limit === null || limit === undefined || amountCents === 0) return;
  const { from, to } = monthAround(now, booker.parent.timeZone);
  const spent = await spentThisMonth(trx, booker.parent.parentId, [booker.studentId], from, to);
  if (spent + amountCents <= limit) return;
  throw new ApiError(409, familyPayerMessages.limitReached(limit - spent, currency), 'FAMILY_LIMIT', {
    limit: { amountCents: limit, currency },
    spent: { amountCents: spent, currency },
  });
}
