/**
 * Lesson packages through the API, with payments on: a tutor's offers, buying one from the
 * balance, bookings that use its credits before the balance (also many at once), credits given
 * back by a cancellation or a decline, each lesson settled to the tutor at the package's price,
 * ending a package, and an admin refunding its unused credits. The finance totals must always sum
 * to zero. Runs on both stores.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runLessonJobs } from '../../src/server/lessons/lesson-jobs';
import { get, send } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { dayAt, lessonJobDeps, openAvailability } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp, walletOf } from '../support/money';

setUpApiTest({ env: { PAYMENTS: 'on', COMMISSION_PERCENT: '15' } });
afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 60 * 60 * 1000;

const at = (days: number, time: string) => dayAt(days, time);
const iso = (ms: number) => new Date(ms).toISOString();
const cents = (amountCents: number) => ({ amountCents, currency: 'USD' });

const jobDeps = () => lessonJobDeps(t);

type Offer = { lessons: number; minutes: number; discountPercent: number };

function offer(tutor: { jar: Person['jar'] }, packages: unknown, instantBooking = true) {
  return send(t, 'PUT', '/api/availability', { ...openAvailability, instantBooking, packages }, tutor.jar);
}

/** A tutor at $35 an hour offering 5 hour lessons at 10% off: $31.50 each, $157.50 in all. */
async function tutorWithPackages(options: { instantBooking?: boolean; offers?: Offer[] } = {}) {
  const tutor = await publishTutor(t, await person('tutor'), { hourlyRate: 35 });
  const res = await offer(
    tutor,
    options.offers ?? [{ lessons: 5, minutes: 60, discountPercent: 10 }],
    options.instantBooking ?? true,
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return tutor;
}

async function studentWith(balanceCents: number) {
  const student = await person('student');
  const admin = await makeAdmin(t, await person('student'));
  if (balanceCents > 0) await topUp(t, student, admin, balanceCents);
  return { student, admin };
}

const buy = (student: Person, tutorId: string, lessons = 5, minutes = 60) =>
  send(t, 'POST', '/api/packages', { tutorId, lessons, minutes }, student.jar);

function book(student: Person, tutorId: string, start: number, extra: Record<string, unknown> = {}) {
  return send(
    t,
    'POST',
    '/api/lessons',
    { tutorId, start: iso(start), minutes: 60, subject: 'Algebra', ...extra },
    student.jar,
  );
}

async function packagesOf(who: { jar: Person['jar'] }) {
  const res = await get(t, '/api/packages', who.jar);
  expect(res.status).toBe(200);
  return (await res.json()).packages;
}

describe('offers', () => {
  it('takes up to three offers of 5, 10 or 20 lessons at 0-30% off, and shows their prices on the tutor page', async () => {
    const tutor = await publishTutor(t, await person('tutor'), { hourlyRate: 37 });
    const refusals: [unknown, string][] = [
      [[{ lessons: 7, minutes: 60, discountPercent: 10 }], 'A package has 5, 10, 20 lessons'],
      [[{ lessons: 5, minutes: 50, discountPercent: 10 }], "A package's lessons must last"],
      [[{ lessons: 5, minutes: 60, discountPercent: 31 }], "A package's discount must be"],
      [[{ lessons: 5, minutes: 60, discountPercent: 2.5 }], "A package's discount must be"],
      [
        [
          { lessons: 5, minutes: 60, discountPercent: 5 },
          { lessons: 5, minutes: 60, discountPercent: 10 },
        ],
        'The package of 5 lessons of 60 minutes is offered twice',
      ],
      [
        [5, 10, 20]
          .map((lessons) => ({ lessons, minutes: 60, discountPercent: 5 }))
          .concat({
            lessons: 5,
            minutes: 90,
            discountPercent: 0,
          }),
        'Offer at most 3 packages',
      ],
      [[{ lessons: 5, minutes: 60, discountPercent: 5, price: 1 }], 'A package offer has no such field'],
    ];
    for (const [packages, message] of refusals) {
      const res = await offer(tutor, packages);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain(message);
    }
    const offers = [
      { lessons: 10, minutes: 45, discountPercent: 15 },
      { lessons: 5, minutes: 60, discountPercent: 0 },
    ];
    const saved = await offer(tutor, offers);
    expect(saved.status).toBe(200);
    expect((await saved.json()).packages).toEqual(offers);
    // Left out, the offers stay as they were.
    const kept = await send(t, 'PUT', '/api/availability', openAvailability, tutor.jar);
    expect((await kept.json()).packages).toEqual(offers);

    const page = await (await get(t, `/api/tutors/${tutor.id}`)).json();
    // 45 minutes at $37 an hour is $27.75; 15% off is $23.5875, rounded half up to $23.59.
    expect(page.booking.packages).toEqual([
      { lessons: 10, minutes: 45, discountPercent: 15, perLessonCents: 2359, totalCents: 23_590 },
      { lessons: 5, minutes: 60, discountPercent: 0, perLessonCents: 3700, totalCents: 18_500 },
    ]);
  });
});

describe('buying', () => {
  it('moves the total from the balance into the package, and refuses a short balance with what is missing', async () => {
    const tutor = await tutorWithPackages();
    const { student, admin } = await studentWith(20_000);
    const bought = await buy(student, tutor.id);
    expect(bought.status).toBe(201);
    const { package: made } = await bought.json();
    expect(made).toMatchObject({
      tutor: { id: tutor.id },
      lessons: 5,
      minutes: 60,
      discountPercent: 10,
      perLessonCents: 3150,
      currency: 'USD',
      creditsLeft: 5,
      creditsHeld: 0,
      status: 'active',
      endedAt: null,
    });
    const wallet = await walletOf(t, student);
    expect(wallet.balance).toEqual(cents(20_000 - 15_750));
    expect(wallet.transactions[0]).toMatchObject({ kind: 'package_buy', amount: cents(-15_750) });
    expect(await packagesOf(student)).toEqual([made]);
    // The tutor sees the package sold to them.
    expect(await packagesOf(tutor)).toEqual([expect.objectContaining({ id: made.id, creditsLeft: 5 })]);
    expect(await financeTotals(t, admin)).toMatchObject({ packages: 15_750 });

    const short = await buy(student, tutor.id);
    expect(short.status).toBe(409);
    expect(await short.json()).toMatchObject({ code: 'INSUFFICIENT_BALANCE', needed: cents(15_750 - 4250) });
    expect((await walletOf(t, student)).balance).toEqual(cents(4250));
  });

  it('sells only what the tutor offers, to students', async () => {
    const tutor = await tutorWithPackages();
    const { student } = await studentWith(50_000);
    const notOffered = await buy(student, tutor.id, 10, 60);
    expect(notOffered.status).toBe(400);
    expect((await notOffered.json()).message).toBe('This tutor does not offer that package');
    expect((await buy(student, 'no-such-tutor')).status).toBe(404);
    const bad = await send(t, 'POST', '/api/packages', { tutorId: tutor.id, lessons: 'five' }, student.jar);
    expect(bad.status).toBe(400);
    const byTutor = await buy(await person('tutor'), tutor.id);
    expect(byTutor.status).toBe(403);
    expect(await packagesOf(student)).toEqual([]);
  });
});

describe('booking with a package', () => {
  it('uses a credit instead of the balance, and a cancellation or a decline gives it back', async () => {
    const tutor = await tutorWithPackages();
    const careful = await tutorWithPackages({ instantBooking: false });
    const { student, admin } = await studentWith(40_000);
    const { package: made } = await (await buy(student, tutor.id)).json();
    const balance = (await walletOf(t, student)).balance.amountCents;

    const booked = await book(student, tutor.id, at(3, '10:00'));
    expect(booked.status).toBe(201);
    const lesson = await booked.json();
    expect(lesson).toMatchObject({
      packageId: made.id,
      price: cents(3150),
      payment: { status: 'held', ...cents(3150) },
    });
    expect((await walletOf(t, student)).balance).toEqual(cents(balance));
    expect(await packagesOf(student)).toEqual([
      expect.objectContaining({ id: made.id, creditsLeft: 4, creditsHeld: 1 }),
    ]);

    const cancelled = await send(t, 'POST', `/api/lessons/${lesson.id}/cancel`, {}, student.jar);
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).payment.status).toBe('released');
    expect(await packagesOf(student)).toEqual([
      expect.objectContaining({ id: made.id, creditsLeft: 5, creditsHeld: 0 }),
    ]);
    expect((await walletOf(t, student)).balance).toEqual(cents(balance));

    // A request to a tutor who answers each one uses their package's credit until declined.
    const { package: other } = await (await buy(student, careful.id)).json();
    const request = await (await book(student, careful.id, at(4, '10:00'))).json();
    expect(request).toMatchObject({ status: 'pending', packageId: other.id });
    const declined = await send(t, 'POST', `/api/lessons/${request.id}/decline`, {}, careful.jar);
    expect((await declined.json()).payment.status).toBe('released');
    expect((await packagesOf(student)).find((item: { id: string }) => item.id === other.id)).toMatchObject({
      creditsLeft: 5,
      creditsHeld: 0,
    });
    await financeTotals(t, admin);
  });

  it('takes a late fee of half a credit in money, and gives the other half back to the package', async () => {
    const tutor = await tutorWithPackages();
    const policy = await send(
      t,
      'PUT',
      '/api/availability',
      {
        ...openAvailability,
        packages: [{ lessons: 5, minutes: 60, discountPercent: 10 }],
        cancellationWindowHours: 48,
        lateCancelFeePercent: 50,
      },
      tutor.jar,
    );
    expect(policy.status, await policy.clone().text()).toBe(200);
    const { student, admin } = await studentWith(40_000);
    const { package: made } = await (await buy(student, tutor.id)).json();
    const balance = (await walletOf(t, student)).balance.amountCents;
    const start = at(1, '10:00');
    const lesson = await (await book(student, tutor.id, start)).json();
    expect(lesson).toMatchObject({ packageId: made.id, cancellation: { feePercent: 50 } });

    // Past the 15 minutes in which a booking may be undone for free, inside the 48-hour window.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + HOUR);
    const cancelled = await send(t, 'POST', `/api/lessons/${lesson.id}/cancel`, {}, student.jar);
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect(await cancelled.json()).toMatchObject({
      payment: { status: 'fee' },
      cancellation: { by: 'student', fee: cents(1575) },
    });
    // Half the package's $31.50 stays with the tutor; the other half is back in the package, where
    // it is half a credit's money: four whole credits, and nothing comes back to the balance.
    const [after] = await packagesOf(student);
    expect(after).toMatchObject({ id: made.id, creditsLeft: 4, creditsHeld: 0 });
    expect((await walletOf(t, student)).balance).toEqual(cents(balance));
    await financeTotals(t, admin);
  });

  it('settles each lesson to the tutor at the package price less the commission', async () => {
    const tutor = await tutorWithPackages();
    const { student, admin } = await studentWith(20_000);
    await buy(student, tutor.id);
    const start = at(2, '10:00');
    const lesson = await (await book(student, tutor.id, start)).json();
    const before = await financeTotals(t, admin);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + 2 * HOUR);
    await runLessonJobs(jobDeps());
    const settled = await (await get(t, `/api/lessons/${lesson.id}`, student.jar)).json();
    expect(settled).toMatchObject({ status: 'completed', payment: { status: 'settled', amountCents: 3150 } });
    // 15% of $31.50 is $4.725, rounded half up to $4.73; $26.77 to the tutor.
    expect(await walletOf(t, tutor)).toMatchObject({ payable: cents(2677) });
    const after = await financeTotals(t, admin);
    expect(after.schoolRevenue - before.schoolRevenue).toBe(473);
    expect(after.packages).toBe(before.packages);
    expect(await packagesOf(student)).toEqual([expect.objectContaining({ creditsLeft: 4, creditsHeld: 0 })]);
  });

  it('of ten bookings at once against three credits, exactly three use them; the rest pay from the balance while it lasts', async () => {
    const tutor = await tutorWithPackages();
    // The package ($157.50), then one full-price lesson ($35) from the balance, and $2.50.
    const { student, admin } = await studentWith(19_500);
    const { package: made } = await (await buy(student, tutor.id)).json();
    await book(student, tutor.id, at(2, '08:00'));
    await book(student, tutor.id, at(2, '09:00'));
    expect(await packagesOf(student)).toEqual([expect.objectContaining({ creditsLeft: 3 })]);

    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        book(student, tutor.id, at(5, `${String(8 + index).padStart(2, '0')}:00`)),
      ),
    );
    const bodies = await Promise.all(answers.map((res) => res.json()));
    const made201 = bodies.filter((_, index) => answers[index]?.status === 201);
    expect(made201.filter((lesson) => lesson.packageId === made.id)).toHaveLength(3);
    expect(made201.filter((lesson) => lesson.packageId === null).map((lesson) => lesson.price)).toEqual([
      cents(3500),
    ]);
    const refused = bodies.filter((_, index) => answers[index]?.status === 409);
    expect(refused.map((body) => body.code)).toEqual(Array(6).fill('INSUFFICIENT_BALANCE'));
    expect(await packagesOf(student)).toEqual([expect.objectContaining({ creditsLeft: 0, creditsHeld: 5 })]);
    expect((await walletOf(t, student)).balance).toEqual(cents(250));

    // Asked for by name, a used-up package refuses rather than taking the balance.
    const usedUp = await book(student, tutor.id, at(6, '10:00'), { packageId: made.id });
    expect(usedUp.status).toBe(409);
    expect((await usedUp.json()).code).toBe('PACKAGE_USED_UP');
    await financeTotals(t, admin);
  });

  it("refuses another student's package, and one for another length", async () => {
    const tutor = await tutorWithPackages();
    const { student } = await studentWith(30_000);
    const { package: made } = await (await buy(student, tutor.id)).json();
    const { student: other } = await studentWith(20_000);
    const theirs = await book(other, tutor.id, at(3, '10:00'), { packageId: made.id });
    expect(theirs.status).toBe(404);
    expect((await theirs.json()).message).toBe('This package does not exist');
    expect((await send(t, 'POST', `/api/packages/${made.id}/end`, {}, other.jar)).status).toBe(404);
    expect(await packagesOf(other)).toEqual([]);
    const longer = await book(student, tutor.id, at(3, '10:00'), { packageId: made.id, minutes: 90 });
    expect(longer.status).toBe(400);
    expect((await longer.json()).message).toContain('This package is for 60-minute lessons');
    // Without a package for that length, the balance pays.
    const paid = await (await book(student, tutor.id, at(3, '12:00'), { minutes: 90 })).json();
    expect(paid).toMatchObject({ packageId: null, price: cents(5250) });
  });
});

