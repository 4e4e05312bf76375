/**
 * Every move of a lesson's life (src/server/lessons/lifecycle/lesson-moves.ts) through the API,
 * with payments on: each leaves the lesson in the status the table says, its money where the move
 * puts it, and the ledger's totals summing to zero. And the SQL reading of a status agrees with the
 * TypeScript one. Runs on both stores.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LessonStatusColumn } from '../../src/server/db/schema';
import { runLessonJobs } from '../../src/server/lessons/lesson-jobs';
import { statusAt } from '../../src/server/lessons/lesson-records';
import { plannedAt, statusReadIn } from '../../src/server/lessons/lifecycle/lesson-states-sql';
import { LESSON_STATUSES } from '../../src/shared/lessons/lesson-schemas';
import { isPlanned } from '../../src/shared/lessons/lesson-states';
import { get, send, TEST_PASSWORD } from '../support/accounts';
import { type Person, person, setUpApiTest, t } from '../support/api-app';
import { dayAt, insertLesson, lessonJobDeps } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp, walletOf } from '../support/money';

setUpApiTest({ env: { PAYMENTS: 'on', COMMISSION_PERCENT: '15' } });
afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 60 * 60 * 1000;
/** A tutor at $40 an hour: an hour's lesson costs $40.00, of which $6.00 is the school's. */
const PRICE = 4000;

const at = (days: number, time: string) => dayAt(days, time);
const iso = (ms: number) => new Date(ms).toISOString();
const cents = (amountCents: number) => ({ amountCents, currency: 'USD' });

const jobDeps = () => lessonJobDeps(t);

/** A tutor, a student with $200 in their wallet, and an admin. */
async function scene(instantBooking = true) {
  const tutor = await publishTutor(t, await person('tutor'), { hourlyRate: 40, instantBooking });
  const student = await person('student');
  const admin = await makeAdmin(t, await person('student'));
  await topUp(t, student, admin, 20_000);
  return { tutor, student, admin };
}

async function book(student: Person, tutorId: string, start: number) {
  const res = await send(
    t,
    'POST',
    '/api/lessons',
    { tutorId, start: iso(start), minutes: 60, subject: 'Algebra' },
    student.jar,
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; status: string; start: string; end: string };
}

/** What a move answered: 200, the status and payment it says, and the ledger summing to zero. */
async function moved(res: Response, admin: Person, status: string, payment: string) {
  expect(res.status, await res.clone().text()).toBe(200);
  const body = await res.json();
  const lesson = body.lesson ?? body;
  expect(lesson).toMatchObject({ status, payment: { status: payment } });
  await financeTotals(t, admin);
  return lesson;
}

const lessonOf = async (who: Person, id: string) => (await get(t, `/api/lessons/${id}`, who.jar)).json();
const act = (who: Person, id: string, action: string, body: object = {}) =>
  send(t, 'POST', `/api/lessons/${id}/${action}`, body, who.jar);

describe('requests', () => {
  it('request, confirm and decline: the price is held, kept, then given back', async () => {
    const { tutor, student, admin } = await scene(false);
    const request = await book(student, tutor.id, at(5, '10:00'));
    expect(request.status).toBe('pending');
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(20_000 - PRICE), held: cents(PRICE) });
    await financeTotals(t, admin);
    await moved(await act(tutor, request.id, 'accept'), admin, 'confirmed', 'held');
    // Confirmed is not a request any more: a second answer is refused.
    expect((await act(tutor, request.id, 'decline')).status).toBe(409);

    const other = await book(student, tutor.id, at(6, '10:00'));
    await moved(await act(tutor, other.id, 'decline'), admin, 'declined', 'released');
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(20_000 - PRICE), held: cents(PRICE) });
  });

  it('expire: a request nobody answered gives its price back when its deadline passes', async () => {
    const { tutor, student, admin } = await scene(false);
    const request = await book(student, tutor.id, at(10, '10:00'));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 49 * HOUR);
    expect((await runLessonJobs(jobDeps())).expired).toBeGreaterThanOrEqual(1);
    expect(await lessonOf(student, request.id)).toMatchObject({
      status: 'expired',
      payment: { status: 'released' },
    });
    expect((await walletOf(t, student)).balance).toEqual(cents(20_000));
    await financeTotals(t, admin);
  });
  it('a refund of a request past its deadline gives its price back and leaves it expired, not cancelled', async () => {
    const { tutor, student, admin } = await scene(false);
    const request = await book(student, tutor.id, at(10, '10:00'));
    // No job has expired it yet: it is still stored pending, but reads expired.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 49 * HOUR);
    const refunded = await send(
      t,
      'POST',
      `/api/admin/lessons/${request.id}/refund`,
      { reason: 'Sorry' },
      admin.jar,
    );
    const after = await moved(refunded, admin, 'expired', 'refunded');
    expect(after.cancellation.by).toBeNull();
    expect((await walletOf(t, student)).balance).toEqual(cents(20_000));
  });
});

