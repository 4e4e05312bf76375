/**
 * Every request that moves money is safe to retry with an Idempotency-Key: a top-up request, an
 * admin's confirmation, a payout, a balance, package or lesson refund, a package purchase, a
 * booking and a weekly series. The same key and body replay the first answer (its status, its body,
 * `Idempotent-Replayed: true`) and post nothing; another body is 422; a bad key is 400; keys belong
 * to a person and a path; two sent at once post once; a run a dead server left does not block its
 * key, and run again after its money moved but before its answer was kept, answers what the first
 * run made and posts nothing more; a failure is not kept. A payout or balance refund repeated within a minute, not as a retry
 * with its key, is refused unless confirmed. Runs on both stores: the answers are in the database, so they outlive a
 * restart as the database does.
 */

import { Hono } from 'hono';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../src/server/http/app-env';
import { idempotent } from '../../src/server/http/idempotency';
import { runLessonJobs } from '../../src/server/lessons/lesson-jobs';
import { removeExpired } from '../../src/server/maintenance/cleanup';
import type { SessionUser } from '../../src/shared/session-user';
import { get, send } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { dayAt, lessonJobDeps, openAvailability } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp, walletOf } from '../support/money';
import { createTestApp } from '../support/test-app';

setUpApiTest({ env: { PAYMENTS: '', COMMISSION_PERCENT: '15' } });
afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 60 * 60 * 1000;
const REPLAYED = 'idempotent-replayed';

const at = (days: number, time: string) => dayAt(days, time);
const iso = (ms: number) => new Date(ms).toISOString();
const cents = (amountCents: number) => ({ amountCents, currency: 'USD' });

let keys = 0;
const newKey = () => {
  keys += 1;
  return `key-${keys}-${Math.random().toString(36).slice(2)}`;
};

function keyed(path: string, body: unknown, who: Person, key: string | undefined) {
  return t.request(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { cookie: who.jar.header(), ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });
}

/**
 * Sends the request twice with one key: the second answers as the first did, with the header, and
 * the finance totals are as the first left them. Answers the first answer's body.
 */
async function retried(path: string, body: unknown, who: Person, admin: Person, status: number) {
  const key = newKey();
  const first = await keyed(path, body, who, key);
  expect(first.status, await first.clone().text()).toBe(status);
  expect(first.headers.get(REPLAYED)).toBeNull();
  const firstBody = await first.json();
  const totals = await financeTotals(t, admin);
  const again = await keyed(path, body, who, key);
  expect(again.status).toBe(status);
  expect(again.headers.get(REPLAYED)).toBe('true');
  expect(await again.json()).toEqual(firstBody);
  expect(await financeTotals(t, admin)).toEqual(totals);
  return firstBody;
}

const jobDeps = () => lessonJobDeps(t);

/** A student with `balance`, an admin, and a tutor at $40 an hour. */
async function school(balance: number) {
  const tutor = await publishTutor(t, await person('tutor'));
  const student = await person('student');
  const admin = await makeAdmin(t, await person('student'));
  if (balance > 0) await topUp(t, student, admin, balance);
  return { tutor, student, admin };
}

/** A tutor owed $34: a $40 lesson that took place, less 15%. */
async function tutorOwed() {
  const { tutor, student, admin } = await school(10_000);
  const start = at(2, '12:00');
  const booked = await send(
    t,
    'POST',
    '/api/lessons',
    { tutorId: tutor.id, start: iso(start), minutes: 60, subject: 'Algebra' },
    student.jar,
  );
  expect(booked.status).toBe(201);
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(start + 2 * HOUR);
  await runLessonJobs(jobDeps());
  vi.useRealTimers();
  expect((await walletOf(t, tutor)).payable).toEqual(cents(3400));
  return { tutor, student, admin };
}

const transactionsOf = async (who: Person) => (await walletOf(t, who)).transactions as unknown[];

