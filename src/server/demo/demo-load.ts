/**
 * Volume for the benchmark, on top of `npm run seed:demo`'s marketplace, each part asked for with
 * an option of its own (scripts/seed-demo.ts) and none of it made by default:
 * - lessons that all end a minute before seed:demo finishes, each its pair's first, so the first
 *   pass of the lessons' minute job after start-up completes every one of them (settling what they
 *   hold, when the school takes payments) and invites every student to review;
 * - lessons starting in half an hour, confirmed days ago, so the reminders' first pass mails both
 *   people of each the hour reminder;
 * - a long wallet history for one student, and a ledger of a given number of entries, written
 *   through the ledger's own `postAll`, so the database's rules check every entry.
 * - pairs of a demo student and a listed demo tutor who have nothing yet, their emails numbered
 *   (pair.student1@…, pair.tutor1@…): the benchmark's message senders. Their ids start `demo-`, so
 *   seed:demo gives them the demo password with the others.
 * The people of the due lessons are plain accounts without a password (ids starting `load-`), one
 * student and one tutor per lesson: nobody's lessons may overlap.
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema';
import { accounts, type Posting, postAll } from '../money/ledger';
import type { PaymentRules } from '../money/lesson-payments';
import { groupCatalog, readSubjects } from '../settings/subject-catalog';
import { generateDemoTutors, insertDemoTutors } from './demo-tutors';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Rows per insert: well under a statement's 65,535 parameters. */
const BATCH = 500;
/** Every load lesson is an hour at 40 an hour, in minor units. */
const PRICE = 4_000;

async function insertInBatches<Table extends 'users' | 'lessons'>(
  db: Kysely<DB>,
  table: Table,
  rows: Insertable<DB[Table]>[],
) {
  for (let start = 0; start < rows.length; start += BATCH)
    await db
      .insertInto(table)
      .values(rows.slice(start, start + BATCH) as never)
      .execute();
}

type Role = 'student' | 'tutor';

/** The benchmark's numbered plain accounts: the due lessons' people, and the message senders. */
const PLAIN = {
  load: { idPrefix: 'load', name: 'Load' },
  // Their ids start `demo-`: seed:demo gives every demo account the demo password.
  pair: { idPrefix: 'demo-pair', name: 'Pair' },
} as const;

/**
 * A numbered plain account, its time zone UTC and its email verified (for "load": id
 * load-student-00001, load.student1@demo.tutorlane.test, "Load Student 1").
 */
const plainPerson = (kind: keyof typeof PLAIN, role: Role, n: number, joined: Date) => ({
  id: `${PLAIN[kind].idPrefix}-${role}-${String(n).padStart(5, '0')}`,
  email: `${kind}.${role}${n}@demo.tutorlane.test`,
  display_name: `${PLAIN[kind].name} ${role === 'student' ? 'Student' : 'Tutor'} ${n}`,
  email_verified: true,
  role,
  time_zone: 'UTC',
  created_at: joined,
  updated_at: joined,
});

/**
 * `count` pairs of a demo student and a demo tutor, listed with the demo tutors' profiles (no
 * photo), none with a lesson yet; their time zone UTC, their email verified.
 */
export async function insertPairs(db: Kysely<DB>, count: number, now: number) {
  const person = (role: Role, n: number) => plainPerson('pair', role, n, new Date(now));
  const students = Array.from({ length: count }, (_, i) => person('student', i + 1));
  await db.transaction().execute((trx) => insertInBatches(trx, 'users', students));
  // A second seed of the demo tutors' generator: other names, other subjects.
  const tutors = generateDemoTutors(count, 2027, groupCatalog(await readSubjects(db))).map((tutor, i) => {
    const { id, email } = person('tutor', i + 1);
    return { ...tutor, id, email, timeZone: 'UTC' };
  });
  await insertDemoTutors(db, tutors, { photos: false });
}

/**
 * `ending` confirmed lessons that ended a minute before `now`, and `reminded` lessons starting half
 * an hour after it (their pairs the first `reminded` of the same people), an hour each at the
 * tutors' price of 40 an hour. When the school takes payments, each student's transfer paid for
 * their lessons and each lesson holds its price, written as a booking would have.
 */
