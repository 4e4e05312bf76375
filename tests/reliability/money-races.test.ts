/**
 * Money races across two servers on one PostgreSQL: 20 requests at once, sent to both servers in
 * turn, for the same top-up's confirmation, the same lesson's refund, one balance's bookings and
 * refunds (the same refund repeated, and refunds confirmed as meant), and one slot wanted by
 * several students. Each race settles in the database: exactly as
 * many succeed as the money (or the slot) allows, the others get their documented 409, nobody gets
 * a 500, no balance goes below zero and the finance totals still sum to zero.
 */
import { randomBytes } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { expect, it, onTestFinished } from 'vitest';
import { call, type Person, person, script } from '../support/http-people';
import { openAvailability } from '../support/lessons';
import { startMailCatcher } from '../support/mail-catcher';
import { createPostgresDatabase } from '../support/postgres-database';
import { type Finding, recordFinding, seconds } from './findings';
import { totalsSum } from './money-totals';
import { startServer, tempDataDir } from './reliability-server';

const RACE = 20;
const HOURLY_RATE = 40;
const PRICE = HOURLY_RATE * 100;
const ZONE = 'Europe/Madrid';

/** Distinct hour-long slots of the tutor's open days (08:00 to 20:00 in Madrid), from `days` days on. */
function slotsFrom(days: number, count: number): string[] {
  const today = Temporal.Now.zonedDateTimeISO(ZONE).toPlainDate();
  return Array.from({ length: count }, (_, n) =>
    today
      .add({ days: days + Math.floor(n / 12) })
      .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from({ hour: 8 + (n % 12) }) })
      .toInstant()
      .toString(),
  );
}

