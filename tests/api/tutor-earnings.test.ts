/**
 * What a tutor is told they earn, with payments on and the school's 15% commission: the mails of a
 * lesson booked at once, of a request they accept and of a weekly series say the tutor's share as
 * the ledger will settle it (the price less the commission, rounded as a settlement rounds it),
 * with the currency's cents, while the student reads the price. Runs on both stores.
 */
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { send } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import type { CaughtMail } from '../support/mail-catcher';
import { makeAdmin, publishTutor, topUp } from '../support/money';

setUpApiTest({ env: { PAYMENTS: 'on', COMMISSION_PERCENT: '15' } });

const ZONE = 'Europe/Madrid';

/** The instant of `time` on the local date `days` from today in Madrid. */
function at(days: number, time: string): number {
  return Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
}

/** A student with `amountCents` in their wallet, topped up through an admin. */
async function fundedStudent(amountCents: number) {
  const student = await person('student');
  const admin = await makeAdmin(t, await person('student'));
  await topUp(t, student, admin, amountCents);
  return student;
}

function book(student: Person, tutorId: string, start: number, extra: object = {}) {
  return send(
    t,
    'POST',
    '/api/lessons',
    { tutorId, start: new Date(start).toISOString(), minutes: 60, subject: 'Algebra', ...extra },
    student.jar,
  );
}

async function mailTo(who: { email: string }, subjectPart: string): Promise<CaughtMail> {
  await t.mailer.deliverDue();
  return mailbox.waitFor((mail) => mail.to === who.email.toLowerCase() && mail.subject.includes(subjectPart));
}

describe('the booking mails', () => {
  it('tell the tutor what they earn after the commission, and the student the price', async () => {
    const tutor = await publishTutor(t, await person('tutor'), { hourlyRate: 40 });
    const student = await fundedStudent(10_000);
    expect((await book(student, tutor.id, at(3, '10:00'))).status).toBe(201);
    const toTutor = await mailTo(tutor, 'Lesson confirmed');
    // $40 less 15% ($6.00): the share the ledger settles to the tutor once the lesson took place.
    expect(toTutor.text).toContain(
      "You will earn $34.00: the price of $40.00 less the school's 15% commission.",
    );
    expect(toTutor.text).not.toContain('You will earn $40');
    expect(toTutor.html).toContain('You will earn $34.00');
    const toStudent = await mailTo(student, 'Lesson confirmed');
    expect(toStudent.text).toContain('The price is $40.');
    expect(toStudent.text).not.toContain('earn');
  });

  it('round the commission as a settlement does, on a request the tutor accepts', async () => {
    // $35 an hour: 15% is $5.25, so the tutor earns $29.75.
    const tutor = await publishTutor(t, await person('tutor'), { hourlyRate: 35, instantBooking: false });
    const student = await fundedStudent(10_000);
    const asked = await book(student, tutor.id, at(4, '10:00'));
    expect(asked.status).toBe(201);
    const { id } = await asked.json();
    expect((await send(t, 'POST', `/api/lessons/${id}/accept`, {}, tutor.jar)).status).toBe(200);
    const toTutor = await mailTo(tutor, 'Lesson confirmed');
    expect(toTutor.text).toContain(
      "You will earn $29.75: the price of $35.00 less the school's 15% commission.",
    );
  });

  it('tell the tutor of a weekly series what they earn in all', async () => {
    const tutor = await publishTutor(t, await person('tutor'), { hourlyRate: 40 });
    const student = await fundedStudent(20_000);
    const res = await book(student, tutor.id, at(2, '10:00'), { repeatWeeks: 4 });
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await res.json()).series.lessons).toHaveLength(4);
    const toTutor = await mailTo(tutor, 'Weekly lessons confirmed');
    expect(toTutor.text).toContain(
      "You will earn $136.00 in all: the price of $160.00 less the school's 15% commission.",
    );
    const toStudent = await mailTo(student, 'Weekly lessons confirmed');
    expect(toStudent.text).toContain('The price is $160 in all.');
  });
});