describe('a retried money request posts once', () => {
  it('a top-up request and its confirmation', async () => {
    const { student, admin } = await school(0);
    const body = { amountCents: 5000, method: 'manual' };
    const { topUp: asked } = await retried('/api/wallet/top-ups', body, student, admin, 201);
    expect((await walletOf(t, student)).topUps).toHaveLength(1);
    await retried(`/api/admin/top-ups/${asked.id}/confirm`, {}, admin, admin, 200);
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(5000) });
    expect(await transactionsOf(student)).toHaveLength(1);
  });

  it('a payout and a balance refund', async () => {
    const { tutor, student, admin } = await tutorOwed();
    const payout = { tutorId: tutor.id, amountCents: 3000, reference: 'PAY-1' };
    await retried('/api/admin/payouts', payout, admin, admin, 201);
    expect(await walletOf(t, tutor)).toMatchObject({ payable: cents(400), paidOut: cents(3000) });
    const refund = { studentId: student.id, amountCents: 2000, reference: 'R-1' };
    await retried('/api/admin/refunds', refund, admin, admin, 201);
    // $100 less the $40 lesson and the $20 refunded, once.
    expect((await walletOf(t, student)).balance).toEqual(cents(4000));
  });

  it('a lesson refund and a package purchase and its refund', async () => {
    const { tutor, student, admin } = await school(30_000);
    const lessonBooked = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: tutor.id, start: iso(at(3, '10:00')), minutes: 60, subject: 'Algebra' },
      student.jar,
    );
    const lesson = await lessonBooked.json();
    await retried(
      `/api/admin/lessons/${lesson.id}/refund`,
      { reason: 'The tutor was ill' },
      admin,
      admin,
      200,
    );
    expect((await walletOf(t, student)).balance).toEqual(cents(30_000));

    const offered = await send(
      t,
      'PUT',
      '/api/availability',
      { ...openAvailability, packages: [{ lessons: 5, minutes: 60, discountPercent: 10 }] },
      tutor.jar,
    );
    expect(offered.status).toBe(200);
    const { package: bought } = await retried(
      '/api/packages',
      { tutorId: tutor.id, lessons: 5, minutes: 60 },
      student,
      admin,
      201,
    );
    expect((await walletOf(t, student)).balance).toEqual(cents(30_000 - 18_000));
    const packages = await (await get(t, '/api/packages', student.jar)).json();
    expect(packages.packages).toHaveLength(1);
    await retried(
      `/api/admin/packages/${bought.id}/refund`,
      { amountCents: 18_000, reference: 'PKG-1' },
      admin,
      admin,
      201,
    );
  });

  it('a booking and a weekly series, which also keep their own guard when the answer is gone', async () => {
    const { tutor, student, admin } = await school(50_000);
    const lesson = { tutorId: tutor.id, start: iso(at(4, '09:00')), minutes: 60, subject: 'Algebra' };
    const made = await retried('/api/lessons', lesson, student, admin, 201);
    const series = { ...lesson, start: iso(at(4, '15:00')), repeatWeeks: 3 };
    const { series: weeks } = await retried('/api/lessons', series, student, admin, 201);
    expect(weeks.lessons).toHaveLength(3);
    const lessons = (await (await get(t, '/api/lessons', student.jar)).json()).lessons;
    expect(lessons).toHaveLength(4);
    expect((await walletOf(t, student)).held).toEqual(cents(4 * 4000));

    // The kept answer purged (a day later), the lesson still knows the key it was booked with.
    const key = newKey();
    const other = { ...lesson, start: iso(at(5, '09:00')) };
    const first = await keyed('/api/lessons', other, student, key);
    expect(first.status).toBe(201);
    await t.database.db.deleteFrom('idempotent_requests').where('key', '=', key).execute();
    const again = await keyed('/api/lessons', other, student, key);
    expect(again.status).toBe(200);
    expect(again.headers.get(REPLAYED)).toBe('true');
    const replayed = await again.json();
    expect(replayed.id).toBe((await first.json()).id);
    expect(replayed.id).not.toBe(made.id);
    await financeTotals(t, admin);
  });
});

/**
 * Sends the request, then leaves its key as a server that died just after the money moved would
 * have: no answer kept, the run `running` since two minutes. The retry, a minute and more later,
 * runs the request again (no replayed header): it must answer the same as the first and post
 * nothing more. Answers the first answer's body.
 */
async function retriedAfterCrash(path: string, body: unknown, who: Person, admin: Person, status: number) {
  const key = newKey();
  const first = await keyed(path, body, who, key);
  expect(first.status, await first.clone().text()).toBe(status);
  const firstBody = await first.json();
  const totals = await financeTotals(t, admin);
  await t.database.db
    .updateTable('idempotent_requests')
    .set({
      state: 'running',
      status: null,
      content_type: null,
      response_body: null,
      started_at: sql<Date>`now() - interval '2 minutes'`,
    })
    .where('key', '=', key)
    .execute();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 2 * 60_000);
  const again = await keyed(path, body, who, key);
  vi.useRealTimers();
  expect(again.status, await again.clone().text()).toBe(status);
  expect(again.headers.get(REPLAYED)).toBeNull();
  expect(await again.json()).toEqual(firstBody);
  expect(await financeTotals(t, admin)).toEqual(totals);
  // And now kept: the next retry replays it.
  const third = await keyed(path, body, who, key);
  expect(third.headers.get(REPLAYED)).toBe('true');
  return firstBody;
}

