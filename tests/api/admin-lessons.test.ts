/**
 * Admins cancelling or moving any planned lesson that has not started, for a reason: both people
 * mailed with it, the cancellation read as Tutorlane's, the move checked free for the tutor, each
 * audited; and, with payments on, a cancellation giving the held price back in full. Runs on both
 * stores.
 */
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { get, send, verifiedPerson } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { insertLesson } from '../support/lessons';
import { makeAdmin, publishTutor, topUp, walletOf } from '../support/money';
import { createTestApp, type TestApp } from '../support/test-app';

setUpApiTest();

const ZONE = 'Europe/Madrid';
const HOUR = 60 * 60 * 1000;

function at(days: number, time: string): number {
  return Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
}
const iso = (ms: number) => new Date(ms).toISOString();

async function book(app: TestApp, student: Person, tutorId: string, start: number) {
  const res = await send(
    app,
    'POST',
    '/api/lessons',
    { tutorId, start: iso(start), minutes: 60, subject: 'Algebra' },
    student.jar,
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; start: string };
}

async function mailsTo(address: string, subjectPart: string) {
  await mailbox.waitFor(() => mailbox.mailsTo(address).some((mail) => mail.subject.includes(subjectPart)));
  return mailbox.mailsTo(address).filter((mail) => mail.subject.includes(subjectPart));
}

async function lastAudit(admin: Person) {
  const res = await get(t, '/api/admin/audit', admin.jar);
  return (await res.json()).entries[0] as { action: string; reason: string; target: string };
}

