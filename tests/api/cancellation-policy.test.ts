/**
 * Each tutor's cancellation policy through the API, with payments on: free changes until the
 * lesson's window, a late fee settled through the ledger after it, the 15-minute grace, the
 * tutor's late cancellations (a reason, and a count admins see), and the policy fixed on each
 * lesson when it is booked. Runs on both stores.
 */
import { Temporal } from 'temporal-polyfill';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accounts, balanceOf } from '../../src/server/money/ledger';
import { get, send } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { openAvailability } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp, walletOf } from '../support/money';

setUpApiTest({ env: { PAYMENTS: '', COMMISSION_PERCENT: '15' } });
afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 60 * 60 * 1000;
const MINUTE = 60_000;
const ZONE = 'Europe/Madrid';
const iso = (ms: number) => new Date(ms).toISOString();
const cents = (amountCents: number) => ({ amountCents, currency: 'USD' });

/** The instant of `time` on the local date `days` from today in Madrid. */
function at(days: number, time: string): number {
  return Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
}

let admin: Person;

/** A tutor at $40 an hour with the given policy, and a student with $200 in their wallet. */
async function pair(policy: { cancellationWindowHours?: number; lateCancelFeePercent?: number } = {}) {
  if (!admin) {
    admin = await person('student', 'Admin Person');
    await makeAdmin(t, admin);
  }
  const tutor = await person('tutor');
  await publishTutor(t, tutor);
  if (Object.keys(policy).length > 0) {
    const res = await send(t, 'PUT', '/api/availability', { ...openAvailability, ...policy }, tutor.jar);
    expect(res.status, await res.clone().text()).toBe(200);
  }
  const student = await person('student');
  await topUp(t, student, admin, 20_000);
  return { tutor, student };
}