describe('a weekly series with a package', () => {
  it('pays the weeks its credits cover from the package, at its price, and the rest from the balance', async () => {
    const tutor = await tutorWithPackages();
    const { student, admin } = await studentWith(40_000);
    const { package: made } = await (await buy(student, tutor.id)).json();
    const balance = (await walletOf(t, student)).balance.amountCents;

    const preview = await get(
      t,
      `/api/lessons/preview-series?tutorId=${tutor.id}&start=${iso(at(3, '10:00'))}&minutes=60&repeatWeeks=7`,
      student.jar,
    );
    expect(preview.status, await preview.clone().text()).toBe(200);
    expect(await preview.json()).toMatchObject({ price: cents(3500), total: cents(5 * 3150 + 2 * 3500) });

    const booked = await book(student, tutor.id, at(3, '10:00'), { repeatWeeks: 7 });
    expect(booked.status, await booked.clone().text()).toBe(201);
    const { series } = await booked.json();
    expect(series.lessons).toHaveLength(7);
    const paid = series.lessons.map(
      (lesson: { packageId: string | null; price: unknown; payment: unknown }) => [
        lesson.packageId,
        lesson.price,
        lesson.payment,
      ],
    );
    expect(paid).toEqual([
      ...Array.from({ length: 5 }, () => [made.id, cents(3150), { status: 'held', ...cents(3150) }]),
      ...Array.from({ length: 2 }, () => [null, cents(3500), { status: 'held', ...cents(3500) }]),
    ]);
    expect(await packagesOf(student)).toEqual([
      expect.objectContaining({ id: made.id, creditsLeft: 0, creditsHeld: 5 }),
    ]);
    expect((await walletOf(t, student)).balance).toEqual(cents(balance - 2 * 3500));

    // Cancelling a week the package paid gives its credit back to the package, not the balance.
    const first = series.lessons[0];
    const cancelled = await send(t, 'POST', `/api/lessons/${first.id}/cancel`, {}, student.jar);
    expect((await cancelled.json()).payment.status).toBe('released');
    expect(await packagesOf(student)).toEqual([
      expect.objectContaining({ id: made.id, creditsLeft: 1, creditsHeld: 4 }),
    ]);
    await financeTotals(t, admin);
  });

  it('refuses the whole series when the balance cannot pay the weeks the package does not cover', async () => {
    const tutor = await tutorWithPackages();
    const { student, admin } = await studentWith(20_000);
    await buy(student, tutor.id);
    const refused = await book(student, tutor.id, at(3, '10:00'), { repeatWeeks: 7 });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      needed: cents(2 * 3500 - (20_000 - 15_750)),
    });
    expect(await packagesOf(student)).toEqual([expect.objectContaining({ creditsLeft: 5, creditsHeld: 0 })]);
    await financeTotals(t, admin);
  });
});

