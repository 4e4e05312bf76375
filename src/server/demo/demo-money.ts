/**
 * Demo money for `npm run seed:demo`, when the school takes payments: the wallets, holds and
 * earnings that the demo lessons (demo-lessons.ts) would have left behind had they been booked
 * through Tutorlane. Everything goes through the ledger's own functions, as the app would write it,
 * never as raw entries, so the database's rules (balanced, never below zero) check the demo too:
 * - each demo student topped up by bank transfer once or twice, confirmed by the demo admin, before
 *   the lessons that needed the money;
 * - each lesson held its price when it was booked; a cancelled one gave it back when it was called
 *   off; a completed one was settled when it ended, the commission to the school, the rest to the
 *   tutor;
 * - a few tutors were paid out part of what they were owed a few days ago;
 * - two transfers (from one or two students) are announced but not yet confirmed, for the demo
 *   admin to confirm.
 *
 * The ledger's running balances follow the order transactions are written in, and the wallet lists
 * them in that order, so every step is written in the order of its date. Drawn from a fixed
 * random sequence, so every run makes the same money; dates are relative to the moment it runs.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { minorPerUnit } from '../../shared/amounts';
import { topUpUnits } from '../../shared/money/amounts';
import type { DB } from '../db/schema';
import { accounts, balanceOf, post } from '../money/ledger';
import { holdPrice, type PaymentRules, releaseHold, settleHold } from '../money/lesson-payments';
import { creditTopUp } from '../money/top-ups';
import { DEMO_ADMIN } from './demo-accounts';
import { seededRandom } from './demo-tutors';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Tutors paid out, among those who had earned something by then. */
const PAID_TUTORS = 5;
/** Students with a transfer still waiting for the admin. */
const PENDING_TOP_UPS = 2;

interface DemoLesson {
  id: string;
  student_id: string;
  tutor_id: string;
  subject: string;
  minutes: number;
  price_cents: number;
  currency: string;
  status: string;
  created_at: Date;
  updated_at: Date;
  ends_at: Date;
}

/** One step of the demo's money, written at `at`; `order` breaks ties between steps of one instant. */
type Step =
  | { at: number; order: 0; kind: 'top_up'; topUp: Insertable<DB['top_ups']> & { id: string } }
  | { at: number; order: 1; kind: 'hold'; lesson: DemoLesson }
  | { at: number; order: 2; kind: 'release'; lesson: DemoLesson }
  | { at: number; order: 3; kind: 'settle'; lesson: DemoLesson }
  | { at: number; order: 4; kind: 'payout'; tutorId: string; reference: string };

