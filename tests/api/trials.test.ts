/**
 * Trial lessons over the API: the tutor's setting (and the price it may have), the card and the
 * search filter, booking one (30 minutes even when the tutor's lengths leave it out), one trial per
 * student and tutor and only before any other lesson (the database settling bookings sent at once),
 * a cancelled trial not counting, and the price held from the balance while payments are on.
 * Runs on both stores.
 */
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { get, send, verifiedPerson } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { insertLesson, openAvailability } from '../support/lessons';
import { makeAdmin, publishTutor, topUp, walletOf } from '../support/money';
import { createTestApp, type TestApp } from '../support/test-app';

setUpApiTest();

const ZONE = 'Europe/Madrid';

/** The instant of `time` on the local date `days` from today in Madrid. */
function at(days: number, time: string): number {
  return Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
}
const iso = (ms: number) => new Date(ms).toISOString();

/** A published tutor at $40 an hour (60 and 90 minute lessons) offering the trial given. */
async function trialTutor(trial: { offered: boolean; priceCents: number } | null, app: TestApp = t) {
  const who = await verifiedPerson(app, mailbox, 'tutor', 'Trial Tutor');
  await publishTutor(app, who);
  if (trial) {
    const res = await send(app, 'PUT', '/api/availability', { ...openAvailability, trial }, who.jar);
    expect(res.status, await res.clone().text()).toBe(200);
  }
  return who;
}

function bookTrial(student: Person, tutorId: string, start: number, app: TestApp = t) {
  return send(
    app,
    'POST',
    '/api/lessons',
    { tutorId, start: iso(start), subject: 'Algebra', trial: true },
    student.jar,
  );
}

function bookLesson(student: Person, tutorId: string, start: number) {
  return send(
    t,
    'POST',
    '/api/lessons',
    { tutorId, start: iso(start), minutes: 60, subject: 'Algebra' },
    student.jar,
  );
}

async function tutorPage(tutorId: string, who?: Person) {
  const res = await get(t, `/api/tutors/${tutorId}`, who?.jar);
  expect(res.status).toBe(200);
  return (await res.json()) as { trial: { priceCents: number } | null; booking: { trialAvailable: boolean } };
}

describe('the trial setting', () => {
  it('is not offered by default, saves with the availability, and stays when a save leaves it out', async () => {
    const tutor = await trialTutor(null);
    const before = await (await get(t, '/api/availability', tutor.jar)).json();
    expect(before.trial).toEqual({ offered: false, priceCents: 0 });

    const saved = await send(
      t,
      'PUT',
      '/api/availability',
      { ...openAvailability, trial: { offered: true, priceCents: 1500 } },
      tutor.jar,
    );
    expect(saved.status).toBe(200);
    expect((await saved.json()).trial).toEqual({ offered: true, priceCents: 1500 });

    const untouched = await send(t, 'PUT', '/api/availability', openAvailability, tutor.jar);
    expect((await untouched.json()).trial).toEqual({ offered: true, priceCents: 1500 });
  });

  it('refuses a price above half the hourly rate, or below zero', async () => {
    const tutor = await trialTutor(null);
    const put = (priceCents: number) =>
      send(
        t,
        'PUT',
        '/api/availability',
        { ...openAvailability, trial: { offered: true, priceCents } },
        tutor.jar,
      );
    // $40 an hour: half an hour is $20.
    expect((await put(2000)).status).toBe(200);
    const above = await put(2001);
    expect(above.status).toBe(400);
    expect(await above.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'trial.priceCents',
      message: 'The trial price can be at most half your hourly rate: $20',
    });
    const negative = await put(-1);
    expect(negative.status).toBe(400);
    expect((await negative.json()).message).toBe('The trial price cannot be negative');
    expect((await put(0)).status).toBe(200);
  });
});