describe('a money request run again after its server died before keeping the answer posts once', () => {
  it('a payout and a balance refund: the same transaction', async () => {
    const { tutor, student, admin } = await tutorOwed();
    // Less than half of what is owed and of the balance: run twice, either would be paid twice.
    const payout = { tutorId: tutor.id, amountCents: 1000, reference: 'PAY-1' };
    const paid = await retriedAfterCrash('/api/admin/payouts', payout, admin, admin, 201);
    expect(paid.transactionId).toEqual(expect.any(String));
    expect(await walletOf(t, tutor)).toMatchObject({ payable: cents(2400), paidOut: cents(1000) });
    const refund = { studentId: student.id, amountCents: 2000, reference: 'R-1' };
    await retriedAfterCrash('/api/admin/refunds', refund, admin, admin, 201);
    expect((await walletOf(t, student)).balance).toEqual(cents(4000));
    // Without a key, the same payout a minute later is another payout.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 60_000);
    const unkeyed = await keyed('/api/admin/payouts', { ...payout, amountCents: 400 }, admin, undefined);
    expect(unkeyed.status).toBe(201);
    expect((await unkeyed.json()).transactionId).not.toBe(paid.transactionId);
  });

  it('a top-up request: the same top-up', async () => {
    const { student, admin } = await school(0);
    const body = { amountCents: 5000, method: 'manual' };
    const { topUp: asked } = await retriedAfterCrash('/api/wallet/top-ups', body, student, admin, 201);
    const { topUps } = await walletOf(t, student);
    expect(topUps).toHaveLength(1);
    expect(topUps[0]).toMatchObject({ id: asked.id, reference: asked.reference });
    // The same body with a new key is a new top-up.
    const another = await keyed('/api/wallet/top-ups', body, student, newKey());
    expect(another.status).toBe(201);
    expect((await another.json()).topUp.id).not.toBe(asked.id);
  });

  it('a package purchase: the same package, paid once', async () => {
    const { tutor, student, admin } = await school(50_000);
    const offered = await send(
      t,
      'PUT',
      '/api/availability',
      { ...openAvailability, packages: [{ lessons: 5, minutes: 60, discountPercent: 10 }] },
      tutor.jar,
    );
    expect(offered.status).toBe(200);
    const { package: bought } = await retriedAfterCrash(
      '/api/packages',
      { tutorId: tutor.id, lessons: 5, minutes: 60 },
      student,
      admin,
      201,
    );
    expect((await walletOf(t, student)).balance).toEqual(cents(50_000 - 18_000));
    const { packages } = await (await get(t, '/api/packages', student.jar)).json();
    expect(packages.map((item: { id: string }) => item.id)).toEqual([bought.id]);
  });
});

