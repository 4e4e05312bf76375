/**
 * A busy family for the benchmark's parent dashboard, asked for with `npm run seed:demo --
 * --family-lessons N` and none by default: a demo parent who signs in with the demo password,
 * three children added through the family's own `addChild`, and N lessons between the children and
 * the demo tutors, paid by the parent. Two lessons in three took place (most with the tutor's
 * notes), the others are confirmed ahead. Each lesson's money is written through the ledger's own
 * `postAll` as the app would have moved it: the parent's transfer, the price held at booking, and
 * for a lesson that took place, its settlement.
 * The lessons lie outside the three weeks either side of now where the demo lessons are, each an
 * hour apart from every other, so no tutor's or child's lessons overlap.
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema';
import { addChild } from '../family/family';
import { accounts, type Posting, postAll } from '../money/ledger';
import type { PaymentRules } from '../money/lesson-payments';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PRICE = 4_000;
const COMMISSION = 600;
const CHILDREN = ['Maya', 'Leo', 'Iris'];

export const DEMO_PARENT = {
  id: 'demo-parent',
  email: 'parent@demo.tutorlane.test',
  displayName: 'Pat Parent',
} as const;

/** The demo parent, with a password sign-in of `passwordHash`, their children and `count` lessons. */
export async function insertDemoFamily(
  db: Kysely<DB>,
  options: { lessons: number; passwordHash: string; now: number; payments: PaymentRules },
) {
  const { now, payments } = options;
  await db
    .insertInto('users')
    .values({
      id: DEMO_PARENT.id,
      email: DEMO_PARENT.email,
      display_name: DEMO_PARENT.displayName,
      email_verified: true,
      role: 'parent',
      time_zone: 'UTC',
      created_at: new Date(now - 400 * DAY),
      updated_at: new Date(now - 400 * DAY),
    })
    .execute();
  await db
    .insertInto('accounts')
    .values({
      id: crypto.randomUUID(),
      user_id: DEMO_PARENT.id,
      account_id: DEMO_PARENT.id,
      provider_id: 'credential',
      password: options.passwordHash,
      created_at: new Date(now),
      updated_at: new Date(now),
    })
    .execute();
  const children: string[] = [];
  for (const [i, firstName] of CHILDREN.entries())
    children.push((await addChild(db, DEMO_PARENT.id, { firstName, birthYear: 2012 + i }, now)).id);
  const tutors = (
    await db
      .selectFrom('users')
      .select('id')
      .where('id', 'like', 'demo-tutor-%')
      .orderBy('id')
      .limit(12)
      .execute()
  ).map((row) => row.id);

  const ahead = Math.floor(options.lessons / 3);
  const past = options.lessons - ahead;
  const lessons: Insertable<DB['lessons']>[] = [];
  const postings: Posting[] = [];
  for (let n = 0; n < options.lessons; n++) {
    const done = n < past;
    // Past ones from 22 days ago backwards, the others from 22 days ahead on, 7 hours apart.
    const start = done ? now - 22 * DAY - (n + 1) * 7 * HOUR : now + 22 * DAY + (n - past) * 7 * HOUR;
    const id = crypto.randomUUID();
    const bookedAt = done ? start - 5 * DAY : now - (n % 20) * DAY - HOUR;
    lessons.push({
      id,
      tutor_id: tutors[n % tutors.length] as string,
      student_id: children[n % children.length] as string,
      payer_id: DEMO_PARENT.id,
      subject: 'Algebra',
      note: '',
      starts_at: new Date(start),
      ends_at: new Date(start + HOUR),
      minutes: 60,
      blocked_until: new Date(start + HOUR),
      price_cents: PRICE,
      currency: payments.currency,
      status: done ? 'completed' : 'confirmed',
      ...(payments.on
        ? { payment_status: done ? 'settled' : 'held', commission_percent: payments.commissionPercent }
        : {}),
      sequence: 0,
      created_at: new Date(bookedAt),
      updated_at: new Date(done ? start + HOUR : bookedAt),
    });
    if (payments.on)
      postings.push(
        ...moneyOf(id, tutors[n % tutors.length] as string, payments.currency, bookedAt, done && start),
      );
  }
  const notes = lessons
    .filter((lesson, n) => lesson.status === 'completed' && n % 4 !== 3)
    .map((lesson) => ({
      lesson_id: lesson.id,
      covered: 'Linear equations, then word problems with two unknowns.',
      homework: 'Exercises 4 to 9 on page 52.',
      created_at: lesson.ends_at,
      updated_at: lesson.ends_at,
    }));
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < lessons.length; start += 200)
      await trx
        .insertInto('lessons')
        .values(lessons.slice(start, start + 200))
        .execute();
    for (let start = 0; start < notes.length; start += 500)
      await trx
        .insertInto('lesson_notes')
        .values(notes.slice(start, start + 500))
        .execute();
    if (postings.length > 0) await postAll(trx, postings);
  });
  // The embedded store has no autovacuum: keep the planner's picture of the new rows true at once.
  await sql`analyze lessons, lesson_notes, ledger_accounts, ledger_transactions, ledger_entries`.execute(db);
}

/** One lesson's money: the parent's transfer and the hold at booking, and its settlement once it took place. */
function moneyOf(
  lessonId: string,
  tutorId: string,
  currency: string,
  bookedAt: number,
  tookPlaceAt: number | false,
): Posting[] {
  const hold = accounts.hold(lessonId);
  const balance = accounts.balance(DEMO_PARENT.id);
  const posting = (kind: Posting['kind'], step: string, at: number, entries: Posting['entries']) => ({
    kind,
    key: kind === 'top_up' ? `demo-family:${lessonId}:in` : `lesson:${lessonId}:${step}`,
    currency,
    lessonId: kind === 'top_up' ? null : lessonId,
    actorId: null,
    memo: kind === 'top_up' ? 'Bank transfer' : 'Algebra lesson (60 min)',
    entries,
    now: at,
  });
  return [
    posting('top_up', 'in', bookedAt - HOUR, [
      { account: accounts.clearing('manual'), amountCents: -PRICE },
      { account: balance, amountCents: PRICE },
    ]),
    posting('lesson_hold', 'hold', bookedAt, [
      { account: balance, amountCents: -PRICE },
      { account: hold, amountCents: PRICE },
    ]),
    ...(tookPlaceAt === false
      ? []
      : [
          posting('lesson_settle', 'settle', tookPlaceAt + HOUR, [
            { account: hold, amountCents: -PRICE },
            { account: accounts.payable(tutorId), amountCents: PRICE - COMMISSION },
            { account: accounts.revenue(), amountCents: COMMISSION },
          ]),
        ]),
  ];
}
