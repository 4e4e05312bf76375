/**
 * What the school's finance page reads: the totals of every account (which sum to zero), top-ups
 * waiting for a transfer to arrive, card payments that could not be credited, what each tutor is
 * owed and each student holds (in their balance and in their packages).
 */
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Amount } from '../../shared/amounts';
import { creditsIn } from '../../shared/lessons/packages';
import type { DB } from '../db/schema';
import { totalsOf } from './ledger';
import { namedTotals, type PersonBalance, personBalancesQuery, totalsQuery } from './ledger-checkpoints';

/** The database as the finance statement sees it: with every person's balance, read once. */
type WithBalances = DB & { people_balances: PersonBalance };

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
  // Each person's current balance, the largest first, from the statement's list of every person's
  // balance (a checkpoint's and the accounts moved since, not a lookup of each account's last entry).
  const latest = (eb: ExpressionBuilder<WithBalances, never>, kind: 'balance' | 'payable') =>
    eb
      .selectFrom('people_balances as now')
      .innerJoin('users as u', 'u.id', 'now.user_id')
      .select(['u.id', 'u.display_name', 'u.email', 'now.balance_cents'])
      .where('now.account_kind', '=', kind)
      .orderBy('now.balance_cents', 'desc')
      .orderBy('now.account_id')
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
    // In brackets: Kysely writes a raw common table expression as it is given.
    .with('people_balances', () => sql<PersonBalance>`(${personBalancesQuery()})`)
    .selectNoFrom((eb) => [
      sql<
        { name: string; total: number }[]
      >`(select coalesce(json_agg(totals), '[]') from (${totalsQuery()}) totals)`.as('totals'),
      jsonArrayFrom(pendingTopUps).as('pendingTopUps'),
      jsonArrayFrom(latest(eb, 'payable')).as('payables'),
      jsonArrayFrom(latest(eb, 'balance')).as('balances'),
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
      payable: amount(Number(row.balance_cents), currency),
    })),
    balances: lists.balances.map((row) => ({
      student: person(row),
      balance: amount(Number(row.balance_cents), currency),
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
