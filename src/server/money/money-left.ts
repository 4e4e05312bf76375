/**
 * What money a person still has with the school, wherever it waits: their balance, what the
 * lessons they paid for hold, what the lesson packages they paid for hold, and the top-ups they
 * asked for that nobody has settled. A parent pays for their children's lessons and packages
 * (`payer_id`), so that money is the parent's, not the child's. Deleting an account is refused while any of it is left (a deleted account could no
 * longer claim it), and the deletion page shows it with the way to get it back.
 */

import { type Kysely, sql, type Transaction } from 'kysely';
import { hasMoneyLeft, type MoneyLeft, moneyLeftMessage } from '../../shared/account-data';
import { intlLocaleOf } from '../../shared/languages';
import { creditsIn } from '../../shared/lessons/packages';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { translate } from '../i18n/translations';
import { accounts, balanceOf } from './ledger';

type Db = Kysely<DB> | Transaction<DB>;

/** The running balance of the named account's last entry, nested in a query of lessons or packages. */
const lastBalance = (db: Db, accountName: ReturnType<typeof sql<string>>) =>
  db
    .selectFrom('ledger_entries as e')
    .select('e.balance_after_cents')
    .where('e.account_id', '=', accountName)
    .orderBy('e.account_seq', 'desc')
    .limit(1);

/**
 * The lessons or packages (as `alias`) whose money came from `userId`'s wallet: those a parent paid
 * for a child (`payer_id`), and the person's own that nobody else paid for. Written as an `or` of
 * the two columns, not a coalesce, so that each one's index can answer it.
 */
const paidBy = (alias: 'l' | 'p', userId: string) =>
  sql<boolean>`(${sql.ref(`${alias}.payer_id`)} = ${userId} or (${sql.ref(`${alias}.payer_id`)} is null and ${sql.ref(`${alias}.student_id`)} = ${userId}))`;

/** Everything `userId` has with the school now, amounts in `currency` (the school's one). */
export async function moneyLeftOf(db: Db, userId: string, currency: string): Promise<MoneyLeft> {
  const [balance, lessons, packages, topUps] = await Promise.all([
    balanceOf(db, accounts.balance(userId).id),
    db
      .selectFrom('lessons as l')
      .select(['l.id', 'l.subject', 'l.starts_at'])
      .select(lastBalance(db, sql<string>`'hold:' || l.id`).as('held'))
      .where(paidBy('l', userId))
      .where('l.payment_status', '=', 'held')
      .orderBy('l.starts_at')
      .orderBy('l.id')
      .execute(),
    db
      .selectFrom('lesson_packages as p')
      .innerJoin('users as t', 't.id', 'p.tutor_id')
      .select(['p.id', 'p.lessons', 'p.minutes', 'p.per_lesson_cents', 't.display_name'])
      .select(lastBalance(db, sql<string>`'package:' || p.id`).as('left'))
      .where(paidBy('p', userId))
      .orderBy('p.bought_at')
      .orderBy('p.id')
      .execute(),
    db
      .selectFrom('top_ups')
      .select(['id', 'reference', 'method', 'amount_cents', 'currency', 'created_at'])
      .where('student_id', '=', userId)
      .where('status', '=', 'pending')
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  const amount = (amountCents: number | string | null) => ({
    amountCents: Number(amountCents ?? 0),
    currency,
  });
  return {
    balance: amount(balance),
    holds: lessons
      .filter((lesson) => Number(lesson.held ?? 0) > 0)
      .map((lesson) => ({
        lessonId: lesson.id,
        subject: lesson.subject,
        start: lesson.starts_at.toISOString(),
        amount: amount(lesson.held),
      })),
    packages: packages
      .filter((item) => Number(item.left ?? 0) > 0)
      .map((item) => ({
        packageId: item.id,
        tutorName: item.display_name,
        lessons: item.lessons,
        minutes: item.minutes,
        creditsLeft: creditsIn(Number(item.left), item.per_lesson_cents),
        amount: amount(item.left),
      })),
    pendingTopUps: topUps.map((topUp) => ({
      topUpId: topUp.id,
      reference: topUp.reference,
      method: topUp.method,
      amount: { amountCents: topUp.amount_cents, currency: topUp.currency },
      createdAt: topUp.created_at.toISOString(),
    })),
  };
}

/**
 * 409 MONEY_LEFT, naming every amount, unless `userId` has nothing left with the school. Money
 * reaches a student through their balance or a package (a parent's through theirs, and the
 * packages they bought for their children), so both are locked (the packages first,
 * as a booking locks them) until the caller's transaction ends: no booking, refund or release
 * moves it in between. A top-up asked for meanwhile waits for the caller (./top-ups.ts).
 */
export async function refuseWhileMoneyLeft(trx: Transaction<DB>, userId: string, currency: string) {
  await trx
    .selectFrom('lesson_packages as p')
    .select('p.id')
    .where(paidBy('p', userId))
    .orderBy('p.id')
    .forUpdate()
    .execute();
  await trx
    .selectFrom('ledger_accounts')
    .select('id')
    .where('id', '=', accounts.balance(userId).id)
    .forUpdate()
    .execute();
  const money = await moneyLeftOf(trx, userId, currency);
  if (hasMoneyLeft(money))
    throw new ApiError(
      409,
      (language) =>
        moneyLeftMessage(money, (text, values) => translate(language, text, values), intlLocaleOf(language)),
      'MONEY_LEFT',
      { moneyLeft: money },
    );
}
