/**
 * The ledger's rules, through its plain functions and straight SQL, without HTTP. It runs with the
 * API suites so that both stores (the embedded one and PostgreSQL) prove the database itself keeps
 * them: every transaction sums to zero, entries are never changed or deleted, a student's balance
 * never goes below zero, and a key is applied once. A property-based test plays random sequences of
 * top-ups, bookings, releases, settlements and payouts against a model.
 */
import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/schema';
import { financeOverview } from '../../src/server/money/finance-overview';
import {
  accounts,
  balanceOf,
  commissionOf,
  type Posting,
  post,
  postAll,
  totalsByAccount,
} from '../../src/server/money/ledger';
import { takeCheckpoint, totalsByName } from '../../src/server/money/ledger-checkpoints';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let database: TestDatabase;
let db: Kysely<DB>;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(async () => {
  await database.destroy();
});

let serial = 0;
const unique = (prefix: string) => `${prefix}-${++serial}-${Math.random().toString(36).slice(2, 8)}`;

const topUpPosting = (studentId: string, amountCents: number, key = unique('top-up')): Posting => ({
  kind: 'top_up',
  key,
  currency: 'USD',
  actorId: null,
  memo: 'test top-up',
  entries: [
    { account: accounts.clearing('manual'), amountCents: -amountCents },
    { account: accounts.balance(studentId), amountCents },
  ],
});

function topUp(studentId: string, amountCents: number, key = unique('top-up')) {
  return db.transaction().execute((trx) => post(trx, topUpPosting(studentId, amountCents, key)));
}

/**
 * One move of `amountCents` from one account to another, posted in a transaction of its own (a
 * hold, a settlement, a payout: each a posting of two entries).
 */
function move(
  from: Posting['entries'][number]['account'],
  to: Posting['entries'][number]['account'],
  amountCents: number,
  posting: Omit<Posting, 'currency' | 'entries'>,
) {
  return db.transaction().execute((trx) =>
    post(trx, {
      ...posting,
      currency: 'USD',
      entries: [
        { account: from, amountCents: -amountCents },
        { account: to, amountCents },
      ],
    }),
  );
}

function hold(studentId: string, lessonId: string, amountCents: number) {
  return move(accounts.balance(studentId), accounts.hold(lessonId), amountCents, {
    kind: 'lesson_hold',
    key: `lesson:${lessonId}:hold`,
    lessonId,
    actorId: studentId,
    memo: 'test lesson',
  });
}

/** Every transaction's entries, summed: a list of the ones that do not come to zero. */
async function unbalanced() {
  const rows = await sql<{ transaction_id: number }>`select transaction_id from ledger_entries
    group by transaction_id having sum(amount_cents) <> 0`.execute(db);
  return rows.rows;
}

async function negativeBalances() {
  const rows = await sql<{ account_id: string }>`select account_id from ledger_entries
    where account_kind in ('balance', 'hold') group by account_id having sum(amount_cents) < 0`.execute(db);
  return rows.rows;
}

/** Each statement is refused by the ledger's append-only triggers (object_not_in_prerequisite_state). */
async function expectRefused(statements: ReturnType<typeof sql>[]) {
  for (const statement of statements)
    await expect(statement.execute(db), statement.compile(db).sql).rejects.toMatchObject({ code: '55000' });
}