async function book(student: Person, tutorId: string, start: number, minutes = 60) {
  const res = await send(
    t,
    'POST',
    '/api/lessons',
    { tutorId, start: iso(start), minutes, subject: 'Algebra' },
    student.jar,
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

const act = (who: Person, id: string, action: string, body: object = {}) =>
  send(t, 'POST', `/api/lessons/${id}/${action}`, body, who.jar);

const payableOf = (tutorId: string) => balanceOf(t.database.db, accounts.payable(tutorId).id);

describe('the tutor’s policy', () => {
  it('is saved with the availability, defaults to 24 hours and 100 %, and refuses other values', async () => {
    const tutor = await person('tutor');
    await publishTutor(t, tutor);
    expect(await (await get(t, '/api/availability', tutor.jar)).json()).toMatchObject({
      cancellationWindowHours: 24,
      lateCancelFeePercent: 100,
    });
    for (const [body, message] of [
      [{ cancellationWindowHours: 6 }, 'The cancellation window must be one of 0, 2, 4, 12, 24, 48 hours'],
      [{ cancellationWindowHours: '24' }, 'The cancellation window must be one of 0, 2, 4, 12, 24, 48 hours'],
      [{ lateCancelFeePercent: 25 }, 'The late cancellation fee must be one of 0, 50, 100 percent'],
    ] as const) {
      const res = await send(t, 'PUT', '/api/availability', { ...openAvailability, ...body }, tutor.jar);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ message, code: 'VALIDATION_ERROR' });
    }
    const saved = await send(
      t,
      'PUT',
      '/api/availability',
      { ...openAvailability, cancellationWindowHours: 48, lateCancelFeePercent: 50 },
      tutor.jar,
    );
    expect(await saved.json()).toMatchObject({ cancellationWindowHours: 48, lateCancelFeePercent: 50 });
    // The tutor's page states it.
    const page = await (await get(t, `/api/tutors/${tutor.id}`)).json();
    expect(page.booking.cancellationPolicy).toEqual({
      cancellationWindowHours: 48,
      lateCancelFeePercent: 50,
    });
  });

  it('is fixed on the lesson when it is booked: a later change is for later bookings', async () => {
    const { tutor, student } = await pair({ cancellationWindowHours: 12, lateCancelFeePercent: 50 });
    const start = at(5, '10:00');
    const lesson = await book(student, tutor.id, start);
    expect(lesson.cancellation).toMatchObject({ freeUntil: iso(start - 12 * HOUR), feePercent: 50 });
    const changed = await send(
      t,
      'PUT',
      '/api/availability',
      { ...openAvailability, cancellationWindowHours: 48, lateCancelFeePercent: 100 },
      tutor.jar,
    );
    expect(changed.status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    // 30 hours before: free under the lesson's 12 hours, though the tutor now asks 48.
    vi.setSystemTime(start - 30 * HOUR);
    const read = await (await get(t, `/api/lessons/${lesson.id}`, student.jar)).json();
    expect(read.cancellation).toMatchObject({
      freeUntil: iso(start - 12 * HOUR),
      feePercent: 50,
      fee: cents(0),
    });
    expect(read.changeableUntil).toBe(iso(start - 12 * HOUR));
    // Inside its own window, its own 50 %.
    vi.setSystemTime(start - 2 * HOUR);
    const cancelled = await act(student, lesson.id, 'cancel');
    expect((await cancelled.json()).cancellation).toMatchObject({ by: 'student', fee: cents(2000) });
  });
});

describe('the student cancelling', () => {
  it('is free before the window: the hold goes back in full', async () => {
    const { tutor, student } = await pair({ cancellationWindowHours: 48, lateCancelFeePercent: 100 });
    const start = at(6, '10:00');
    const lesson = await book(student, tutor.id, start);
    expect(lesson.cancellation.fee).toEqual(cents(0));
    const res = await act(student, lesson.id, 'cancel');
    expect(res.status).toBe(200);
    const cancelled = await res.json();
    expect(cancelled.cancellation).toMatchObject({ by: 'student', fee: cents(0) });
    expect(cancelled.payment.status).toBe('released');
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(20_000), held: cents(0) });
    expect(await payableOf(tutor.id)).toBe(0);
  });

  it.each([
    [100, 4000],
    [50, 2000],
    [0, 0],
  ])(
    'inside the window pays %i %% of the price: the tutor gets it less the commission',
    async (percent, fee) => {
      const { tutor, student } = await pair({ cancellationWindowHours: 24, lateCancelFeePercent: percent });
      const start = at(6, '10:00');
      const lesson = await book(student, tutor.id, start);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(start - 3 * HOUR);
      // What cancelling now would cost, before the student confirms.
      const before = await (await get(t, `/api/lessons/${lesson.id}`, student.jar)).json();
      expect(before.cancellation.fee).toEqual(cents(fee));
      // And from when it costs that: the window's start (nothing to say when the fee is 0 %).
      expect(before.cancellation.lateFee).toEqual(
        fee > 0 ? { from: iso(start - 24 * HOUR), fee: cents(fee) } : null,
      );
      const res = await act(student, lesson.id, 'cancel');
      expect(res.status).toBe(200);
      const cancelled = await res.json();
      expect(cancelled.cancellation).toMatchObject({ by: 'student', fee: cents(fee), feePercent: percent });
      expect(cancelled.payment.status).toBe(fee > 0 ? 'fee' : 'released');
      expect(await walletOf(t, student)).toMatchObject({ balance: cents(20_000 - fee), held: cents(0) });
      // 15 % commission to the school, the rest to the tutor.
      expect(await payableOf(tutor.id)).toBe(fee - Math.round(fee * 0.15));
      await financeTotals(t, admin);
      // Both are told of the fee.
      if (fee > 0) {
        for (const who of [student, tutor]) {
          const mail = await mailFor(who.email);
          expect(mail).toContain('late cancellation fee of $');
        }
        // The tutor's wallet tells the fee from a lesson taught: this lesson was called off.
        const { transactions } = await walletOf(t, tutor);
        expect(transactions).toEqual([
          expect.objectContaining({
            kind: 'lesson_settle',
            amount: cents(fee - Math.round(fee * 0.15)),
            lesson: expect.objectContaining({ id: lesson.id, cancelled: true }),
          }),
        ]);
        // And so does its receipt.
        const receipt = await get(t, `/api/wallet/transactions/${transactions[0].id}/receipt`, tutor.jar);
        expect(await receipt.text()).toContain('Late cancellation fee: the lesson did not take place');
      }
      expect(cancelled.cancellation.lateFee).toBeNull();
    },
  );

  it('may not move a lesson inside the window, but may still cancel it', async () => {
    const { tutor, student } = await pair({ cancellationWindowHours: 4, lateCancelFeePercent: 50 });
    const start = at(6, '10:00');
    const lesson = await book(student, tutor.id, start);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start - 3 * HOUR);
    const moved = await act(student, lesson.id, 'reschedule', { start: iso(at(6, '14:00')) });
    expect(moved.status).toBe(409);
    expect(await moved.json()).toEqual({
      message: 'This lesson can only be moved up to 4 hours before it starts. You may still cancel it.',
      code: 'TOO_LATE',
    });
    // Before the window it moves freely.
    vi.setSystemTime(start - 5 * HOUR);
    expect((await act(student, lesson.id, 'reschedule', { start: iso(at(6, '14:00')) })).status).toBe(200);
  });

  it('is free within 15 minutes of booking, even inside the window, but never once started', async () => {
    const { tutor, student } = await pair({ cancellationWindowHours: 48, lateCancelFeePercent: 100 });
    // Every time is worked out before the clock is set: the zone arithmetic reads the clock too.
    const [start, noon, later] = [at(6, '10:00'), at(6, '12:00'), at(6, '14:00')];
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start - 2 * HOUR);
    const first = await book(student, tutor.id, start);
    const second = await book(student, tutor.id, noon);
    // Free now, and the lesson says until when, and what it costs after.
    expect(first.cancellation).toMatchObject({
      fee: cents(0),
      lateFee: { from: iso(start - 2 * HOUR + 15 * MINUTE), fee: cents(4000) },
    });
    vi.setSystemTime(start - 2 * HOUR + 14 * MINUTE);
    const free = await (await act(student, first.id, 'cancel')).json();
    expect(free.cancellation.fee).toEqual(cents(0));
    vi.setSystemTime(start - 2 * HOUR + 16 * MINUTE);
    const charged = await (await act(student, second.id, 'cancel')).json();
    expect(charged.cancellation.fee).toEqual(cents(4000));
    // Booked and started within 15 minutes: too late all the same.
    const third = await book(student, tutor.id, later);
    vi.setSystemTime(later + MINUTE);
    const late = await act(student, third.id, 'cancel');
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: 'TOO_LATE' });
  });

  it('cancels a request the tutor has not accepted for free', async () => {
    const { tutor, student } = await pair({ cancellationWindowHours: 48, lateCancelFeePercent: 100 });
    const res = await send(
      t,
      'PUT',
      '/api/availability',
      { ...openAvailability, instantBooking: false },
      tutor.jar,
    );
    expect(res.status).toBe(200);
    const start = at(6, '10:00');
    vi.useFakeTimers({ toFake: ['Date'] });
    // Asked for inside the window, and still waiting for an answer.
    vi.setSystemTime(start - 5 * HOUR);
    const lesson = await book(student, tutor.id, start);
    expect(lesson.status).toBe('pending');
    // Free for as long as it is a request: no moment to name.
    expect(lesson.cancellation).toMatchObject({ fee: cents(0), lateFee: null });
    vi.setSystemTime(start - 3 * HOUR);
    const cancelled = await (await act(student, lesson.id, 'cancel')).json();
    expect(cancelled.cancellation.fee).toEqual(cents(0));
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(20_000) });
  });

  it('charges one fee when two cancellations of one lesson arrive at once', async () => {
    const { tutor, student } = await pair({ cancellationWindowHours: 24, lateCancelFeePercent: 50 });
    const start = at(6, '10:00');
    const lesson = await book(student, tutor.id, start);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start - 3 * HOUR);
    const answers = await Promise.all([act(student, lesson.id, 'cancel'), act(student, lesson.id, 'cancel')]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(18_000), held: cents(0) });
    expect(await payableOf(tutor.id)).toBe(1700);
    await financeTotals(t, admin);
  });
});

