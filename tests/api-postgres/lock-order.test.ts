/**
 * The order in which bookings, deletions, refunds and previews take their row locks, on a shared
 * PostgreSQL: a second connection holds the lock the other side takes first and then asks for the
 * one the request takes, as a deletion or a booking in progress would. Locked in one order, the
 * request waits and then gives its usual answer; in two orders, PostgreSQL would abort one of
 * them as a deadlock (40P01, a 500). A booking that waited for its tutor's deletion is answered
 * 404. The school's finance totals still sum to zero. A message holds its conversation before it
 * draws its id, so a conversation's messages become visible in the order of their ids.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/schema';
import { accounts } from '../../src/server/money/ledger';
import { get, send } from '../support/accounts';
import { type Person, person, setUpApiTest, t } from '../support/api-app';
import { openAvailability } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp, walletOf } from '../support/money';

setUpApiTest({ env: { PAYMENTS: 'on', COMMISSION_PERCENT: '15' } });

const ZONE = 'Europe/Madrid';
function at(days: number, time: string): number {
  return Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
}
const iso = (ms: number) => new Date(ms).toISOString();

/** A transaction on its own connection, open until `commit`: another request in progress. */
async function openTransaction(db: Kysely<DB>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let ready = (_trx: Transaction<DB>) => {};
  const opened = new Promise<Transaction<DB>>((resolve) => {
    ready = resolve;
  });
  const done = db.transaction().execute(async (trx) => {
    ready(trx);
    await released;
  });
  const trx = await opened;
  return {
    trx,
    async commit() {
      release();
      await done;
    },
  };
}

/** Resolves once some statement of this database waits for a row lock. */
async function someoneWaits() {
  const waiting = async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(t.database.db);
    return rows[0]?.n ?? 0;
  };
  await expect.poll(waiting, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
}

/** A tutor at $35 an hour offering packages of 5 hour lessons, and a student with `cents`. */
async function tutorAndStudent(cents: number) {
  const tutor = await publishTutor(t, await person('tutor'), { hourlyRate: 35 });
  const offered = await send(
    t,
    'PUT',
    '/api/availability',
    { ...openAvailability, packages: [{ lessons: 5, minutes: 60, discountPercent: 10 }] },
    tutor.jar,
  );
  expect(offered.status, await offered.clone().text()).toBe(200);
  const student = await person('student');
  const admin = await makeAdmin(t, await person('student'));
  await topUp(t, student, admin, cents);
  return { tutor, student, admin };
}

const book = (student: Person, tutorId: string, start: number, extra: Record<string, unknown> = {}) =>
  send(
    t,
    'POST',
    '/api/lessons',
    { tutorId, start: iso(start), minutes: 60, subject: 'Algebra', ...extra },
    student.jar,
  );

const lockBalance = (trx: Transaction<DB>, studentId: string) =>
  trx
    .selectFrom('ledger_accounts')
    .select('id')
    .where('id', '=', accounts.balance(studentId).id)
    .forUpdate()
    .execute();