/** Letters and digits nobody mistakes for each other, as the app's own transfer references. */
const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export async function insertDemoMoney(db: Kysely<DB>, rules: PaymentRules, now: number): Promise<void> {
  if (!rules.on) return;
  const random = seededRandom(47);
  const unit = minorPerUnit(rules.currency);
  // Top-ups in round amounts of twice the smallest a student may ask for ($10, ¥1,000), within
  // what the app lets a student ask for.
  const limits = topUpUnits(rules.currency);
  const step = 2 * limits.min * unit;
  const maxTopUp = limits.max * unit;
  const roundUp = (cents: number) => Math.min(maxTopUp, Math.max(step, Math.ceil(cents / step) * step));
  const references = new Set<string>();
  const reference = () => {
    for (;;) {
      const drawn = `TL-${Array.from({ length: 6 }, () => REFERENCE_ALPHABET[Math.floor(random() * REFERENCE_ALPHABET.length)]).join('')}`;
      if (references.has(drawn)) continue;
      references.add(drawn);
      return drawn;
    }
  };

  const lessons: DemoLesson[] = await db
    .selectFrom('lessons')
    .select([
      'id',
      'student_id',
      'tutor_id',
      'subject',
      'minutes',
      'price_cents',
      'currency',
      'status',
      'created_at',
      'updated_at',
      'ends_at',
    ])
    .where('price_cents', '>', 0)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

  const steps: Step[] = [];
  const topUps: Insertable<DB['top_ups']>[] = [];
  const topUp = (studentId: string, amountCents: number, askedAt: number, confirmedAt: number | null) => {
    const row = {
      id: randomUUID(),
      student_id: studentId,
      amount_cents: amountCents,
      currency: rules.currency,
      method: 'manual' as const,
      status: confirmedAt === null ? ('pending' as const) : ('confirmed' as const),
      reference: reference(),
      settled_by: confirmedAt === null ? null : DEMO_ADMIN.id,
      settled_at: confirmedAt === null ? null : new Date(confirmedAt),
      created_at: new Date(askedAt),
    };
    topUps.push(row);
    if (confirmedAt !== null) steps.push({ at: confirmedAt, order: 0, kind: 'top_up', topUp: row });
  };

  // Each lesson's own steps: held when booked, then given back or settled.
  const byStudent = new Map<string, { at: number; cents: number }[]>();
  for (const lesson of lessons) {
    const bookedAt = lesson.created_at.getTime();
    steps.push({ at: bookedAt, order: 1, kind: 'hold', lesson });
    const moves = byStudent.get(lesson.student_id) ?? [];
    moves.push({ at: bookedAt, cents: -lesson.price_cents });
    if (lesson.status === 'cancelled') {
      steps.push({ at: lesson.updated_at.getTime(), order: 2, kind: 'release', lesson });
      moves.push({ at: lesson.updated_at.getTime(), cents: lesson.price_cents });
    } else if (lesson.status === 'completed') {
      steps.push({ at: lesson.ends_at.getTime(), order: 3, kind: 'settle', lesson });
    }
    byStudent.set(lesson.student_id, moves);
  }

  // Each student's transfers: one before their first booking, of everything they will book or of
  // about half of it; when the money runs short, another just before the booking that needs it.
  for (const [studentId, moves] of [...byStudent].sort(([a], [b]) => (a < b ? -1 : 1))) {
    moves.sort((a, b) => a.at - b.at || a.cents - b.cents);
    const booked = moves.reduce((sum, move) => sum + Math.max(0, -move.cents), 0);
    const first = moves[0]?.at ?? now;
    const confirmedAt = first - 6 * HOUR - Math.floor(random() * 48) * HOUR;
    const once = random() < 0.5;
    const cushion = Math.floor(random() * 6) * step;
    let balance = roundUp(once ? booked + cushion : booked / 2);
    topUp(studentId, balance, confirmedAt - (2 + Math.floor(random() * 20)) * HOUR, confirmedAt);
    let previous = confirmedAt;
    let stillToBook = booked;
    for (const move of moves) {
      if (balance + move.cents < 0) {
        const at = previous + Math.floor((move.at - previous) * (0.3 + random() * 0.6));
        const amount = roundUp(stillToBook - balance + cushion);
        topUp(studentId, amount, at - (1 + Math.floor(random() * 20)) * HOUR, at);
        balance += amount;
      }
      balance += move.cents;
      if (move.cents < 0) stillToBook += move.cents;
      previous = move.at;
    }
  }
  // Two transfers announced in the last day, that the demo admin has yet to see arrive.
  const students = [...byStudent.keys()].sort();
  for (let n = 0; n < PENDING_TOP_UPS && students.length > 0; n++) {
    const studentId = students[Math.floor(random() * students.length)] as string;
    topUp(
      studentId,
      (5 + Math.floor(random() * 16)) * step,
      now - (2 + Math.floor(random() * 20)) * HOUR,
      null,
    );
  }

  // Payouts a few days ago, to the first tutors (by id) who had earned something by then.
  const payoutAt = now - 4 * DAY;
  const tutors = [
    ...new Set(
      lessons
        .filter((lesson) => lesson.status === 'completed' && lesson.ends_at.getTime() < payoutAt)
        .map((lesson) => lesson.tutor_id),
    ),
  ].sort();
  for (const [index, tutorId] of tutors.slice(0, PAID_TUTORS).entries())
    steps.push({
      at: payoutAt + index * HOUR,
      order: 4,
      kind: 'payout',
      tutorId,
      reference: `PAYOUT-${String(index + 1).padStart(3, '0')}`,
    });

  steps.sort((a, b) => a.at - b.at || a.order - b.order);
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < topUps.length; start += 500)
      await trx
        .insertInto('top_ups')
        .values(topUps.slice(start, start + 500))
        .execute();
    for (const next of steps) await write(trx, rules, next);
  });
}

async function write(trx: Transaction<DB>, rules: PaymentRules, next: Step) {
  switch (next.kind) {
    case 'top_up': {
      // What the admin's confirmation credits: from the clearing account to the balance.
      await creditTopUp(trx, next.topUp, DEMO_ADMIN.id, next.at);
      return;
    }
    case 'hold':
      return holdPrice(trx, rules, next.lesson, next.at);
    case 'release':
      return releaseHold(trx, next.lesson.id, { actorId: next.lesson.student_id, now: next.at });
    case 'settle':
      return settleHold(trx, next.lesson.id, next.at);
    case 'payout': {
      // Most of what the tutor was owed that day, in whole units; the rest stays payable.
      const unit = minorPerUnit(rules.currency);
      const payable = await balanceOf(trx, accounts.payable(next.tutorId).id);
      const amount = Math.floor((payable * 0.8) / unit) * unit;
      if (amount <= 0) return;
      await post(trx, {
        kind: 'payout',
        key: `payout:${randomUUID()}`,
        currency: rules.currency,
        actorId: DEMO_ADMIN.id,
        memo: `Payout, reference ${next.reference}`,
        entries: [
          { account: accounts.payable(next.tutorId), amountCents: -amount },
          { account: accounts.clearing('manual'), amountCents: amount },
        ],
        now: next.at,
      });
      return;
    }
  }
}