describe('keys', () => {
  it('refuse another body (422), a bad key (400), and belong to one person and one path', async () => {
    const { student, admin } = await school(0);
    const key = newKey();
    const first = await keyed('/api/wallet/top-ups', { amountCents: 5000, method: 'manual' }, student, key);
    expect(first.status).toBe(201);
    const other = await keyed('/api/wallet/top-ups', { amountCents: 6000, method: 'manual' }, student, key);
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({
      code: 'IDEMPOTENCY_KEY_REUSED',
      message:
        'This Idempotency-Key was already used for a different request. Send a new key with each new request.',
    });
    // The same JSON, its fields in another order, is the same body.
    const reordered = await keyed(
      '/api/wallet/top-ups',
      { method: 'manual', amountCents: 5000 },
      student,
      key,
    );
    expect(reordered.status).toBe(201);
    expect(reordered.headers.get(REPLAYED)).toBe('true');

    for (const bad of ['', 'x'.repeat(201), 'two words']) {
      const res = await keyed('/api/wallet/top-ups', { amountCents: 100, method: 'manual' }, student, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(await res.json()).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'The Idempotency-Key header must be 1 to 200 printable ASCII characters',
      });
    }
    expect(
      (await keyed('/api/wallet/top-ups', { amountCents: 2000, method: 'manual' }, student, 'k'.repeat(200)))
        .status,
    ).toBe(201);

    // Another student's request with the same key is their own.
    const someone = await person('student');
    const theirs = await keyed('/api/wallet/top-ups', { amountCents: 5000, method: 'manual' }, someone, key);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get(REPLAYED)).toBeNull();
    // On another path (the ids are part of it), the same key is another request.
    const asked = (await walletOf(t, student)).topUps as { id: string }[];
    const confirms = await Promise.all(
      asked.map((topUp) => keyed(`/api/admin/top-ups/${topUp.id}/confirm`, {}, admin, key)),
    );
    expect(confirms.map((res) => res.headers.get(REPLAYED))).toEqual(asked.map(() => null));
    expect(confirms.map((res) => res.status)).toEqual(asked.map(() => 200));
    expect((await walletOf(t, student)).balance).toEqual(cents(7000));
  });

  it('sent ten times at once, post once and answer each the same', async () => {
    const { student, admin } = await school(10_000);
    const key = newKey();
    const body = { studentId: student.id, amountCents: 2500, reference: 'R-BURST' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => keyed('/api/admin/refunds', body, admin, key)),
    );
    // Each waited for the one that ran (or, on a slow machine, was told to try again).
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const ids = new Set(
      await Promise.all(
        answers.filter((res) => res.status === 201).map(async (res) => (await res.json()).transactionId),
      ),
    );
    expect(ids.size).toBe(1);
    expect((await walletOf(t, student)).balance).toEqual(cents(7500));
    await financeTotals(t, admin);
  });

  it('free the key when the request is refused, so the retry runs once its cause is fixed', async () => {
    const { student, admin } = await school(1000);
    const key = newKey();
    const body = { studentId: student.id, amountCents: 3000, reference: 'R-LATER' };
    const refused = await keyed('/api/admin/refunds', body, admin, key);
    expect(refused.status).toBe(409);
    expect((await refused.json()).code).toBe('EXCEEDS_BALANCE');
    await topUp(t, student, admin, 2000);
    const done = await keyed('/api/admin/refunds', body, admin, key);
    expect(done.status).toBe(201);
    expect(done.headers.get(REPLAYED)).toBeNull();
    expect((await walletOf(t, student)).balance).toEqual(cents(0));
  });

  it('are answered by another server, or one started since, as by the first', async () => {
    const { student, admin } = await school(0);
    const key = newKey();
    const body = { amountCents: 4000, method: 'manual' };
    const first = await keyed('/api/wallet/top-ups', body, student, key);
    expect(first.status).toBe(201);
    // A new app on the same database: nothing of the first is in its memory.
    const other = await createTestApp({ database: t.database, env: { SMTP_URL: mailbox.smtpUrl } });
    const again = await other.request('/api/wallet/top-ups', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { cookie: student.jar.header(), 'idempotency-key': key },
    });
    expect(again.status).toBe(201);
    expect(again.headers.get(REPLAYED)).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect((await walletOf(t, student)).topUps).toHaveLength(1);
    await financeTotals(t, admin);
  });

  it('are kept a day, then removed by the housekeeping pass', async () => {
    const { student } = await school(0);
    const key = newKey();
    expect(
      (await keyed('/api/wallet/top-ups', { amountCents: 700, method: 'manual' }, student, key)).status,
    ).toBe(201);
    const kept = () =>
      t.database.db.selectFrom('idempotent_requests').select('state').where('key', '=', key).execute();
    expect(await kept()).toEqual([{ state: 'done' }]);
    await removeExpired(t.database.db, new Date(Date.now() + 23 * HOUR));
    expect(await kept()).toHaveLength(1);
    await removeExpired(t.database.db, new Date(Date.now() + 25 * HOUR));
    expect(await kept()).toEqual([]);
  });
});