export async function insertDueLessons(
  db: Kysely<DB>,
  options: { ending: number; remindedPeople: number; now: number; payments: PaymentRules },
) {
  const { ending, now, payments } = options;
  const { currency } = payments;
  // A reminder goes to both people of a lesson.
  const reminded = Math.ceil(options.remindedPeople / 2);
  const pairs = Math.max(ending, reminded);
  const person = (role: Role, n: number) => plainPerson('load', role, n, new Date(now - 30 * DAY));
  const people = Array.from({ length: pairs }, (_, i) => [person('student', i + 1), person('tutor', i + 1)]);
  const lesson = (n: number, start: number): Insertable<DB['lessons']> => ({
    id: crypto.randomUUID(),
    tutor_id: `load-tutor-${String(n).padStart(5, '0')}`,
    student_id: `load-student-${String(n).padStart(5, '0')}`,
    subject: 'Algebra',
    note: '',
    starts_at: new Date(start),
    ends_at: new Date(start + HOUR),
    minutes: 60,
    blocked_until: new Date(start + HOUR),
    price_cents: PRICE,
    currency,
    status: 'confirmed',
    ...(payments.on ? { payment_status: 'held', commission_percent: payments.commissionPercent } : {}),
    expires_at: null,
    sequence: 0,
    idempotency_key: null,
    // Booked two days ago: long enough before its start for every reminder to be due.
    created_at: new Date(now - 2 * DAY),
    updated_at: new Date(now - 2 * DAY),
  });
  const lessons = [
    ...Array.from({ length: ending }, (_, i) => lesson(i + 1, now - HOUR - MINUTE)),
    ...Array.from({ length: reminded }, (_, i) => lesson(i + 1, now + 30 * MINUTE)),
  ];
  await db.transaction().execute(async (trx) => {
    await insertInBatches(trx, 'users', people.flat());
    await insertInBatches(trx, 'lessons', lessons);
    if (payments.on)
      await postAll(
        trx,
        lessons.flatMap((lesson) => paidFor(lesson, now)),
      );
  });
  await sql`analyze users, lessons`.execute(db);
}

/** A due lesson's money: the student's transfer two days before `now`, then the price held. */
function paidFor(lesson: Insertable<DB['lessons']>, now: number): Posting[] {
  const at = now - 2 * DAY;
  const common = { currency: lesson.currency as string, actorId: null, now: at };
  return [
    {
      ...common,
      kind: 'top_up',
      key: `load:${lesson.id}:in`,
      memo: 'Bank transfer',
      entries: [
        { account: accounts.clearing('manual'), amountCents: -PRICE },
        { account: accounts.balance(lesson.student_id), amountCents: PRICE },
      ],
    },
    {
      ...common,
      kind: 'lesson_hold',
      key: `lesson:${lesson.id}:hold`,
      lessonId: lesson.id,
      memo: 'Algebra lesson (60 min)',
      entries: [
        { account: accounts.balance(lesson.student_id), amountCents: -PRICE },
        { account: accounts.hold(lesson.id), amountCents: PRICE },
      ],
    },
  ];
}

/**
 * The load's n-th lesson of a student, as the app would have written it: a bank transfer that
 * pays for it, its price held when booked, and the hold settled when it took place (15% to the
 * school, the rest to `tutorId`). Three transactions, two of them on the student's balance, and
 * seven entries; each lesson has a hold account of its own, as in the app.
 */
function lessonCycle(studentId: string, tutorId: string, n: number, currency: string, at: number): Posting[] {
  const price = PRICE;
  const commission = 600;
  const lessonId = `load-${studentId}-${n}`;
  const hold = accounts.hold(lessonId);
  const posting = (kind: Posting['kind'], step: string, offset: number, entries: Posting['entries']) => ({
    kind,
    key: `load:${lessonId}:${step}`,
    currency,
    lessonId: kind === 'top_up' ? null : lessonId,
    actorId: null,
    memo: kind === 'top_up' ? 'Bank transfer' : 'Algebra lesson (60 min)',
    entries,
    now: at + offset,
  });
  return [
    posting('top_up', 'in', 0, [
      { account: accounts.clearing('manual'), amountCents: -price },
      { account: accounts.balance(studentId), amountCents: price },
    ]),
    posting('lesson_hold', 'hold', HOUR, [
      { account: accounts.balance(studentId), amountCents: -price },
      { account: hold, amountCents: price },
    ]),
    posting('lesson_settle', 'settle', DAY, [
      { account: hold, amountCents: -price },
      { account: accounts.payable(tutorId), amountCents: price - commission },
      { account: accounts.revenue(), amountCents: commission },
    ]),
  ];
}

/**
 * About `transactions` transactions on each of `studentIds`' balances (two for each lesson of
 * lessonCycle, which writes seven ledger entries), the lessons with `tutorIds` in turn, spread over
 * the last year, written through the ledger's `postAll` a few thousand to a statement.
 */
export async function insertWalletHistory(
  db: Kysely<DB>,
  options: { studentIds: string[]; tutorIds: string[]; transactions: number; now: number; currency: string },
) {
  const { studentIds, tutorIds, now, currency } = options;
  const lessons = Math.ceil(options.transactions / 2);
  const postings: Posting[] = [];
  for (const [s, studentId] of studentIds.entries())
    for (let n = 0; n < lessons; n++) {
      const at = now - DAY * 365 + Math.floor(((DAY * 360) / lessons) * n);
      const tutorId = tutorIds[(s + n) % tutorIds.length] as string;
      postings.push(...lessonCycle(studentId, tutorId, n, currency, at));
    }
  for (let start = 0; start < postings.length; start += 9_000)
    await db.transaction().execute((trx) => postAll(trx, postings.slice(start, start + 9_000)));
}
