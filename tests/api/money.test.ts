/**
 * Money through the API, with payments on as a school gets them by default: manual top-ups
 * confirmed once by admins (never for a deleted account) or withdrawn by their student, bookings
 * that hold their price (and refuse a short balance), releases, settlements with the commission,
 * payouts, refunds, receipts, the finance totals (always zero summed) and the CSVs. Runs on both
 * stores.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PAYMENT_INSTRUCTIONS } from '../../src/server/config/config';
import { runLessonJobs } from '../../src/server/lessons/lesson-jobs';
import { balanceOf } from '../../src/server/money/ledger';
import { createTopUp } from '../../src/server/money/top-ups';
import { get, send, TEST_PASSWORD } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { dayAt, lessonJobDeps } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp, walletOf } from '../support/money';

// PAYMENTS left empty: the default, on.
setUpApiTest({ env: { PAYMENTS: '', COMMISSION_PERCENT: '15' } });
afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 60 * 60 * 1000;

const at = (days: number, time: string) => dayAt(days, time);
const iso = (ms: number) => new Date(ms).toISOString();

function book(student: Person, tutorId: string, start: number, minutes = 60) {
  return send(
    t,
    'POST',
    '/api/lessons',
    { tutorId, start: iso(start), minutes, subject: 'Algebra' },
    student.jar,
  );
}

const jobDeps = () => lessonJobDeps(t);

const cents = (amountCents: number) => ({ amountCents, currency: 'USD' });

describe('top-ups', () => {
  it('takes a request, shows its reference and instructions, and credits it once however often it is confirmed', async () => {
    const student = await person('student');
    const [first, second] = [
      await makeAdmin(t, await person('student')),
      await makeAdmin(t, await person('student')),
    ];
    const asked = await send(
      t,
      'POST',
      '/api/wallet/top-ups',
      { amountCents: 5000, method: 'manual' },
      student.jar,
    );
    expect(asked.status).toBe(201);
    const { topUp: pending } = await asked.json();
    expect(pending).toMatchObject({
      amountCents: 5000,
      currency: 'USD',
      method: 'manual',
      status: 'pending',
      reference: expect.stringMatching(/^TL-[A-Z2-9]{6}$/),
      // No PAYMENT_INSTRUCTIONS and none written in Site settings: the product's text.
      instructions: DEFAULT_PAYMENT_INSTRUCTIONS,
    });
    expect(await walletOf(t, student)).toMatchObject({
      role: 'student',
      payments: 'on',
      balance: cents(0),
      topUps: [{ id: pending.id, status: 'pending' }],
    });
    // Two admins press Confirm at once, and one presses it again.
    const answers = await Promise.all([
      send(t, 'POST', `/api/admin/top-ups/${pending.id}/confirm`, {}, first.jar),
      send(t, 'POST', `/api/admin/top-ups/${pending.id}/confirm`, {}, second.jar),
    ]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    const again = await send(t, 'POST', `/api/admin/top-ups/${pending.id}/confirm`, {}, first.jar);
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('ALREADY_SETTLED');
    const wallet = await walletOf(t, student);
    expect(wallet).toMatchObject({ balance: cents(5000), topUps: [{ status: 'confirmed' }] });
    expect(wallet.transactions).toEqual([
      expect.objectContaining({ kind: 'top_up', amount: cents(5000), memo: `Top-up ${pending.reference}` }),
    ]);
    await t.mailer.deliverDue();
    await mailbox.waitFor(
      (mail) =>
        mail.to === student.email.toLowerCase() && mail.subject === '$50 was added to your Tutorlane wallet',
    );
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'reason'])
      .where('action', '=', 'topup.confirmed')
      .execute();
    expect(audit).toEqual([{ action: 'topup.confirmed', reason: `$50, reference ${pending.reference}` }]);
    await financeTotals(t, first);
  });

  it('shows the payment instructions an admin writes with every transfer at once, and the default ones again after null', async () => {
    const student = await person('student');
    const admin = await makeAdmin(t, await person('student'));
    const written = 'IBAN DE89 3704 0044 0532 0130 00\nBIC COBADEFFXXX';
    const setTo = async (paymentInstructions: string | null) => {
      const res = await send(t, 'PATCH', '/api/admin/settings', { paymentInstructions }, admin.jar);
      expect(res.status, await res.clone().text()).toBe(200);
    };
    const ask = async () => {
      const res = await send(
        t,
        'POST',
        '/api/wallet/top-ups',
        { amountCents: 1500, method: 'manual' },
        student.jar,
      );
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()).topUp;
    };
    const configured = async () => (await (await t.request('/api/config')).json()).payments.instructions;
    expect(await configured()).toBe(DEFAULT_PAYMENT_INSTRUCTIONS);
    try {
      await setTo(written);
      expect(await configured()).toBe(written);
      const first = await ask();
      expect(first.instructions).toBe(written);
      expect((await walletOf(t, student)).topUps[0]).toMatchObject({ id: first.id, instructions: written });
      // The admin's answers carry them too (they are what the top-up said).
      const rejected = await send(
        t,
        'POST',
        `/api/admin/top-ups/${first.id}/reject`,
        { note: 'Never came' },
        admin.jar,
      );
      expect(rejected.status, await rejected.clone().text()).toBe(200);
      expect((await rejected.json()).topUp.instructions).toBe(written);
    } finally {
      await setTo(null);
    }
    expect(await configured()).toBe(DEFAULT_PAYMENT_INSTRUCTIONS);
    expect((await ask()).instructions).toBe(DEFAULT_PAYMENT_INSTRUCTIONS);
  });

  it('rejects a top-up with a note, mailed and audited, crediting nothing', async () => {
    const student = await person('student');
    const admin = await makeAdmin(t, await person('student'));
    const { topUp: pending } = await (
      await send(t, 'POST', '/api/wallet/top-ups', { amountCents: 2000, method: 'manual' }, student.jar)
    ).json();
    const missingNote = await send(
      t,
      'POST',
      `/api/admin/top-ups/${pending.id}/reject`,
      { note: ' ' },
      admin.jar,
    );
    expect(missingNote.status).toBe(400);
    const rejected = await send(
      t,
      'POST',
      `/api/admin/top-ups/${pending.id}/reject`,
      { note: 'No transfer arrived' },
      admin.jar,
    );
    expect(rejected.status).toBe(200);
    expect((await rejected.json()).topUp).toMatchObject({ status: 'rejected', note: 'No transfer arrived' });
    expect((await send(t, 'POST', `/api/admin/top-ups/${pending.id}/confirm`, {}, admin.jar)).status).toBe(
      409,
    );
    expect((await walletOf(t, student)).balance).toEqual(cents(0));
    await t.mailer.deliverDue();
    const mail = await mailbox.waitFor(
      (m) => m.to === student.email.toLowerCase() && m.subject.includes('was not confirmed'),
    );
    expect(mail.text).toContain('No transfer arrived');
  });

  it('refuses amounts out of range or in part units, cards when not set up, tutors, and more than 10 an hour', async () => {
    const student = await person('student');
    for (const amountCents of [499, 400, 500_100, 1050, 1.5])
      expect(
        (await send(t, 'POST', '/api/wallet/top-ups', { amountCents, method: 'manual' }, student.jar)).status,
        String(amountCents),
      ).toBe(400);
    const card = await send(
      t,
      'POST',
      '/api/wallet/top-ups',
      { amountCents: 1000, method: 'stripe' },
      student.jar,
    );
    expect(card.status).toBe(409);
    expect((await card.json()).code).toBe('STRIPE_NOT_CONFIGURED');
    const tutor = await person('tutor');
    expect(
      (await send(t, 'POST', '/api/wallet/top-ups', { amountCents: 1000, method: 'manual' }, tutor.jar))
        .status,
    ).toBe(403);
    expect((await get(t, '/api/wallet')).status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await send(t, 'POST', '/api/wallet/top-ups', { amountCents: 500, method: 'manual' }, student.jar))
          .status,
      );
    // Six were spent above (five refused amounts and the card); four more go through, then 429.
    expect(statuses.filter((status) => status === 201)).toHaveLength(4);
    expect(statuses.at(-1)).toBe(429);
  });

  it('prints a receipt styled within its policy, in the reader’s zone, and keeps another user’s top-up and receipt out of reach: 404', async () => {
    const [student, stranger] = [await person('student'), await person('student')];
    const admin = await makeAdmin(t, await person('student'));
    await topUp(t, student, admin, 1000);
    const [transaction] = (await walletOf(t, student)).transactions;
    const own = await get(t, `/api/wallet/transactions/${transaction.id}/receipt`, student.jar);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toContain('text/html');
    const html = await own.text();
    expect(html).toContain(`R-${transaction.id.padStart(6, '0')}`);
    expect(html).toContain('<td class="amount">$10.00</td>');
    expect(html).toContain('support@');
    // Its stylesheet is the one the policy lets in, by its hash: the page is styled, nothing else runs.
    const style = html.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(own.headers.get('content-security-policy')).toMatch(
      new RegExp(`^default-src 'none'; style-src 'sha256-${hash.replace(/[+/]/g, '\\$&')}';`),
    );
    // The time is in the reader's zone: the browser's, where they saved none.
    const madrid = await get(
      t,
      `/api/wallet/transactions/${transaction.id}/receipt?timeZone=Europe%2FMadrid`,
      student.jar,
    );
    const at = new Date(transaction.at);
    const clock = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Europe/Madrid',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(at);
    expect(await madrid.text()).toMatch(new RegExp(`, ${clock} (Central European|Madrid)`));
    expect((await get(t, `/api/wallet/transactions/${transaction.id}/receipt`, stranger.jar)).status).toBe(
      404,
    );
    expect((await get(t, '/api/wallet/transactions/abc/receipt', student.jar)).status).toBe(404);
    expect(
      (
        await send(
          t,
          'POST',
          '/api/admin/top-ups/00000000-0000-0000-0000-000000000000/confirm',
          {},
          admin.jar,
        )
      ).status,
    ).toBe(404);
    // Only admins confirm.
    const { topUp: mine } = await (
      await send(t, 'POST', '/api/wallet/top-ups', { amountCents: 1000, method: 'manual' }, stranger.jar)
    ).json();
    expect((await send(t, 'POST', `/api/admin/top-ups/${mine.id}/confirm`, {}, stranger.jar)).status).toBe(
      403,
    );
  });
});

describe('a top-up nobody will pay', () => {
  it('is withdrawn by its own student, and then no admin can confirm it', async () => {
    const [student, stranger] = [await person('student'), await person('student')];
    const admin = await makeAdmin(t, await person('student'));
    const ask = () =>
      send(t, 'POST', '/api/wallet/top-ups', { amountCents: 2500, method: 'manual' }, student.jar);
    const { topUp: pending } = await (await ask()).json();
    const withdraw = (id: string, who: Person) =>
      send(t, 'POST', `/api/wallet/top-ups/${id}/withdraw`, {}, who.jar);

    // Another student's top-up does not exist for them; a tutor has none; a bad id is unknown.
    expect((await withdraw(pending.id, stranger)).status).toBe(404);
    expect((await withdraw(pending.id, await person('tutor'))).status).toBe(403);
    expect((await withdraw('not-a-top-up', student)).status).toBe(404);

    const withdrawn = await withdraw(pending.id, student);
    expect(withdrawn.status, await withdrawn.clone().text()).toBe(200);
    expect((await withdrawn.json()).topUp).toMatchObject({ id: pending.id, status: 'withdrawn' });
    const again = await withdraw(pending.id, student);
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('ALREADY_SETTLED');
    const confirm = await send(t, 'POST', `/api/admin/top-ups/${pending.id}/confirm`, {}, admin.jar);
    expect(confirm.status).toBe(409);
    expect((await confirm.json()).code).toBe('ALREADY_SETTLED');
    const finance = await (await get(t, '/api/admin/finance', admin.jar)).json();
    expect(finance.pendingTopUps.map((row: { id: string }) => row.id)).not.toContain(pending.id);
    const wallet = await walletOf(t, student);
    expect(wallet.balance).toEqual(cents(0));
    expect(wallet.topUps[0]).toMatchObject({ id: pending.id, status: 'withdrawn' });

    // A confirmed one is money in the wallet: it is refunded, not withdrawn.
    const { topUp: paid } = await (await ask()).json();
    expect((await send(t, 'POST', `/api/admin/top-ups/${paid.id}/confirm`, {}, admin.jar)).status).toBe(200);
    expect((await withdraw(paid.id, student)).status).toBe(409);
    expect((await walletOf(t, student)).balance).toEqual(cents(2500));
    await financeTotals(t, admin);
  });

  it('of a deleted account is never confirmed, and none is asked for after the deletion', async () => {
    const student = await person('student');
    const admin = await makeAdmin(t, await person('student'));
    const deleted = await send(t, 'POST', '/api/account/delete', { password: TEST_PASSWORD }, student.jar);
    expect(deleted.status, await deleted.clone().text()).toBe(200);
    const ask = () =>
      createTopUp(t.database.db, {
        studentId: student.id,
        amountCents: 4000,
        currency: 'USD',
        method: 'manual',
        now: Date.now(),
      });
    // A request that reached the server as the deletion committed finds nobody to top up.
    await expect(ask()).rejects.toMatchObject({ status: 401 });
    // One that came in before: written as the store holds it, then settled by an admin.
    const id = crypto.randomUUID();
    await t.database.db
      .insertInto('top_ups')
      .values({
        id,
        student_id: student.id,
        amount_cents: 4000,
        currency: 'USD',
        method: 'manual',
        reference: 'TL-GONE42',
      })
      .execute();
    const confirm = await send(t, 'POST', `/api/admin/top-ups/${id}/confirm`, {}, admin.jar);
    expect(confirm.status).toBe(409);
    expect(await confirm.json()).toEqual({
      code: 'ACCOUNT_DELETED',
      message:
        'This student has deleted their account, so nobody could claim this top-up. If the money arrived, send it back to where it came from, then reject the top-up.',
    });
    const row = await t.database.db
      .selectFrom('top_ups')
      .select(['status', 'settled_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'pending', settled_by: null });
    expect(await balanceOf(t.database.db, `balance:${student.id}`)).toBe(0);
    await financeTotals(t, admin);
    const reject = await send(t, 'POST', `/api/admin/top-ups/${id}/reject`, { note: 'Sent back' }, admin.jar);
    expect(reject.status, await reject.clone().text()).toBe(200);
  });
});

describe('lessons and their price', () => {
  it('refuses a booking the balance does not cover, with the amount missing, and makes no lesson', async () => {
    const teacher = await publishTutor(t, await person('tutor'));
    const student = await person('student');
    const admin = await makeAdmin(t, await person('student'));
    await topUp(t, student, admin, 1500);
    const short = await book(student, teacher.id, at(3, '10:00'));
    expect(short.status).toBe(409);
    expect(await short.json()).toMatchObject({ code: 'INSUFFICIENT_BALANCE', needed: cents(2500) });
    expect((await (await get(t, '/api/lessons', student.jar)).json()).lessons).toEqual([]);
    expect((await walletOf(t, student)).balance).toEqual(cents(1500));
  });

  it('holds the price at booking, gives it back on a cancellation, and on a declined request', async () => {
    const teacher = await publishTutor(t, await person('tutor'));
    const careful = await publishTutor(t, await person('tutor'), { instantBooking: false });
    const student = await person('student');
    const admin = await makeAdmin(t, await person('student'));
    await topUp(t, student, admin, 10_000);
    const booked = await book(student, teacher.id, at(3, '10:00'));
    expect(booked.status).toBe(201);
    const lesson = await booked.json();
    expect(lesson.payment).toEqual({ status: 'held', ...cents(4000) });
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(6000), held: cents(4000) });
    expect(await walletOf(t, teacher)).toMatchObject({
      role: 'tutor',
      pending: cents(3400),
      payable: cents(0),
    });

    const cancelled = await send(
      t,
      'POST',
      `/api/lessons/${lesson.id}/cancel`,
      { reason: 'Travelling' },
      teacher.jar,
    );
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).payment.status).toBe('released');
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(10_000), held: cents(0) });

    // A request holds too, until the tutor answers.
    const request = await (await book(student, careful.id, at(4, '10:00'))).json();
    expect(request).toMatchObject({ status: 'pending', payment: { status: 'held' } });
    expect((await walletOf(t, student)).balance).toEqual(cents(6000));
    const declined = await send(t, 'POST', `/api/lessons/${request.id}/decline`, {}, careful.jar);
    expect((await declined.json()).payment.status).toBe('released');
    const wallet = await walletOf(t, student);
    expect(wallet.balance).toEqual(cents(10_000));
    expect(
      wallet.transactions.map((tx: { kind: string; amount: { amountCents: number } }) => [
        tx.kind,
        tx.amount.amountCents,
      ]),
    ).toEqual([
      ['lesson_release', 4000],
      ['lesson_hold', -4000],
      ['lesson_release', 4000],
      ['lesson_hold', -4000],
      ['top_up', 10_000],
    ]);
    await financeTotals(t, admin);
  });

  it('settles a completed lesson: the commission to the school, the rest to the tutor, shown as earnings', async () => {
    const teacher = await publishTutor(t, await person('tutor'), { hourlyRate: 35 });
    const student = await person('student');
    const admin = await makeAdmin(t, await person('student'));
    await topUp(t, student, admin, 5000);
    const start = at(2, '10:00');
    const lesson = await (await book(student, teacher.id, start)).json();
    const before = await financeTotals(t, admin);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + 2 * HOUR);
    // Two servers' jobs at once: settled once.
    await Promise.all([runLessonJobs(jobDeps()), runLessonJobs(jobDeps())]);
    const settled = await (await get(t, `/api/lessons/${lesson.id}`, student.jar)).json();
    expect(settled).toMatchObject({ status: 'completed', payment: { status: 'settled', amountCents: 3500 } });
    // 15% of $35 is $5.25 to the school; $29.75 to the tutor.
    expect(await walletOf(t, teacher)).toMatchObject({
      pending: cents(0),
      payable: cents(2975),
      paidOut: cents(0),
    });
    const after = await financeTotals(t, admin);
    expect(after.schoolRevenue - before.schoolRevenue).toBe(525);
    expect(after.held - before.held).toBe(-3500);
    const dashboard = await (await get(t, '/api/dashboard', teacher.jar)).json();
    expect(dashboard.earnings).toMatchObject({ thisMonthCents: 2975, pendingCents: 0, currency: 'USD' });
  });

  it('settles every lesson that ended by the pass in one go, each tutor their own share', async () => {
    const [first, second] = await Promise.all([
      publishTutor(t, await person('tutor'), { hourlyRate: 40 }),
      publishTutor(t, await person('tutor'), { hourlyRate: 25 }),
    ]);
    const [ana, ben] = await Promise.all([person('student'), person('student')]);
    const admin = await makeAdmin(t, await person('student'));
    await topUp(t, ana, admin, 10_000);
    await topUp(t, ben, admin, 10_000);
    const start = at(3, '09:00');
    // Three lessons ending before the pass, two of them in the same minute, and one still ahead.
    const lessons = await Promise.all([
      book(ana, first.id, start),
      book(ben, second.id, start),
      book(ana, second.id, start + HOUR),
      book(ben, first.id, start + 6 * HOUR),
    ]).then((responses) => Promise.all(responses.map((res) => res.json())));
    const before = await financeTotals(t, admin);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + 2 * HOUR + 60_000);
    expect(await runLessonJobs(jobDeps())).toMatchObject({ completed: 3 });
    const payment = async (who: Person, lesson: { id: string }) =>
      (await (await get(t, `/api/lessons/${lesson.id}`, who.jar)).json()).payment;
    expect(await payment(ana, lessons[0])).toMatchObject({ status: 'settled', amountCents: 4000 });
    expect(await payment(ana, lessons[2])).toMatchObject({ status: 'settled', amountCents: 2500 });
    expect(await payment(ben, lessons[3])).toMatchObject({ status: 'held', amountCents: 4000 });
    // $40 less 15% to the first tutor; two lessons of $25 less 15% each to the second.
    expect(await walletOf(t, first)).toMatchObject({ payable: cents(3400), pending: cents(3400) });
    expect(await walletOf(t, second)).toMatchObject({ payable: cents(2 * 2125), pending: cents(0) });
    const after = await financeTotals(t, admin);
    expect(after.schoolRevenue - before.schoolRevenue).toBe(600 + 2 * 375);
    expect(after.held - before.held).toBe(-(4000 + 2 * 2500));
  });

  it('gives the price back when a request expires or a tutor is suspended, and pays a no-show', async () => {
    const careful = await publishTutor(t, await person('tutor'), { instantBooking: false });
    const teacher = await publishTutor(t, await person('tutor'));
    const student = await person('student');
    const admin = await makeAdmin(t, await person('student'));
    await topUp(t, student, admin, 12_000);
    const request = await (await book(student, careful.id, at(10, '10:00'))).json();
    const noShow = await (await book(student, teacher.id, at(1, '09:00'))).json();
    const upcoming = await (await book(student, teacher.id, at(12, '09:00'))).json();
    expect((await walletOf(t, student)).balance).toEqual(cents(0));

    // The student never came to the lesson that ended: the tutor marks it before any job, and is paid.
    const booked = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(noShow.end) + HOUR);
    const marked = await send(t, 'POST', `/api/lessons/${noShow.id}/no-show`, {}, teacher.jar);
    expect(marked.status, await marked.clone().text()).toBe(200);
    expect((await marked.json()).payment.status).toBe('settled');
    // The request's 48 hours to answer run out: the job releases it.
    vi.setSystemTime(booked + 49 * HOUR);
    const { expired } = await runLessonJobs(jobDeps());
    expect(expired).toBeGreaterThanOrEqual(1);
    expect((await (await get(t, `/api/lessons/${request.id}`, student.jar)).json()).payment.status).toBe(
      'released',
    );
    vi.useRealTimers();
    expect((await walletOf(t, teacher)).payable).toEqual(cents(3400));

    // The tutor is suspended: their upcoming lesson is cancelled and its price returned.
    const suspended = await send(
      t,
      'POST',
      `/api/admin/users/${teacher.id}/suspend`,
      { reason: 'Testing' },
      admin.jar,
    );
    expect(suspended.status).toBe(200);
    expect((await (await get(t, `/api/lessons/${upcoming.id}`, student.jar)).json()).payment.status).toBe(
      'released',
    );
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(8000), held: cents(0) });
    await financeTotals(t, admin);
  });

  it('leaves exactly as many lessons as the balance covers when 20 bookings race', async () => {
    const teacher = await publishTutor(t, await person('tutor'));
    const student = await person('student');
    const admin = await makeAdmin(t, await person('student'));
    await topUp(t, student, admin, 12_000);
    const starts = Array.from({ length: 20 }, (_, i) =>
      at(5 + Math.floor(i / 10), `${String(8 + (i % 10)).padStart(2, '0')}:00`),
    );
    const answers = await Promise.all(starts.map((start) => book(student, teacher.id, start)));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(3);
    expect(answers.filter((res) => res.status === 409)).toHaveLength(17);
    const lessons = (await (await get(t, '/api/lessons', student.jar)).json()).lessons;
    expect(lessons).toHaveLength(3);
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(0), held: cents(12_000) });
    await financeTotals(t, admin);
  });
});

describe('payouts and refunds', () => {
  it('pays a tutor at most what they are owed, refunds a student at most their balance, and refunds a lesson', async () => {
    const teacher = await publishTutor(t, await person('tutor'));
    const student = await person('student');
    const admin = await makeAdmin(t, await person('student'));
    const topUpId = await topUp(t, student, admin, 10_000);
    const start = at(2, '12:00');
    const lesson = await (await book(student, teacher.id, start)).json();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + 2 * HOUR);
    await runLessonJobs(jobDeps());
    vi.useRealTimers();
    // $40, 15%: $6 to the school, $34 to the tutor.
    const tooMuch = await send(
      t,
      'POST',
      '/api/admin/payouts',
      { tutorId: teacher.id, amountCents: 3401, reference: 'PAY-1' },
      admin.jar,
    );
    expect(tooMuch.status).toBe(409);
    expect((await tooMuch.json()).code).toBe('EXCEEDS_PAYABLE');
    const payout = await send(
      t,
      'POST',
      '/api/admin/payouts',
      { tutorId: teacher.id, amountCents: 3400, reference: 'PAY-1' },
      admin.jar,
    );
    expect(payout.status).toBe(201);
    expect(await walletOf(t, teacher)).toMatchObject({ payable: cents(0), paidOut: cents(3400) });
    const payables = await get(t, '/api/admin/finance/payables.csv', admin.jar);
    expect(payables.headers.get('content-disposition')).toContain('attachment');
    expect(await payables.text()).not.toContain(teacher.email);

    // The lesson is refunded after its tutor was paid: they owe it to the school.
    const refund = await send(
      t,
      'POST',
      `/api/admin/lessons/${lesson.id}/refund`,
      { reason: 'The video failed' },
      admin.jar,
    );
    expect(refund.status).toBe(200);
    expect((await refund.json()).lesson.payment.status).toBe('refunded');
    expect((await walletOf(t, teacher)).payable).toEqual(cents(-3400));
    expect((await walletOf(t, student)).balance).toEqual(cents(10_000));
    const twice = await send(
      t,
      'POST',
      `/api/admin/lessons/${lesson.id}/refund`,
      { reason: 'Again' },
      admin.jar,
    );
    expect(twice.status).toBe(409);

    const overdrawn = await send(
      t,
      'POST',
      '/api/admin/refunds',
      { studentId: student.id, amountCents: 10_001, reference: 'R-1' },
      admin.jar,
    );
    expect(overdrawn.status).toBe(409);
    expect((await overdrawn.json()).code).toBe('EXCEEDS_BALANCE');
    const refunded = await send(
      t,
      'POST',
      '/api/admin/refunds',
      { studentId: student.id, amountCents: 4000, reference: 'R-1' },
      admin.jar,
    );
    expect(refunded.status).toBe(201);
    expect((await walletOf(t, student)).balance).toEqual(cents(6000));
    expect(
      (
        await send(
          t,
          'POST',
          '/api/admin/refunds',
          { studentId: teacher.id, amountCents: 100, reference: 'x' },
          admin.jar,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await send(
          t,
          'POST',
          '/api/admin/payouts',
          { tutorId: teacher.id, amountCents: -5, reference: 'x' },
          admin.jar,
        )
      ).status,
    ).toBe(400);

    const actions = (
      await t.database.db.selectFrom('audit_log').select('action').where('actor_id', '=', admin.id).execute()
    ).map((row) => row.action);
    expect(actions).toEqual(
      expect.arrayContaining(['payout.recorded', 'lesson.refunded', 'refund.recorded']),
    );
    await t.mailer.deliverDue();
    await mailbox.waitFor(
      (mail) => mail.to === teacher.email.toLowerCase() && mail.subject === 'Tutorlane paid you $34',
    );

    // Every entry, in a file a spreadsheet sums to zero.
    const csv = await (await get(t, '/api/admin/finance/entries.csv', admin.jar)).text();
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('transaction,kind,time,account,owner,lesson,reference,amount,amount_minor_units');
    expect(lines.length).toBeGreaterThan(10);
    expect(csv).toContain(`"payable:${teacher.id}","${teacher.email}","${lesson.id}","",-34.00,-3400`);
    // Each row that a bank statement shows carries the reference to match it by: the transfer's,
    // the payout's and the refund's.
    const { reference } = await t.database.db
      .selectFrom('top_ups')
      .select('reference')
      .where('id', '=', topUpId)
      .executeTakeFirstOrThrow();
    const referenceOf = (kind: string) =>
      lines.filter((line) => line.split(',')[1] === `"${kind}"`).map((line) => line.split(',')[6]);
    // (The file's other tests made top-ups of their own, each with its reference.)
    expect(referenceOf('top_up').every((field) => /^"TL-[A-Z2-9]{6}"$/.test(field ?? ''))).toBe(true);
    expect(referenceOf('top_up').filter((field) => field === `"${reference}"`)).toHaveLength(2);
    expect(referenceOf('payout')).toEqual(['"PAY-1"', '"PAY-1"']);
    expect(referenceOf('balance_refund')).toEqual(['"R-1"', '"R-1"']);
    expect(lines.slice(1).reduce((sum, line) => sum + Number(line.split(',').at(-1)), 0)).toBe(0);
    expect((await get(t, '/api/admin/finance/entries.csv?from=2026-13-01', admin.jar)).status).toBe(400);
    await financeTotals(t, admin);
  });

  it("writes payables.csv so that no part of a tutor's name runs as a formula, whatever a spreadsheet splits on", async () => {
    // A spreadsheet in a comma-decimal locale splits on ";" and would run "=1+1" and "=cmd|…".
    const name = "Emeka;=1+1;=cmd|' /C calc'!A0;";
    const teacher = await publishTutor(t, await person('tutor', name));
    const student = await person('student');
    const admin = await makeAdmin(t, await person('student'));
    await topUp(t, student, admin, 4000);
    const start = at(2, '15:00');
    expect((await book(student, teacher.id, start)).status).toBe(201);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + 2 * HOUR);
    await runLessonJobs(jobDeps());
    vi.useRealTimers();

    const res = await get(t, '/api/admin/finance/payables.csv', admin.jar);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).split('\r\n');
    expect(lines[0]).toBe('tutor_id,name,email,payable,currency');
    const line = lines.find((row) => row.includes(teacher.id));
    // Every text field quoted, the amount a bare number, each formula start defused.
    expect(line).toBe(`"${teacher.id}","Emeka;'=1+1;'=cmd|' /C calc'!A0;","${teacher.email}",34.00,"USD"`);
    const parts = (line ?? '').split(/[,;\t]/);
    expect(parts.filter((part) => /^"?\s*[=+\-@\t\r]/.test(part))).toEqual([]);
  });

  it('refunds an upcoming lesson in full and calls it off, telling both', async () => {
    const teacher = await publishTutor(t, await person('tutor'));
    const student = await person('student');
    const admin = await makeAdmin(t, await person('student'));
    await topUp(t, student, admin, 4000);
    const lesson = await (await book(student, teacher.id, at(6, '10:00'))).json();
    const refund = await send(
      t,
      'POST',
      `/api/admin/lessons/${lesson.id}/refund`,
      { reason: 'Tutor unavailable' },
      admin.jar,
    );
    expect((await refund.json()).lesson).toMatchObject({
      status: 'cancelled',
      payment: { status: 'refunded' },
    });
    expect((await walletOf(t, student)).balance).toEqual(cents(4000));
    await t.mailer.deliverDue();
    const mail = await mailbox.waitFor(
      (m) => m.to === teacher.email.toLowerCase() && m.subject.startsWith('Lesson cancelled'),
    );
    expect(mail.text).toContain('Tutor unavailable');
  });
});