describe('an admin cancelling a lesson', () => {
  it('cancels it as Tutorlane, mails both with the reason, and audits it', async () => {
    const admin = await person('student', 'Lesson Admin');
    await makeAdmin(t, admin);
    const tutor = await person('tutor');
    await publishTutor(t, tutor);
    const student = await person('student');
    // Within 24 hours of the start: the rule is for the lesson's own people, not for admins.
    const lesson = {
      id: await insertLesson(t.database.db, {
        tutorId: tutor.id,
        studentId: student.id,
        status: 'confirmed',
        start: Date.now() + 3 * HOUR,
      }),
    };

    const res = await send(
      t,
      'POST',
      `/api/admin/lessons/${lesson.id}/cancel`,
      { reason: 'Tutor is ill' },
      admin.jar,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const { lesson: cancelled } = await res.json();
    expect(cancelled).toMatchObject({
      id: lesson.id,
      status: 'cancelled',
      cancellation: { by: 'tutorlane', reason: 'Tutor is ill' },
    });
    for (const who of [tutor, student]) {
      const [mail] = await mailsTo(who.email, 'Lesson cancelled');
      expect(mail?.text).toContain('cancelled by the Tutorlane team');
      expect(mail?.text).toContain('Reason given: Tutor is ill');
      expect(mail?.calendar).toContain('METHOD:CANCEL');
    }
    expect(await lastAudit(admin)).toMatchObject({ action: 'lesson.cancelled' });
    expect((await lastAudit(admin)).reason).toContain('Tutor is ill');

    const again = await send(
      t,
      'POST',
      `/api/admin/lessons/${lesson.id}/cancel`,
      { reason: 'Again' },
      admin.jar,
    );
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('NOT_PLANNED');
  });

  it('answers 404 for no lesson, 400 without a reason, 409 for a lesson that took place', async () => {
    const admin = await person('student');
    await makeAdmin(t, admin);
    const tutor = await person('tutor');
    await publishTutor(t, tutor);
    const student = await person('student');
    const missing = await send(
      t,
      'POST',
      '/api/admin/lessons/00000000-0000-4000-8000-000000000000/cancel',
      { reason: 'x' },
      admin.jar,
    );
    expect(missing.status).toBe(404);
    const lesson = await book(t, student, tutor.id, at(3, '10:00'));
    for (const body of [{}, { reason: '   ' }]) {
      const res = await send(t, 'POST', `/api/admin/lessons/${lesson.id}/cancel`, body, admin.jar);
      expect(res.status).toBe(400);
    }
    const noReasonMove = await send(
      t,
      'POST',
      `/api/admin/lessons/${lesson.id}/move`,
      { start: iso(at(4, '10:00')) },
      admin.jar,
    );
    expect(noReasonMove.status).toBe(400);
    const past = await insertLesson(t.database.db, {
      tutorId: tutor.id,
      studentId: student.id,
      status: 'completed',
      start: Date.now() - 48 * HOUR,
    });
    const res = await send(t, 'POST', `/api/admin/lessons/${past}/cancel`, { reason: 'x' }, admin.jar);
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('NOT_PLANNED');
  });
});

describe('an admin moving a lesson', () => {
  it('moves it to a time the tutor has free, mails both with the reason, and audits it', async () => {
    const admin = await person('student');
    await makeAdmin(t, admin);
    const tutor = await person('tutor');
    await publishTutor(t, tutor);
    const student = await person('student');
    const lesson = await book(t, student, tutor.id, at(3, '10:00'));
    const other = await book(t, await person('student'), tutor.id, at(4, '10:00'));

    const taken = await send(
      t,
      'POST',
      `/api/admin/lessons/${lesson.id}/move`,
      { start: iso(at(4, '10:30')), reason: 'Room change' },
      admin.jar,
    );
    expect(taken.status).toBe(409);
    expect((await taken.json()).code).toBe('SLOT_UNAVAILABLE');
    expect(other.id).not.toBe(lesson.id);

    // Half an hour later overlaps its own time, which does not count as taken.
    const res = await send(
      t,
      'POST',
      `/api/admin/lessons/${lesson.id}/move`,
      { start: iso(at(3, '10:30')), reason: 'Room change' },
      admin.jar,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).lesson).toMatchObject({
      id: lesson.id,
      start: iso(at(3, '10:30')),
      status: 'confirmed',
    });
    for (const who of [tutor, student]) {
      const [mail] = await mailsTo(who.email, 'Lesson moved');
      expect(mail?.text).toContain('The Tutorlane team moved');
      expect(mail?.text).toContain('Reason given: Room change');
      expect(mail?.calendar).toContain('SEQUENCE:1');
    }
    const entry = await lastAudit(admin);
    expect(entry.action).toBe('lesson.moved');
    expect(entry.reason).toContain('Room change');
  });
});

describe('with payments on', () => {
  it('gives the held price back in full when an admin cancels', async () => {
    const app = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl, PAYMENTS: 'on' } });
    try {
      const tutor = await verifiedPerson(app, mailbox, 'tutor', 'Paid Tutor');
      await publishTutor(app, tutor);
      const admin = await makeAdmin(app, await verifiedPerson(app, mailbox, 'student', 'Money Admin'));
      const student = await verifiedPerson(app, mailbox, 'student', 'Paying Student');
      await topUp(app, student, admin, 5000);
      const lesson = await book(app, student, tutor.id, at(3, '10:00'));
      expect((await walletOf(app, student)).balance.amountCents).toBe(1000);
      // The list says the price is held, so an admin knows what a cancellation gives back.
      const listed = await get(app, '/api/admin/lessons?search=Paying', admin.jar);
      expect((await listed.json()).lessons).toMatchObject([
        { id: lesson.id, payment: { status: 'held', amountCents: 4000, currency: 'USD' } },
      ]);
      const res = await send(
        app,
        'POST',
        `/api/admin/lessons/${lesson.id}/cancel`,
        { reason: 'Mistake' },
        admin.jar,
      );
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await res.json()).lesson.payment).toMatchObject({ status: 'released', amountCents: 4000 });
      expect((await walletOf(app, student)).balance.amountCents).toBe(5000);
    } finally {
      await app.close();
    }
  }, 60_000);
});