describe('the middleware on its own', () => {
  /** A route behind the middleware whose work the test holds, fails or lets finish. */
  async function heldRoute(options: { waitMs?: number }) {
    const owner = await person('student');
    const user = { id: owner.id } as SessionUser;
    const runs: { finish: () => void; fail: () => void }[] = [];
    const app = new Hono<AppEnv>()
      .use(async (c, next) => {
        c.set('user', user);
        await next();
      })
      .post('/pay', idempotent(t.database.db, options), async (c) => {
        const outcome = await new Promise<'ok' | 'fail'>((resolve) =>
          runs.push({ finish: () => resolve('ok'), fail: () => resolve('fail') }),
        );
        if (outcome === 'fail') throw new Error('the server failed');
        return c.json({ run: runs.length }, 201);
      });
    app.onError((_error, c) => c.json({ message: 'failed' }, 500));
    const pay = (key: string) =>
      app.request('/pay', { method: 'POST', body: '{"amount":1}', headers: { 'idempotency-key': key } });
    const started = async (count: number) => {
      await vi.waitFor(() => expect(runs).toHaveLength(count), { timeout: 5000, interval: 10 });
      return runs[count - 1] as { finish: () => void; fail: () => void };
    };
    return { pay, started, runs };
  }

  it('answers 409 IDEMPOTENCY_KEY_IN_USE to a request that waited too long for the first', async () => {
    const route = await heldRoute({ waitMs: 300 });
    const first = route.pay('held');
    const run = await route.started(1);
    const second = await route.pay('held');
    expect(second.status).toBe(409);
    expect((await second.json()).code).toBe('IDEMPOTENCY_KEY_IN_USE');
    run.finish();
    expect((await first).status).toBe(201);
    const third = await route.pay('held');
    expect(third.headers.get(REPLAYED)).toBe('true');
    expect(await third.json()).toEqual({ run: 1 });
    expect(route.runs).toHaveLength(1);
  });

  it('keeps no failure: the retry runs', async () => {
    const route = await heldRoute({});
    const first = route.pay('fails');
    (await route.started(1)).fail();
    expect((await first).status).toBe(500);
    const retry = route.pay('fails');
    (await route.started(2)).finish();
    const answer = await retry;
    expect(answer.status).toBe(201);
    expect(answer.headers.get(REPLAYED)).toBeNull();
  });

  it('takes over a run that a dead server left behind', async () => {
    const route = await heldRoute({ waitMs: 300 });
    // The first run never ends, as on a server that died; a minute later it is taken to be lost.
    const orphan = route.pay('orphan');
    await route.started(1);
    await t.database.db
      .updateTable('idempotent_requests')
      .set({ started_at: sql<Date>`now() - interval '2 minutes'` })
      .where('key', '=', 'orphan')
      .execute();
    const retry = route.pay('orphan');
    (await route.started(2)).finish();
    expect((await retry).status).toBe(201);
    expect(await (await route.pay('orphan')).json()).toEqual({ run: 2 });
    route.runs[0]?.finish();
    // Finishing late, it does not overwrite the answer its successor kept.
    expect((await orphan).status).toBe(201);
    expect(await (await route.pay('orphan')).json()).toEqual({ run: 2 });
  });
});

describe('a payout or a balance refund sent twice, not as a retry', () => {
  it('is refused the second time within a minute, whatever its reference, unless confirmed', async () => {
    const { tutor, student, admin } = await tutorOwed();
    const payout = { tutorId: tutor.id, amountCents: 1050, reference: 'PAY-A' };
    expect((await keyed('/api/admin/payouts', payout, admin, undefined)).status).toBe(201);
    const twice = await keyed('/api/admin/payouts', { ...payout, reference: 'PAY-B' }, admin, undefined);
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({
      code: 'DUPLICATE_REQUEST',
      message: `A payout of $10.50 to ${tutor.name} was recorded less than a minute ago. Record it again only if you really paid ${tutor.name} twice.`,
    });
    // Another amount is another payout.
    expect(
      (await keyed('/api/admin/payouts', { ...payout, amountCents: 500 }, admin, undefined)).status,
    ).toBe(201);
    // A new key is a new request, checked as one; confirmed, the same key is free to send it.
    const key = newKey();
    const newlyKeyed = await keyed('/api/admin/payouts', payout, admin, key);
    expect(newlyKeyed.status).toBe(409);
    expect((await newlyKeyed.json()).code).toBe('DUPLICATE_REQUEST');
    const meant = await keyed('/api/admin/payouts', { ...payout, confirmDuplicate: true }, admin, key);
    expect(meant.status).toBe(201);
    expect((await walletOf(t, tutor)).paidOut).toEqual(cents(2600));

    // Two balance refunds sent at once: the database lets one through.
    const refund = { studentId: student.id, amountCents: 1525, reference: 'R-A' };
    const both = await Promise.all([
      keyed('/api/admin/refunds', refund, admin, undefined),
      keyed('/api/admin/refunds', { ...refund, reference: 'R-B' }, admin, undefined),
    ]);
    expect(both.map((res) => res.status).sort()).toEqual([201, 409]);
    const refusal = await both.find((res) => res.status === 409)?.json();
    expect(refusal.code).toBe('DUPLICATE_REQUEST');
    expect(refusal.message).toContain('A refund of $15.25 to');
    expect((await walletOf(t, student)).balance).toEqual(cents(10_000 - 4000 - 1525));
    await financeTotals(t, admin);
  });

  it('is not refused a minute later', async () => {
    const { student, admin } = await school(5000);
    const refund = { studentId: student.id, amountCents: 1000, reference: 'R-1' };
    expect((await keyed('/api/admin/refunds', refund, admin, undefined)).status).toBe(201);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    expect((await keyed('/api/admin/refunds', refund, admin, undefined)).status).toBe(201);
  });
});