describe('the tutor cancelling', () => {
  it('needs a reason inside the window, refunds in full, and is counted for admins', async () => {
    const { tutor, student } = await pair({ cancellationWindowHours: 24, lateCancelFeePercent: 100 });
    const start = at(6, '10:00');
    const early = await book(student, tutor.id, start);
    const late = await book(student, tutor.id, at(6, '12:00'));
    // Before the window no reason is needed, and it is not counted.
    expect((await act(tutor, early.id, 'cancel')).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start - 3 * HOUR);
    const noReason = await act(tutor, late.id, 'cancel');
    expect(noReason.status).toBe(400);
    expect(await noReason.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'reason' });
    const res = await act(tutor, late.id, 'cancel', { reason: 'Family emergency' });
    expect(res.status).toBe(200);
    expect((await res.json()).cancellation).toMatchObject({
      by: 'tutor',
      fee: cents(0),
      reason: 'Family emergency',
    });
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(20_000), held: cents(0) });
    // Admins see the count on the tutor of their lessons.
    vi.useRealTimers();
    const third = await book(student, tutor.id, at(7, '10:00'));
    const list = await (
      await get(t, `/api/admin/lessons?search=${encodeURIComponent(student.email)}`, admin.jar)
    ).json();
    const row = list.lessons.find((entry: { id: string }) => entry.id === third.id);
    expect(row.tutor).toMatchObject({ id: tutor.id, lateCancellations: 1 });
  });

  it('may propose a new time for a lesson inside the window', async () => {
    const { tutor, student } = await pair({ cancellationWindowHours: 48, lateCancelFeePercent: 100 });
    const start = at(6, '10:00');
    const lesson = await book(student, tutor.id, start);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start - 3 * HOUR);
    const res = await act(tutor, lesson.id, 'propose', { start: iso(at(6, '15:00')) });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await act(student, lesson.id, 'proposal/accept')).status).toBe(200);
  });
});

/** The text of the newest lesson-cancelled mail to `address`. */
async function mailFor(address: string): Promise<string> {
  const mail = await mailbox.waitFor((m) => m.to === address && m.subject.startsWith('Lesson cancelled'));
  return mail.text;
}