describe('ending a package', () => {
  it('gives the unused credits back at the package price, once', async () => {
    const tutor = await tutorWithPackages();
    const { student, admin } = await studentWith(20_000);
    const { package: made } = await (await buy(student, tutor.id)).json();
    const taken = await (await book(student, tutor.id, at(3, '10:00'))).json();
    const held = await (await book(student, tutor.id, at(3, '12:00'))).json();
    const before = (await walletOf(t, student)).balance.amountCents;

    const ended = await send(t, 'POST', `/api/packages/${made.id}/end`, {}, student.jar);
    expect(ended.status).toBe(200);
    expect((await ended.json()).package).toMatchObject({
      status: 'ended',
      creditsLeft: 0,
      creditsHeld: 2,
      endedAt: expect.any(String),
    });
    const wallet = await walletOf(t, student);
    expect(wallet.balance).toEqual(cents(before + 3 * 3150));
    expect(wallet.transactions[0]).toMatchObject({ kind: 'package_end', amount: cents(3 * 3150) });
    const again = await send(t, 'POST', `/api/packages/${made.id}/end`, {}, student.jar);
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('PACKAGE_ENDED');

    // A lesson of the ended package cancelled later gives its price to the balance.
    await send(t, 'POST', `/api/lessons/${held.id}/cancel`, {}, student.jar);
    expect((await walletOf(t, student)).balance).toEqual(cents(before + 4 * 3150));
    // New bookings pay from the balance again.
    const next = await (await book(student, tutor.id, at(4, '10:00'))).json();
    expect(next).toMatchObject({ packageId: null, price: cents(3500) });
    expect(taken.packageId).toBe(made.id);
    await financeTotals(t, admin);
  });
});