describe('commission', () => {
  it('is rounded half up to the cent, and the tutor gets the rest', () => {
    expect(commissionOf(3500, 15)).toBe(525);
    expect(commissionOf(3333, 15)).toBe(500); // 499.95 rounds up
    expect(commissionOf(3330, 15)).toBe(500); // 499.5 rounds up
    expect(commissionOf(3329, 15)).toBe(499); // 499.35 rounds down
    expect(commissionOf(1, 50)).toBe(1); // half a cent rounds up
    expect(commissionOf(0, 15)).toBe(0);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 50 }),
        (price, percent) => {
          const commission = commissionOf(price, percent);
          const exact = (price * percent) / 100;
          // Never more than half a cent off, ties going up; the two shares add up to the price.
          expect(commission - exact).toBeLessThanOrEqual(0.5);
          expect(exact - commission).toBeLessThan(0.5);
          expect(commission + (price - commission)).toBe(price);
          expect(commission).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});

describe('the database keeps the ledger whole', () => {
  it('records a balanced transaction, and a key once', async () => {
    const student = unique('student');
    const key = unique('key');
    const first = await topUp(student, 5000, key);
    const again = await topUp(student, 5000, key);
    expect(first).toEqual(expect.any(Number));
    expect(again).toBeNull();
    expect(await balanceOf(db, accounts.balance(student).id)).toBe(5000);
  });

  it('refuses, at commit, a transaction whose entries do not sum to zero', async () => {
    const account = accounts.balance(unique('student'));
    await db
      .insertInto('ledger_accounts')
      .values({ id: account.id, kind: 'balance', currency: 'USD' })
      .execute();
    const attempt = db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('ledger_transactions')
        .values({ kind: 'top_up', idempotency_key: unique('lopsided'), actor_id: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('ledger_entries')
        .values({ transaction_id: row.id, account_id: account.id, amount_cents: 100 })
        .execute();
    });
    await expect(attempt).rejects.toMatchObject({ code: '23514' });
    expect(await balanceOf(db, account.id)).toBe(0);
    // Nor can entries be added to a balanced transaction afterwards.
    const student = unique('student');
    const id = await topUp(student, 700);
    const added = db
      .insertInto('ledger_entries')
      .values({ transaction_id: id ?? 0, account_id: accounts.balance(student).id, amount_cents: 1 })
      .execute();
    await expect(added).rejects.toMatchObject({ code: '23514' });
    expect(await balanceOf(db, accounts.balance(student).id)).toBe(700);
  });

  it('refuses to update, delete or truncate entries and transactions', async () => {
    const student = unique('student');
    await topUp(student, 1200);
    const account = accounts.balance(student).id;
    await expectRefused([
      sql`update ledger_entries set amount_cents = 1 where account_id = ${account}`,
      sql`delete from ledger_entries where account_id = ${account}`,
      sql`update ledger_transactions set memo = 'changed'`,
      sql`delete from ledger_transactions`,
      sql`truncate ledger_entries, ledger_transactions`,
    ]);
    expect(await balanceOf(db, account)).toBe(1200);
  });

  it('never lets a balance go below zero, however the entries are written', async () => {
    const student = unique('student');
    await topUp(student, 3000);
    await hold(student, unique('lesson'), 2000);
    // Straight SQL, past every check of the code: the database refuses the entry.
    await expect(hold(student, unique('lesson'), 1500)).rejects.toMatchObject({ code: '23514' });
    expect(await balanceOf(db, accounts.balance(student).id)).toBe(1000);
  });

  it('lets bookings race for one balance: as many succeed as it covers', async () => {
    const student = unique('student');
    await topUp(student, 3000);
    const attempts = await Promise.allSettled(
      Array.from({ length: 12 }, () => hold(student, unique('lesson'), 1000)),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(3);
    expect(await balanceOf(db, accounts.balance(student).id)).toBe(0);
    expect(await negativeBalances()).toEqual([]);
  });
});

describe('many transactions at once (postAll)', () => {
  it('records each in order, with running balances as if posted one by one, and each key once', async () => {
    const student = unique('student');
    const other = unique('student');
    const repeated = unique('key');
    const earlier = unique('key');
    await topUp(other, 100, earlier);
    const ids = await db.transaction().execute((trx) =>
      postAll(trx, [
        topUpPosting(student, 1000, repeated),
        topUpPosting(other, 200),
        topUpPosting(student, 500),
        // Listed twice, or recorded before: nothing more is written.
        topUpPosting(student, 9999, repeated),
        topUpPosting(other, 9999, earlier),
      ]),
    );
    expect(ids.map((id) => id === null)).toEqual([false, false, false, true, true]);
    expect(await balanceOf(db, accounts.balance(student).id)).toBe(1500);
    expect(await balanceOf(db, accounts.balance(other).id)).toBe(300);
    const runningBalances = await db
      .selectFrom('ledger_entries')
      .select(['account_seq', 'balance_after_cents'])
      .where('account_id', '=', accounts.balance(student).id)
      .orderBy('account_seq')
      .execute();
    expect(runningBalances).toEqual([
      { account_seq: 1, balance_after_cents: 1000 },
      { account_seq: 2, balance_after_cents: 1500 },
    ]);
  });

  it('writes none of them when one breaks a rule', async () => {
    const student = unique('student');
    const lesson = unique('lesson');
    const attempt = db.transaction().execute((trx) =>
      postAll(trx, [
        topUpPosting(student, 1000),
        {
          kind: 'lesson_hold',
          key: `lesson:${lesson}:hold`,
          currency: 'USD',
          lessonId: lesson,
          actorId: student,
          memo: 'test lesson',
          // More than the balance holds: the database refuses the entry.
          entries: [
            { account: accounts.balance(student), amountCents: -1500 },
            { account: accounts.hold(lesson), amountCents: 1500 },
          ],
        },
      ]),
    );
    await expect(attempt).rejects.toMatchObject({ code: '23514' });
    expect(await balanceOf(db, accounts.balance(student).id)).toBe(0);
  });
});

describe('any sequence of money moves', () => {
  type Move =
    | { kind: 'topUp'; student: number; amount: number }
    | { kind: 'book'; student: number; tutor: number; price: number }
    | { kind: 'release'; lesson: number }
    | { kind: 'settle'; lesson: number; percent: number }
    | { kind: 'payout'; tutor: number; amount: number };
  const move: fc.Arbitrary<Move> = fc.oneof(
    fc.record({
      kind: fc.constant('topUp' as const),
      student: fc.nat(2),
      amount: fc.integer({ min: 1, max: 20_000 }),
    }),
    fc.record({
      kind: fc.constant('book' as const),
      student: fc.nat(2),
      tutor: fc.nat(1),
      price: fc.integer({ min: 1, max: 9_000 }),
    }),
    fc.record({ kind: fc.constant('release' as const), lesson: fc.nat(20) }),
    fc.record({
      kind: fc.constant('settle' as const),
      lesson: fc.nat(20),
      percent: fc.integer({ min: 0, max: 50 }),
    }),
    fc.record({
      kind: fc.constant('payout' as const),
      tutor: fc.nat(1),
      amount: fc.integer({ min: 1, max: 10_000 }),
    }),
  );

  it('keeps every transaction balanced, no balance negative, and matches a model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 25 }), async (moves) => {
        const run = unique('run');
        const students = [0, 1, 2].map((i) => `${run}-s${i}`);
        const tutors = [0, 1].map((i) => `${run}-t${i}`);
        const model = { balances: [0, 0, 0], payable: [0, 0] };
        const lessons: { id: string; student: number; tutor: number; price: number; open: boolean }[] = [];
        for (const step of moves) {
          await db.transaction().execute(async (trx) => {
            const write = (
              kind: Parameters<typeof post>[1]['kind'],
              entries: Parameters<typeof post>[1]['entries'],
              lessonId?: string,
            ) =>
              post(trx, {
                kind,
                key: unique(kind),
                currency: 'USD',
                actorId: null,
                memo: '',
                lessonId,
                entries,
              });
            if (step.kind === 'topUp') {
              await write('top_up', [
                { account: accounts.clearing('manual'), amountCents: -step.amount },
                { account: accounts.balance(students[step.student] ?? ''), amountCents: step.amount },
              ]);
              model.balances[step.student] = (model.balances[step.student] ?? 0) + step.amount;
            } else if (step.kind === 'book') {
              // As booking does: only what the balance covers.
              if ((model.balances[step.student] ?? 0) < step.price) return;
              const id = `${run}-l${lessons.length}`;
              await write(
                'lesson_hold',
                [
                  { account: accounts.balance(students[step.student] ?? ''), amountCents: -step.price },
                  { account: accounts.hold(id), amountCents: step.price },
                ],
                id,
              );
              lessons.push({ id, student: step.student, tutor: step.tutor, price: step.price, open: true });
              model.balances[step.student] = (model.balances[step.student] ?? 0) - step.price;
            } else if (step.kind === 'release' || step.kind === 'settle') {
              const lesson = lessons[step.lesson];
              if (!lesson?.open) return;
              lesson.open = false;
              if (step.kind === 'release') {
                await write(
                  'lesson_release',
                  [
                    { account: accounts.hold(lesson.id), amountCents: -lesson.price },
                    { account: accounts.balance(students[lesson.student] ?? ''), amountCents: lesson.price },
                  ],
                  lesson.id,
                );
                model.balances[lesson.student] = (model.balances[lesson.student] ?? 0) + lesson.price;
              } else {
                const commission = commissionOf(lesson.price, step.percent);
                await write(
                  'lesson_settle',
                  [
                    { account: accounts.hold(lesson.id), amountCents: -lesson.price },
                    {
                      account: accounts.payable(tutors[lesson.tutor] ?? ''),
                      amountCents: lesson.price - commission,
                    },
                    { account: accounts.revenue(), amountCents: commission },
                  ],
                  lesson.id,
                );
                model.payable[lesson.tutor] = (model.payable[lesson.tutor] ?? 0) + lesson.price - commission;
              }
            } else {
              const amount = Math.min(step.amount, model.payable[step.tutor] ?? 0);
              if (amount <= 0) return;
              await write('payout', [
                { account: accounts.payable(tutors[step.tutor] ?? ''), amountCents: -amount },
                { account: accounts.clearing('manual'), amountCents: amount },
              ]);
              model.payable[step.tutor] = (model.payable[step.tutor] ?? 0) - amount;
            }
          });
        }
        for (const [i, student] of students.entries())
          expect(await balanceOf(db, accounts.balance(student).id)).toBe(model.balances[i]);
        for (const [i, tutor] of tutors.entries())
          expect(await balanceOf(db, accounts.payable(tutor).id)).toBe(model.payable[i]);
        for (const lesson of lessons)
          expect(await balanceOf(db, accounts.hold(lesson.id).id)).toBe(lesson.open ? lesson.price : 0);
      }),
      { numRuns: 15 },
    );
    expect(await unbalanced()).toEqual([]);
    expect(await negativeBalances()).toEqual([]);
    const totals = await totalsByAccount(db);
    expect(
      totals.studentBalances +
        totals.held +
        totals.tutorPayable +
        totals.schoolRevenue +
        totals.clearing.manual +
        totals.clearing.stripe,
    ).toBe(0);
  });
});