describe('planned lessons', () => {
  it('book instantly, move, accept a proposal, and cancel by the student or the tutor', async () => {
    const { tutor, student, admin } = await scene();
    const lesson = await book(student, tutor.id, at(5, '10:00'));
    expect(lesson.status).toBe('confirmed');
    await financeTotals(t, admin);

    const rescheduled = await moved(
      await act(student, lesson.id, 'reschedule', { start: iso(at(5, '12:00')) }),
      admin,
      'confirmed',
      'held',
    );
    expect(rescheduled.start).toBe(iso(at(5, '12:00')));
    const proposed = await act(tutor, lesson.id, 'propose', { start: iso(at(6, '10:00')), note: '' });
    expect(proposed.status, await proposed.clone().text()).toBe(200);
    const accepted = await moved(
      await act(student, lesson.id, 'proposal/accept'),
      admin,
      'confirmed',
      'held',
    );
    expect(accepted.start).toBe(iso(at(6, '10:00')));

    await moved(await act(student, lesson.id, 'cancel'), admin, 'cancelled', 'released');
    // Cancelled stays cancelled: no move leads out of it.
    expect((await act(student, lesson.id, 'reschedule', { start: iso(at(7, '10:00')) })).status).toBe(409);

    const second = await book(student, tutor.id, at(8, '10:00'));
    const byTutor = await moved(await act(tutor, second.id, 'cancel'), admin, 'cancelled', 'released');
    expect(byTutor.cancellation.by).toBe('tutor');
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(20_000), held: cents(0) });
  });

  it('an admin moves a lesson, then cancels it: the price goes back in full', async () => {
    const { tutor, student, admin } = await scene();
    const lesson = await book(student, tutor.id, at(5, '10:00'));
    const reason = 'The tutor asked us to';
    const admins = (action: string, body: object) =>
      send(t, 'POST', `/api/admin/lessons/${lesson.id}/${action}`, body, admin.jar);
    await moved(await admins('move', { start: iso(at(5, '14:00')), reason }), admin, 'confirmed', 'held');
    const cancelled = await moved(await admins('cancel', { reason }), admin, 'cancelled', 'released');
    expect(cancelled.cancellation.by).toBe('tutorlane');
    expect((await walletOf(t, student)).balance).toEqual(cents(20_000));
  });

  it('a suspension, and a deletion, cancel the person’s lessons and give each price back', async () => {
    const { tutor, student, admin } = await scene();
    const other = await publishTutor(t, await person('tutor'), { hourlyRate: 40 });
    const first = await book(student, tutor.id, at(5, '10:00'));
    const second = await book(student, other.id, at(6, '10:00'));

    const suspended = await send(
      t,
      'POST',
      `/api/admin/users/${tutor.id}/suspend`,
      { reason: 'Testing' },
      admin.jar,
    );
    expect(suspended.status).toBe(200);
    expect(await lessonOf(student, first.id)).toMatchObject({
      status: 'cancelled',
      payment: { status: 'released' },
    });
    await financeTotals(t, admin);

    const deleted = await send(t, 'POST', '/api/account/delete', { password: TEST_PASSWORD }, other.jar);
    expect(deleted.status, await deleted.clone().text()).toBe(200);
    expect(await lessonOf(student, second.id)).toMatchObject({
      status: 'cancelled',
      payment: { status: 'released' },
    });
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(20_000), held: cents(0) });
    await financeTotals(t, admin);
  });
});