/** The statuses and codes of a race's answers, counted: { "200": 1, "409 ALREADY_DECIDED": 19 }. */
function tally(answers: { status: number; body: { code?: string } | null }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status, body } of answers) {
    const key = body?.code && status >= 400 ? `${status} ${body.code}` : String(status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

it(`settles each race of ${RACE} money requests once across two servers on one PostgreSQL`, async (context) => {
  const database = await createPostgresDatabase('tutorlane_reliability');
  if (!database) {
    context.skip('no PostgreSQL answers on 127.0.0.1:5432');
    return;
  }
  onTestFinished(() => database.drop());
  const mail = await startMailCatcher();
  onTestFinished(() => mail.close());
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database.name}`;
  // Servers behind one address share a secret, so a session made on one is good on the other.
  const env = {
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    SMTP_URL: mail.smtpUrl,
    PAYMENTS: 'on',
    CURRENCY: 'USD',
  };
  const startedAt = Date.now();
  const servers = [
    await startServer({ ...env, DATA_DIR: tempDataDir() }),
    await startServer({ ...env, DATA_DIR: tempDataDir() }),
  ];
  const urls = servers.map((server) => server.url);
  const [first] = urls as [string, string];
  /** The same request RACE times at once, to the two servers in turn. */
  const race = (who: Person, method: string, path: (n: number) => string, body: (n: number) => unknown) =>
    Promise.all(
      Array.from({ length: RACE }, (_, n) => call(urls[n % 2] as string, who, method, path(n), body(n))),
    );

  const tutor = await person(first, mail, 'tutor', 'Ray Tutor');
  const admin = await person(first, mail, 'student', 'Ray Admin');
  const student = await person(first, mail, 'student', 'Ray Student');
  const rivals: Person[] = [];
  for (let n = 0; n < 4; n++) rivals.push(await person(first, mail, 'student', `Ray Rival ${n}`));
  expect((await script('admin', ['grant', admin.email], { DATABASE_URL: databaseUrl })).stdout).toContain(
    admin.email,
  );
  const published = await call(first, tutor, 'PATCH', '/api/profile/details', {
    headline: 'Algebra made calm',
    about: 'Step by step, at your pace.',
    subjects: ['Algebra'],
    hourlyRate: HOURLY_RATE,
    languages: ['English'],
  });
  expect(published.status, published.text).toBe(200);
  const availability = await call(first, tutor, 'PUT', '/api/availability', openAvailability);
  expect(availability.status, availability.text).toBe(200);
  const topUp = async (who: Person, amountCents: number) => {
    const asked = await call(first, who, 'POST', '/api/wallet/top-ups', { amountCents, method: 'manual' });
    expect(asked.status, asked.text).toBe(201);
    return asked.body.topUp.id as string;
  };
  const balanceOf = async (who: Person) =>
    (await call(first, who, 'GET', '/api/wallet')).body.balance.amountCents;

  // One top-up confirmed 20 times at once: credited once.
  const transfer = await topUp(student, 5 * PRICE);
  const confirmations = await race(
    admin,
    'POST',
    () => `/api/admin/top-ups/${transfer}/confirm`,
    () => ({}),
  );
  expect(tally(confirmations)).toEqual({ 200: 1, '409 ALREADY_SETTLED': RACE - 1 });
  expect(await balanceOf(student)).toBe(5 * PRICE);

  // Twenty bookings of different slots on a balance that covers five.
  const starts = slotsFrom(3, RACE);
  const bookings = await race(
    student,
    'POST',
    () => '/api/lessons',
    (n) => ({ tutorId: tutor.id, start: starts[n], minutes: 60, subject: 'Algebra' }),
  );
  expect(tally(bookings)).toEqual({ 201: 5, '409 INSUFFICIENT_BALANCE': RACE - 5 });
  expect(await balanceOf(student)).toBe(0);

  // One of those lessons refunded by the admin 20 times at once: its price comes back once.
  const booked = bookings.find((answer) => answer.status === 201)?.body.id as string;
  const lessonRefunds = await race(
    admin,
    'POST',
    () => `/api/admin/lessons/${booked}/refund`,
    () => ({ reason: 'The tutor is ill this week.' }),
  );
  expect(tally(lessonRefunds)[200]).toBe(1);
  expect(lessonRefunds.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
  expect(await balanceOf(student)).toBe(PRICE);

  // Twenty refunds of the same amount to one student, each with its own reference: the same money
  // sent again within a minute is taken for a double click, and only the first is paid.
  await call(first, admin, 'POST', `/api/admin/top-ups/${await topUp(student, 2 * PRICE)}/confirm`, {});
  const repeats = await race(
    admin,
    'POST',
    () => '/api/admin/refunds',
    (n) => ({ studentId: student.id, amountCents: PRICE, reference: `REPEAT-${n}` }),
  );
  expect(tally(repeats)).toEqual({ 201: 1, '409 DUPLICATE_REQUEST': RACE - 1 });
  expect(await balanceOf(student)).toBe(2 * PRICE);

  // Twenty such refunds each confirmed as meant: only what the balance holds is paid.
  const refunds = await race(
    admin,
    'POST',
    () => '/api/admin/refunds',
    (n) => ({ studentId: student.id, amountCents: PRICE, reference: `REFUND-${n}`, confirmDuplicate: true }),
  );
  expect(tally(refunds)).toEqual({ 201: 2, '409 EXCEEDS_BALANCE': RACE - 2 });
  expect(await balanceOf(student)).toBe(0);

  // One slot wanted by five funded students, four times each: one lesson.
  for (const rival of rivals)
    await call(first, admin, 'POST', `/api/admin/top-ups/${await topUp(rival, 5 * PRICE)}/confirm`, {});
  const [slot] = slotsFrom(6, 1);
  const wanted = await Promise.all(
    Array.from({ length: RACE }, (_, n) =>
      call(urls[n % 2] as string, rivals[n % rivals.length] as Person, 'POST', '/api/lessons', {
        tutorId: tutor.id,
        start: slot,
        minutes: 60,
        subject: 'Algebra',
      }),
    ),
  );
  expect(tally(wanted)).toEqual({ 201: 1, '409 SLOT_UNAVAILABLE': RACE - 1 });

  const finance = await call(first, admin, 'GET', '/api/admin/finance');
  expect(finance.status, finance.text).toBe(200);
  expect(totalsSum(finance.body.totals)).toBe(0);
  const balances = finance.body.balances as { balance: { amountCents: number } }[];
  expect(balances.every((row) => row.balance.amountCents >= 0)).toBe(true);

  recordFinding(context.task, {
    short: `money races ${RACE}x6`,
    detail: `6 races of ${RACE} requests across 2 servers in ${seconds(Date.now() - startedAt)}: 1 confirmation of ${RACE}, 5 bookings of ${RACE} on a balance for 5, 1 lesson refund of ${RACE}, 1 of ${RACE} repeated refunds, 2 confirmed refunds of ${RACE} on a balance for 2, 1 booking of ${RACE} for one slot; totals sum to 0`,
  } satisfies Finding);
});