describe('lock order', () => {
  it.each([
    ['a lesson', 1],
    ['a series of 3 weeks', 3],
  ])(
    'books %s while the tutor is being deleted: it waits for the deletion, holding none of the money it locks',
    async (_, weeks) => {
      const { tutor, student, admin } = await tutorAndStudent(20_000);
      // A deletion in progress: the tutor's row first, then (cancelling their lessons) the student's balance.
      const deletion = await openTransaction(t.database.db);
      await deletion.trx.selectFrom('users').select('id').where('id', '=', tutor.id).forUpdate().execute();
      const booking = book(student, tutor.id, at(3, '10:00'), weeks > 1 ? { repeatWeeks: weeks } : {});
      await someoneWaits();
      await lockBalance(deletion.trx, student.id);
      await deletion.commit();
      const booked = await booking;
      expect(booked.status, await booked.clone().text()).toBe(201);
      expect((await walletOf(t, student)).balance).toEqual({
        amountCents: 20_000 - weeks * 3500,
        currency: 'USD',
      });
      await financeTotals(t, admin);
    },
  );

  it("answers 404 to a booking that waited for its tutor's deletion, and takes nothing", async () => {
    const { tutor, student, admin } = await tutorAndStudent(20_000);
    const deletion = await openTransaction(t.database.db);
    await deletion.trx.selectFrom('users').select('id').where('id', '=', tutor.id).forUpdate().execute();
    const booking = book(student, tutor.id, at(3, '10:00'));
    await someoneWaits();
    await deletion.trx
      .updateTable('users')
      .set({ deleted_at: new Date() })
      .where('id', '=', tutor.id)
      .execute();
    await deletion.commit();
    const booked = await booking;
    expect(booked.status, await booked.clone().text()).toBe(404);
    expect((await walletOf(t, student)).balance).toEqual({ amountCents: 20_000, currency: 'USD' });
    await financeTotals(t, admin);
  });

  it("refunds a lesson while the student books another: the refund leaves the booking's key share free", async () => {
    const { tutor, student, admin } = await tutorAndStudent(10_000);
    const first = await book(student, tutor.id, at(3, '10:00'));
    expect(first.status, await first.clone().text()).toBe(201);
    const lesson = (await first.json()) as { id: string };
    // A booking in progress: the balance first, then its insert's key share on the student's row.
    const booking = await openTransaction(t.database.db);
    await lockBalance(booking.trx, student.id);
    const refund = send(
      t,
      'POST',
      `/api/admin/lessons/${lesson.id}/refund`,
      { reason: 'Tutor ill' },
      admin.jar,
    );
    await someoneWaits();
    await booking.trx.selectFrom('users').select('id').where('id', '=', student.id).forKeyShare().execute();
    await booking.commit();
    const refunded = await refund;
    expect(refunded.status, await refunded.clone().text()).toBe(200);
    expect((await walletOf(t, student)).balance).toEqual({ amountCents: 10_000, currency: 'USD' });
    await financeTotals(t, admin);
  });

  it("books from one of two packages while the student's account is being deleted: both lock the packages in one order", async () => {
    const { tutor, student, admin } = await tutorAndStudent(40_000);
    for (let bought = 0; bought < 2; bought++) {
      const res = await send(
        t,
        'POST',
        '/api/packages',
        { tutorId: tutor.id, lessons: 5, minutes: 60 },
        student.jar,
      );
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const rows = await t.database.db
      .selectFrom('lesson_packages')
      .select(['id', 'bought_at'])
      .where('student_id', '=', student.id)
      .orderBy('id')
      .execute();
    const [low, high] = rows.map((row) => row.id);
    if (!low || !high) throw new Error('two packages expected');
    // The package with the higher id is the older, so that buying order and id order differ.
    const older = new Date(Date.now() - 60_000);
    await t.database.db
      .updateTable('lesson_packages')
      .set({ bought_at: older })
      .where('id', '=', high)
      .execute();
    // A deletion in progress locks the packages in id order: the lower first, then the higher.
    const deletion = await openTransaction(t.database.db);
    await deletion.trx.selectFrom('lesson_packages').select('id').where('id', '=', low).forUpdate().execute();
    const booking = book(student, tutor.id, at(3, '10:00'));
    await someoneWaits();
    await deletion.trx
      .selectFrom('lesson_packages')
      .select('id')
      .where('id', '=', high)
      .forUpdate()
      .execute();
    await deletion.commit();
    const booked = await booking;
    expect(booked.status, await booked.clone().text()).toBe(201);
    // The older package still pays first.
    expect(await booked.json()).toMatchObject({ packageId: high });
    await financeTotals(t, admin);
  });

  it("previews a series while a booking holds the student's package", async () => {
    const { tutor, student } = await tutorAndStudent(20_000);
    const bought = await send(
      t,
      'POST',
      '/api/packages',
      { tutorId: tutor.id, lessons: 5, minutes: 60 },
      student.jar,
    );
    expect(bought.status, await bought.clone().text()).toBe(201);
    const booking = await openTransaction(t.database.db);
    await booking.trx
      .selectFrom('lesson_packages')
      .select('id')
      .where('student_id', '=', student.id)
      .forUpdate()
      .execute();
    try {
      const preview = await Promise.race([
        get(
          t,
          `/api/lessons/preview-series?tutorId=${tutor.id}&start=${iso(at(2, '12:00'))}&minutes=60&repeatWeeks=6`,
          student.jar,
        ),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the preview waited for the booking')), 5000),
        ),
      ]);
      expect(preview.status, await preview.clone().text()).toBe(200);
      // Five weeks from the package at $31.50, the sixth from the balance at $35.
      expect((await preview.json()).total).toEqual({ amountCents: 5 * 3150 + 3500, currency: 'USD' });
    } finally {
      await booking.commit();
    }
  });
});

describe('the order of a conversation', () => {
  it('gives a send that waited for its conversation a later id than the line written while it waited', async () => {
    const tutor = await publishTutor(t, await person('tutor'), { hourlyRate: 35 });
    const student = await person('student');
    const opened = await send(
      t,
      'POST',
      '/api/conversations',
      { tutorId: tutor.id, text: 'Hello!' },
      student.jar,
    );
    expect(opened.status, await opened.clone().text()).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    // Another message in progress: it holds the conversation, and is written while the send waits.
    const writer = await openTransaction(t.database.db);
    await writer.trx.selectFrom('conversations').select('id').where('id', '=', id).forUpdate().execute();
    const sending = send(
      t,
      'POST',
      `/api/conversations/${id}/messages`,
      { text: 'Are you there?' },
      student.jar,
    );
    await someoneWaits();
    const { rows } = await sql<{ id: string }>`
      select id from append_message(${id}, ${tutor.id}, 'Yes, one moment.', null)`.execute(writer.trx);
    await writer.commit();
    const sent = await sending;
    expect(sent.status, await sent.clone().text()).toBe(201);
    // A message's id is drawn once its conversation is held, so a reader who has everything up to
    // one id never misses a message that commits later with a smaller one.
    expect(Number((await sent.json()).id)).toBeGreaterThan(Number(rows[0]?.id));
    const read = await get(t, `/api/conversations/${id}/messages`, student.jar);
    const { messages } = (await read.json()) as { messages: { text: string }[] };
    expect(messages.map((message) => message.text)).toEqual(['Hello!', 'Yes, one moment.', 'Are you there?']);
  });
});