describe('an admin refunding a package', () => {
  it('pays its unused credits back whole, through the ledger, once, and ends it', async () => {
    const tutor = await tutorWithPackages();
    const { student, admin } = await studentWith(20_000);
    const { package: made } = await (await buy(student, tutor.id)).json();
    const held = await (await book(student, tutor.id, at(3, '10:00'))).json();
    expect(held.packageId).toBe(made.id);

    // The finance page lists it with what its four unused lessons hold.
    const finance = await (await get(t, '/api/admin/finance', admin.jar)).json();
    expect(finance.packages.filter((row: { id: string }) => row.id === made.id)).toEqual([
      {
        id: made.id,
        student: { id: student.id, displayName: student.name, email: student.email },
        tutor: { id: tutor.id, displayName: tutor.name },
        lessons: 5,
        minutes: 60,
        creditsLeft: 4,
        unused: cents(4 * 3150),
      },
    ]);
    const refund = (id: string, amountCents: number, who: Person = admin) =>
      send(t, 'POST', `/api/admin/packages/${id}/refund`, { amountCents, reference: 'BANK-9' }, who.jar);
    expect((await refund(made.id, 4 * 3150, student)).status).toBe(403);
    expect((await refund(crypto.randomUUID(), 4 * 3150)).status).toBe(404);
    const part = await refund(made.id, 3150);
    expect(part.status).toBe(409);
    expect(await part.json()).toMatchObject({ code: 'NOT_WHOLE_PACKAGE', unused: cents(4 * 3150) });

    const whole = await refund(made.id, 4 * 3150);
    expect(whole.status, await whole.clone().text()).toBe(201);
    const answer = await whole.json();
    expect(answer.package).toMatchObject({ status: 'ended', creditsLeft: 0, creditsHeld: 1 });
    const entries = await t.database.db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_transactions as x', 'x.id', 'e.transaction_id')
      .select(['x.kind', 'e.account_id', 'e.amount_cents'])
      .where('x.id', '=', Number(answer.transactionId))
      .orderBy('e.account_id')
      .execute();
    expect(entries).toEqual([
      { kind: 'package_refund', account_id: 'clearing:manual', amount_cents: 4 * 3150 },
      { kind: 'package_refund', account_id: `package:${made.id}`, amount_cents: -4 * 3150 },
    ]);
    const again = await refund(made.id, 4 * 3150);
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('PACKAGE_ENDED');
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('reason')
      .where('action', '=', 'package.refunded')
      .execute();
    expect(audit).toEqual([
      { reason: `$126 for 4 unused of 5 lessons of 60 minutes with ${tutor.name}, reference BANK-9` },
    ]);
    await t.mailer.deliverDue();
    await mailbox.waitFor(
      (mail) =>
        mail.to === student.email.toLowerCase() &&
        mail.subject === 'Tutorlane refunded $126 of your lesson package',
    );
    await financeTotals(t, admin);
    const after = await (await get(t, '/api/admin/finance', admin.jar)).json();
    expect(after.packages.map((row: { id: string }) => row.id)).not.toContain(made.id);

    // Its lesson still booked, called off later, gives its price to the balance.
    const before = (await walletOf(t, student)).balance.amountCents;
    await send(t, 'POST', `/api/lessons/${held.id}/cancel`, {}, student.jar);
    expect((await walletOf(t, student)).balance).toEqual(cents(before + 3150));
    await financeTotals(t, admin);
  });
});