describe('lessons that took place', () => {
  it('complete and no-show settle the price; a refund gives back what the ledger holds, once', async () => {
    const { tutor, student, admin } = await scene();
    const first = await book(student, tutor.id, at(1, '09:00'));
    const second = await book(student, tutor.id, at(1, '11:00'));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(second.end) + HOUR);
    expect((await runLessonJobs(jobDeps())).completed).toBeGreaterThanOrEqual(2);
    expect(await lessonOf(student, second.id)).toMatchObject({
      status: 'completed',
      payment: { status: 'settled' },
    });
    await financeTotals(t, admin);
    // Completed by the job, then marked by the tutor: paid once, as a lesson that took place.
    await moved(await act(tutor, first.id, 'no-show'), admin, 'no_show', 'settled');
    expect((await walletOf(t, tutor)).payable).toEqual(cents(2 * (PRICE - 600)));

    const refund = () =>
      send(t, 'POST', `/api/admin/lessons/${second.id}/refund`, { reason: 'Bad line' }, admin.jar);
    await moved(await refund(), admin, 'completed', 'refunded');
    expect((await walletOf(t, tutor)).payable).toEqual(cents(PRICE - 600));
    const again = await refund();
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('NOTHING_TO_REFUND');
    expect((await walletOf(t, student)).balance).toEqual(cents(20_000 - PRICE));
  });

  it('a refund of a planned lesson gives its hold back and calls it off', async () => {
    const { tutor, student, admin } = await scene();
    const lesson = await book(student, tutor.id, at(5, '10:00'));
    const refunded = await send(
      t,
      'POST',
      `/api/admin/lessons/${lesson.id}/refund`,
      { reason: 'Sorry' },
      admin.jar,
    );
    const after = await moved(refunded, admin, 'cancelled', 'refunded');
    expect(after.cancellation.by).toBe('tutorlane');
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(20_000), held: cents(0) });
  });
});

describe('a refund', () => {
  it('goes by what the ledger holds, whatever the payment column says', async () => {
    const { tutor, student, admin } = await scene(false);
    const held = await book(student, tutor.id, at(5, '10:00'));
    const declined = await book(student, tutor.id, at(6, '10:00'));
    await act(tutor, declined.id, 'decline');
    // The column edited by hand: the held lesson says released, the declined one says held.
    const column = (id: string, payment: 'held' | 'released') =>
      t.database.db.updateTable('lessons').set({ payment_status: payment }).where('id', '=', id).execute();
    await column(held.id, 'released');
    await column(declined.id, 'held');
    const refund = (id: string) =>
      send(t, 'POST', `/api/admin/lessons/${id}/refund`, { reason: 'Checked' }, admin.jar);

    await moved(await refund(held.id), admin, 'cancelled', 'refunded');
    expect(await walletOf(t, student)).toMatchObject({ balance: cents(20_000), held: cents(0) });
    const nothing = await refund(declined.id);
    expect(nothing.status).toBe(409);
    expect((await nothing.json()).code).toBe('NOTHING_TO_REFUND');
    expect((await walletOf(t, student)).balance).toEqual(cents(20_000));
    await financeTotals(t, admin);
  });
});

describe('a status read in SQL and in TypeScript', () => {
  it('agree for every stored status, before and after its deadline or end', async () => {
    const tutor = await person('tutor');
    const student = await person('student');
    const now = Date.now();
    const cases: [LessonStatusColumn, number][] = LESSON_STATUSES.flatMap((status, i) => [
      [status, now - (i + 2) * 24 * HOUR] as [LessonStatusColumn, number],
      [status, now + (i + 2) * 24 * HOUR] as [LessonStatusColumn, number],
    ]);
    const ids: string[] = [];
    for (const [status, start] of cases)
      ids.push(
        await insertLesson(t.database.db, { tutorId: tutor.id, studentId: student.id, status, start }),
      );
    const rows = await t.database.db
      .selectFrom('lessons')
      .select(['id', 'status', 'expires_at', 'ends_at'])
      .where('id', 'in', ids)
      .execute();
    const idsWhere = async (condition: ReturnType<typeof plannedAt>) =>
      (
        await t.database.db
          .selectFrom('lessons')
          .select('id')
          .where('id', 'in', ids)
          .where(condition)
          .execute()
      )
        .map((row) => row.id)
        .sort();
    for (const status of LESSON_STATUSES) {
      const expected = rows.filter((row) => statusAt(row, now) === status).map((row) => row.id);
      expect(await idsWhere(statusReadIn([status], now)), status).toEqual(expected.sort());
    }
    const planned = rows.filter((row) => isPlanned(statusAt(row, now))).map((row) => row.id);
    expect(planned).toHaveLength(2);
    expect(await idsWhere(plannedAt(now))).toEqual(planned.sort());
  });
});