describe('checkpoints of the totals', () => {
  /** Every total straight from every entry, which the checkpoints must agree with, by name. */
  async function rawTotals() {
    const rows = await sql<{ name: string; total: string | number }>`select
        case when account_kind = 'clearing' then account_id else account_kind end as name,
        sum(amount_cents) as total
      from ledger_entries group by 1`.execute(db);
    return new Map(rows.rows.map((row) => [row.name, Number(row.total)]));
  }
  /** The totals as the finance page gets them, by the same names. */
  const totals = () => totalsByName(db);

  it('keep the totals exact before, at and after each checkpoint, and are never changed', async () => {
    const student = unique('student');
    await topUp(student, 4000);
    expect(await totals()).toEqual(await rawTotals());
    const through = await takeCheckpoint(db, 1);
    expect(through).toEqual(expect.any(Number));
    expect(await totals()).toEqual(await rawTotals());
    // Too few entries since: no new checkpoint.
    await hold(student, unique('lesson'), 1500);
    expect(await takeCheckpoint(db, 1_000)).toBeNull();
    expect(await totals()).toEqual(await rawTotals());
    expect(await takeCheckpoint(db, 1)).toBeGreaterThan(through as number);
    await topUp(unique('student'), 900);
    expect(await totals()).toEqual(await rawTotals());
    await expectRefused([
      sql`update ledger_checkpoints set total_cents = 0`,
      sql`delete from ledger_checkpoints`,
      sql`truncate ledger_checkpoints`,
    ]);
  });

  it('are taken once when two servers ask at the same moment', async () => {
    await topUp(unique('student'), 300);
    const taken = await Promise.all([takeCheckpoint(db, 1), takeCheckpoint(db, 1)]);
    expect(taken.filter((through) => through !== null)).toHaveLength(1);
    expect(await totals()).toEqual(await rawTotals());
  });

  it('count an entry whose transaction was open while the checkpoint was asked for', async () => {
    const student = unique('student');
    let commit = () => {};
    const committed = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let posted = () => {};
    const wasPosted = new Promise<void>((resolve) => {
      posted = resolve;
    });
    const writing = db.transaction().execute(async (trx) => {
      await post(trx, {
        kind: 'top_up',
        key: unique('slow'),
        currency: 'USD',
        actorId: null,
        memo: 'test top-up',
        entries: [
          { account: accounts.clearing('manual'), amountCents: -2500 },
          { account: accounts.balance(student), amountCents: 2500 },
        ],
      });
      posted();
      await committed;
    });
    await wasPosted;
    const checkpoint = takeCheckpoint(db, 1);
    // The checkpoint waits for the writer, so what it adds up includes the writer's entries.
    setTimeout(commit, 200);
    await Promise.all([writing, checkpoint]);
    const newest = await db
      .selectFrom('ledger_checkpoints')
      .select(['through_entry_id'])
      .orderBy('through_entry_id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const lastEntry = await db
      .selectFrom('ledger_entries')
      .select('id')
      .where('account_id', '=', accounts.balance(student).id)
      .executeTakeFirstOrThrow();
    expect(Number(newest.through_entry_id)).toBeGreaterThanOrEqual(Number(lastEntry.id));
    expect(await totals()).toEqual(await rawTotals());
  });
});

describe("people's balances at checkpoints", () => {
  /** Students and tutors with a user row each: the finance page lists people, not bare accounts. */
  async function people(role: 'student' | 'tutor', count: number) {
    const ids = Array.from({ length: count }, () => unique(role));
    await db
      .insertInto('users')
      .values(
        ids.map((id) => ({ id, email: `${id}@example.com`, display_name: id, email_verified: true, role })),
      )
      .execute();
    return ids;
  }
  /** Each person's balance straight from their account's newest entry, listed as the page lists them. */
  async function listedDirectly(kind: 'balance' | 'payable') {
    const rows = await sql<{
      id: string;
      cents: string | number;
    }>`select u.id, last.balance_after_cents as cents
        from ledger_accounts a join users u on u.id = a.user_id,
          lateral (select balance_after_cents from ledger_entries e where e.account_id = a.id
            order by e.account_seq desc limit 1) last
        where a.kind = ${kind} and last.balance_after_cents <> 0
        order by last.balance_after_cents desc, a.id limit 500`.execute(db);
    return rows.rows.map((row) => ({ id: row.id, cents: Number(row.cents) }));
  }
  /** The two lists of the finance page, as the same pairs. */
  async function listed() {
    const finance = await financeOverview(db, 'USD');
    return {
      balances: finance.balances.map((row) => ({ id: row.student.id, cents: row.balance.amountCents })),
      payables: finance.payables.map((row) => ({ id: row.tutor.id, cents: row.payable.amountCents })),
    };
  }
  async function expectListedAsEntries() {
    const page = await listed();
    expect(page.balances).toEqual(await listedDirectly('balance'));
    expect(page.payables).toEqual(await listedDirectly('payable'));
    return page;
  }
  const balanceOfIn = (list: { id: string; cents: number }[], id: string) =>
    list.find((row) => row.id === id)?.cents;

  const settle = (lessonId: string, tutorId: string, amountCents: number) =>
    move(accounts.hold(lessonId), accounts.payable(tutorId), amountCents, {
      kind: 'lesson_settle',
      key: unique('settle'),
      lessonId,
      actorId: null,
      memo: 'test settlement',
    });
  const payout = (tutorId: string, amountCents: number) =>
    move(accounts.payable(tutorId), accounts.clearing('manual'), amountCents, {
      kind: 'payout',
      key: unique('payout'),
      actorId: null,
      memo: 'test payout',
    });

  it('list the same as the newest entries before, at and after checkpoints, with moves in between', async () => {
    const [first, emptied, later] = (await people('student', 3)) as [string, string, string];
    const [tutor] = (await people('tutor', 1)) as [string];
    await topUp(first, 4000);
    await topUp(emptied, 1000);
    await expectListedAsEntries();
    expect(await takeCheckpoint(db, 1)).toEqual(expect.any(Number));
    let page = await expectListedAsEntries();
    expect(balanceOfIn(page.balances, emptied)).toBe(1000);

    // After the checkpoint: one balance spent to zero, one moved twice, a person with no account before.
    const lesson = unique('lesson');
    await hold(emptied, lesson, 1000);
    await hold(first, unique('lesson'), 1500);
    await topUp(first, 100);
    await topUp(later, 700);
    await settle(lesson, tutor, 1000);
    page = await expectListedAsEntries();
    expect(balanceOfIn(page.balances, emptied)).toBeUndefined();
    expect(balanceOfIn(page.balances, first)).toBe(2600);
    expect(balanceOfIn(page.balances, later)).toBe(700);
    expect(balanceOfIn(page.payables, tutor)).toBe(1000);

    // A checkpoint carries the balances not moved since the one before it, and leaves out the zeros.
    expect(await takeCheckpoint(db, 1)).toEqual(expect.any(Number));
    await expectListedAsEntries();
    await topUp(later, 300);
    expect(await takeCheckpoint(db, 1)).toEqual(expect.any(Number));
    page = await expectListedAsEntries();
    expect(balanceOfIn(page.balances, first)).toBe(2600);
    expect(balanceOfIn(page.balances, emptied)).toBeUndefined();
    expect(balanceOfIn(page.balances, later)).toBe(1000);

    // A payable paid out to zero leaves; a balance emptied at a checkpoint comes back when topped up.
    await payout(tutor, 1000);
    await topUp(emptied, 250);
    page = await expectListedAsEntries();
    expect(balanceOfIn(page.payables, tutor)).toBeUndefined();
    expect(balanceOfIn(page.balances, emptied)).toBe(250);
    expect(await takeCheckpoint(db, 1)).toEqual(expect.any(Number));
    await expectListedAsEntries();
  });

  it('are written again only once as many entries as their rows have come since', async () => {
    const students = await people('student', 3);
    const rowsAt = async (through: number | null) =>
      Number(
        (
          await db
            .selectFrom('ledger_checkpoint_balances')
            .select((eb) => eb.fn.countAll().as('rows'))
            .where('through_entry_id', '=', through as number)
            .executeTakeFirstOrThrow()
        ).rows,
      );
    // Enough entries since the newest balances (earlier tests left some) for this checkpoint to write them.
    const newest = await db
      .selectFrom('ledger_checkpoint_balances')
      .select((eb) => eb.fn.max('through_entry_id').as('through'))
      .executeTakeFirstOrThrow();
    const before = newest.through === null ? 0 : await rowsAt(Number(newest.through));
    for (let i = 0; i < Math.max(3, before); i++) await topUp(students[i % 3] as string, 100);
    const first = await takeCheckpoint(db, 1);
    const written = await rowsAt(first);
    expect(written).toBeGreaterThanOrEqual(3);

    // One top-up (two entries) is fewer entries than the rows: the totals' checkpoint is taken, the
    // balances' is not, and the page still lists each balance as its newest entry has it.
    const held = balanceOfIn((await listed()).balances, students[0] as string) as number;
    await topUp(students[0] as string, 50);
    const second = await takeCheckpoint(db, 1);
    expect(second).toBeGreaterThan(first as number);
    expect(await rowsAt(second)).toBe(0);
    expect(balanceOfIn((await expectListedAsEntries()).balances, students[0] as string)).toBe(held + 50);

    // As many top-ups again as there were rows: now the balances are written.
    for (let i = 0; i < written; i++) await topUp(students[i % 3] as string, 10);
    const third = await takeCheckpoint(db, 1);
    expect(await rowsAt(third)).toBeGreaterThanOrEqual(3);
    await expectListedAsEntries();
  });

  it('keep the balances of a checkpoint unchanged', async () => {
    const [student] = (await people('student', 1)) as [string];
    await topUp(student, 500);
    expect(await takeCheckpoint(db, 1)).toEqual(expect.any(Number));
    await expectRefused([
      sql`update ledger_checkpoint_balances set balance_cents = 1`,
      sql`delete from ledger_checkpoint_balances`,
      sql`truncate ledger_checkpoint_balances`,
    ]);
  });

  it('list the same as the newest entries whatever the moves and wherever the checkpoints fall', async () => {
    type Step = { kind: 'topUp' | 'spend' | 'settle' | 'payout' | 'checkpoint'; who: number; amount: number };
    const step: fc.Arbitrary<Step> = fc.record({
      kind: fc.constantFrom('topUp', 'spend', 'settle', 'payout', 'checkpoint'),
      who: fc.nat(2),
      amount: fc.integer({ min: 1, max: 3_000 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const students = await people('student', 3);
        const tutors = await people('tutor', 3);
        const balances = [0, 0, 0];
        const payables = [0, 0, 0];
        for (const { kind, who, amount } of steps) {
          const student = students[who] as string;
          const tutor = tutors[who] as string;
          // Spending and paying out take all that is left when the amount is more, so zeros happen.
          const spent = Math.min(amount, balances[who] ?? 0);
          const paid = Math.min(amount, payables[who] ?? 0);
          if (kind === 'topUp') {
            await topUp(student, amount);
            balances[who] = (balances[who] ?? 0) + amount;
          } else if (kind === 'spend' && spent > 0) {
            await hold(student, unique('lesson'), spent);
            balances[who] = (balances[who] ?? 0) - spent;
          } else if (kind === 'settle') {
            const lesson = unique('lesson');
            await topUp(student, amount);
            await hold(student, lesson, amount);
            await settle(lesson, tutor, amount);
            payables[who] = (payables[who] ?? 0) + amount;
          } else if (kind === 'payout' && paid > 0) {
            await payout(tutor, paid);
            payables[who] = (payables[who] ?? 0) - paid;
          } else if (kind === 'checkpoint') await takeCheckpoint(db, 1);
          await expectListedAsEntries();
        }
        const page = await listed();
        for (const [i, id] of students.entries())
          expect(balanceOfIn(page.balances, id) ?? 0).toBe(balances[i]);
        for (const [i, id] of tutors.entries()) expect(balanceOfIn(page.payables, id) ?? 0).toBe(payables[i]);
      }),
      { numRuns: 8 },
    );
  });
});