describe('cards and the search', () => {
  it('shows the trial on the card and the page, and filters on it with trial=true', async () => {
    const offering = await trialTutor({ offered: true, priceCents: 0 });
    const notOffering = await trialTutor(null);
    const search = async (query: string) => {
      const res = await get(t, `/api/tutors?pageSize=48${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { tutors: { id: string; trial: { priceCents: number } | null }[] })
        .tutors;
    };
    const all = await search('');
    expect(all.find((card) => card.id === offering.id)?.trial).toEqual({ priceCents: 0 });
    expect(all.find((card) => card.id === notOffering.id)?.trial).toBeNull();

    const filtered = await search('&trial=true');
    expect(filtered.some((card) => card.id === offering.id)).toBe(true);
    expect(filtered.some((card) => card.id === notOffering.id)).toBe(false);
    expect(filtered.every((card) => card.trial !== null)).toBe(true);
    expect((await get(t, '/api/tutors?trial=yes')).status).toBe(400);

    expect((await tutorPage(offering.id)).booking.trialAvailable).toBe(true);
    expect((await tutorPage(notOffering.id)).booking.trialAvailable).toBe(false);
  });
});

describe('booking a trial', () => {
  it('books 30 minutes at the trial price, though the tutor offers only 60 and 90, then only once', async () => {
    const tutor = await trialTutor({ offered: true, priceCents: 1500 });
    const student = await person('student');

    const slots = await get(
      t,
      `/api/tutors/${tutor.id}/slots?from=${iso(at(3, '00:00'))}&to=${iso(at(4, '00:00'))}&minutes=30`,
    );
    expect(slots.status, await slots.clone().text()).toBe(200);
    expect((await slots.json()).slots).toContainEqual({
      start: iso(at(3, '10:00')),
      end: iso(at(3, '10:30')),
    });

    const booked = await bookTrial(student, tutor.id, at(3, '10:00'));
    expect(booked.status, await booked.clone().text()).toBe(201);
    const lesson = await booked.json();
    expect(lesson).toMatchObject({
      minutes: 30,
      trial: true,
      end: iso(at(3, '10:30')),
      price: { amountCents: 1500, currency: 'USD' },
    });
    expect((await tutorPage(tutor.id, student)).booking.trialAvailable).toBe(false);

    const again = await bookTrial(student, tutor.id, at(4, '10:00'));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'TRIAL_TAKEN' });
    // A regular lesson after the trial is fine; 30 minutes outside a trial is not.
    expect((await bookLesson(student, tutor.id, at(4, '12:00'))).status).toBe(201);
    const shortLesson = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: tutor.id, start: iso(at(5, '10:00')), minutes: 30, subject: 'Algebra' },
      student.jar,
    );
    expect(shortLesson.status).toBe(400);
  });

  it('refuses a trial the tutor does not offer, and one of another length', async () => {
    const tutor = await trialTutor({ offered: false, priceCents: 0 });
    const student = await person('student');
    const refused = await bookTrial(student, tutor.id, at(3, '10:00'));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: 'TRIAL_NOT_OFFERED',
      message: 'This tutor does not offer a trial lesson.',
    });
    const wrongLength = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: tutor.id, start: iso(at(3, '10:00')), minutes: 60, subject: 'Algebra', trial: true },
      student.jar,
    );
    expect(wrongLength.status).toBe(400);
    expect((await wrongLength.json()).message).toBe('A trial lesson lasts 30 minutes');
  });

  it('is only for before any other lesson, which a cancelled or declined one is not', async () => {
    const tutor = await trialTutor({ offered: true, priceCents: 0 });
    const db = t.database.db;
    const returning = await person('student');
    await insertLesson(db, {
      tutorId: tutor.id,
      studentId: returning.id,
      status: 'completed',
      start: at(-7, '10:00'),
    });
    const refused = await bookTrial(returning, tutor.id, at(3, '10:00'));
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'TRIAL_TAKEN' });

    const planned = await person('student');
    expect((await bookLesson(planned, tutor.id, at(3, '14:00'))).status).toBe(201);
    expect((await bookTrial(planned, tutor.id, at(4, '10:00'))).status).toBe(409);

    const called = await person('student');
    await insertLesson(db, {
      tutorId: tutor.id,
      studentId: called.id,
      status: 'cancelled',
      start: at(-7, '12:00'),
    });
    await insertLesson(db, {
      tutorId: tutor.id,
      studentId: called.id,
      status: 'declined',
      start: at(-6, '12:00'),
    });
    expect((await bookTrial(called, tutor.id, at(5, '10:00'))).status).toBe(201);
  });

  it('may be booked again after a trial was cancelled, and a missed one uses it up', async () => {
    const tutor = await trialTutor({ offered: true, priceCents: 0 });
    const student = await person('student');
    const first = await (await bookTrial(student, tutor.id, at(3, '10:00'))).json();
    const cancelled = await send(t, 'POST', `/api/lessons/${first.id}/cancel`, {}, student.jar);
    expect(cancelled.status).toBe(200);
    const second = await bookTrial(student, tutor.id, at(4, '10:00'));
    expect(second.status).toBe(201);

    const missed = await person('student');
    const trialId = await insertLesson(t.database.db, {
      tutorId: tutor.id,
      studentId: missed.id,
      status: 'no_show',
      start: at(-3, '10:00'),
      minutes: 30,
    });
    await t.database.db.updateTable('lessons').set({ trial: true }).where('id', '=', trialId).execute();
    expect((await bookTrial(missed, tutor.id, at(5, '10:00'))).status).toBe(409);
  });

  it('books exactly one of several trials sent at once by one student to one tutor', async () => {
    const tutor = await trialTutor({ offered: true, priceCents: 0 });
    const student = await person('student');
    const starts = [10, 11, 12, 13, 14].map((hour) => at(3, `${hour}:00`));
    const results = await Promise.all(starts.map((start) => bookTrial(student, tutor.id, start)));
    const statuses = results.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(starts.length - 1);
    for (const res of results.filter((r) => r.status === 409))
      expect((await res.json()).code).toBe('TRIAL_TAKEN');
    const rows = await t.database.db
      .selectFrom('lessons')
      .select('id')
      .where('student_id', '=', student.id)
      .where('tutor_id', '=', tutor.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('is refused by the database itself when a second trial of the pair is written', async () => {
    const tutor = await trialTutor({ offered: true, priceCents: 0 });
    const student = await person('student');
    expect((await bookTrial(student, tutor.id, at(3, '10:00'))).status).toBe(201);
    const second = insertLesson(t.database.db, {
      tutorId: tutor.id,
      studentId: student.id,
      status: 'confirmed',
      start: at(6, '10:00'),
    }).then((id) => t.database.db.updateTable('lessons').set({ trial: true }).where('id', '=', id).execute());
    await expect(second).rejects.toMatchObject({ code: '23505' });
  });
});

describe('with payments on', () => {
  it("holds a trial's price from the balance, and a free trial holds nothing", async () => {
    const app = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl, PAYMENTS: 'on' } });
    try {
      const paid = await trialTutor({ offered: true, priceCents: 1200 }, app);
      const free = await trialTutor({ offered: true, priceCents: 0 }, app);
      const admin = await makeAdmin(app, await verifiedPerson(app, mailbox, 'student', 'Money Admin'));
      const student = await verifiedPerson(app, mailbox, 'student', 'Paying Student');
      await topUp(app, student, admin, 5000);

      const booked = await bookTrial(student, paid.id, at(3, '10:00'), app);
      expect(booked.status, await booked.clone().text()).toBe(201);
      expect((await booked.json()).payment).toEqual({ status: 'held', amountCents: 1200, currency: 'USD' });
      expect((await walletOf(app, student)).balance).toEqual({ amountCents: 3800, currency: 'USD' });

      const freeTrial = await bookTrial(student, free.id, at(4, '10:00'), app);
      expect(freeTrial.status, await freeTrial.clone().text()).toBe(201);
      expect((await freeTrial.json()).payment).toMatchObject({ status: 'none', amountCents: 0 });
      expect((await walletOf(app, student)).balance).toEqual({ amountCents: 3800, currency: 'USD' });
    } finally {
      await app.close();
    }
  }, 60_000);
});
