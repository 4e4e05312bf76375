/**
 * A tutor's proposal of a new time: made for a planned lesson that has not started (any time
 * before it, the 24-hour rule being the student's), one open at a time, checked free from both
 * people's sides, mailed to the student; the student accepts (the lesson moves, same id, sequence
 * up, invitations updated) or declines (the tutor is told); an unanswered one lapses at the start;
 * and who may do what. Runs on both stores.
 */
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { get, send } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { insertLesson } from '../support/lessons';
import { publishTutor } from '../support/money';

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

async function pair() {
  const tutor = await person('tutor');
  await publishTutor(t, tutor);
  const student = await person('student');
  return { tutor, student };
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
  return (await res.json()) as { id: string; start: string; end: string };
}

const propose = (who: Person, id: string, body: object) =>
  send(t, 'POST', `/api/lessons/${id}/propose`, body, who.jar);
const answer = (who: Person, id: string, choice: 'accept' | 'decline') =>
  send(t, 'POST', `/api/lessons/${id}/proposal/${choice}`, {}, who.jar);

async function mailsTo(address: string, subjectPart: string, count = 1) {
  await mailbox.waitFor(
    () => mailbox.mailsTo(address).filter((mail) => mail.subject.includes(subjectPart)).length >= count,
  );
  return mailbox.mailsTo(address).filter((mail) => mail.subject.includes(subjectPart));
}

describe('a tutor proposing a new time', () => {
  it('shows the proposal on the lesson, mails the student, and accepting moves the lesson', async () => {
    const { tutor, student } = await pair();
    const lesson = await book(student, tutor.id, at(3, '10:00'));

    const res = await propose(tutor, lesson.id, { start: iso(at(4, '15:00')), note: 'Can we do Thursday?' });
    expect(res.status, await res.clone().text()).toBe(200);
    const proposed = await res.json();
    expect(proposed.start).toBe(lesson.start);
    expect(proposed.proposal).toMatchObject({
      start: iso(at(4, '15:00')),
      end: iso(at(4, '16:00')),
      note: 'Can we do Thursday?',
    });
    const seen = await (await get(t, `/api/lessons/${lesson.id}`, student.jar)).json();
    expect(seen.proposal).toEqual(proposed.proposal);

    const [mail] = await mailsTo(student.email, 'New time proposed');
    expect(mail?.text).toContain('Can we do Thursday?');
    // In the student's zone (UTC until they choose one), said in words.
    expect(mail?.text).toContain('15:00');

    // A new proposal replaces the open one.
    const again = await propose(tutor, lesson.id, { start: iso(at(5, '11:00')) });
    expect(again.status).toBe(200);
    expect((await again.json()).proposal).toMatchObject({ start: iso(at(5, '11:00')), note: '' });

    const accepted = await answer(student, lesson.id, 'accept');
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const moved = await accepted.json();
    expect(moved).toMatchObject({
      id: lesson.id,
      start: iso(at(5, '11:00')),
      status: 'confirmed',
      proposal: null,
    });
    const row = await t.database.db
      .selectFrom('lessons')
      .select('sequence')
      .where('id', '=', lesson.id)
      .executeTakeFirstOrThrow();
    expect(row.sequence).toBe(1);
    const [tutorMail] = await mailsTo(tutor.email, 'Lesson moved');
    expect(tutorMail?.text).toContain('accepted the time you proposed');
    expect(tutorMail?.calendar).toContain('SEQUENCE:1');
    const [studentMail] = await mailsTo(student.email, 'Lesson moved');
    expect(studentMail?.calendar).toContain('METHOD:REQUEST');

    // Answered: nothing is open any more.
    expect((await answer(student, lesson.id, 'accept')).status).toBe(409);
  });

  it('declining drops the proposal and tells the tutor; the lesson stays', async () => {
    const { tutor, student } = await pair();
    const lesson = await book(student, tutor.id, at(3, '10:00'));
    expect((await propose(tutor, lesson.id, { start: iso(at(3, '16:00')) })).status).toBe(200);
    const declined = await answer(student, lesson.id, 'decline');
    expect(declined.status).toBe(200);
    expect(await declined.json()).toMatchObject({ start: lesson.start, proposal: null });
    const [mail] = await mailsTo(tutor.email, 'Proposed time declined');
    expect(mail?.text).toContain('declined the time you proposed');
    const again = await answer(student, lesson.id, 'decline');
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('NO_PROPOSAL');
  });

  it('allows a proposal within 24 hours of the start, and it lapses when the lesson starts', async () => {
    const { tutor, student } = await pair();
    const soon = Date.now() + 2 * HOUR;
    const id = await insertLesson(t.database.db, {
      tutorId: tutor.id,
      studentId: student.id,
      status: 'confirmed',
      start: soon,
    });
    const res = await propose(tutor, id, { start: iso(at(4, '12:00')) });
    expect(res.status, await res.clone().text()).toBe(200);
    // The lesson started without an answer: as if it had reached its start, read an hour later.
    await t.database.db
      .updateTable('lessons')
      .set({ starts_at: new Date(Date.now() - HOUR), ends_at: new Date(Date.now() + HOUR) })
      .where('id', '=', id)
      .execute();
    const read = await (await get(t, `/api/lessons/${id}`, student.jar)).json();
    expect(read.proposal).toBeNull();
    const late = await answer(student, id, 'accept');
    expect(late.status).toBe(409);
    expect((await late.json()).code).toBe('NOT_PLANNED');
    const tooLate = await propose(tutor, id, { start: iso(at(4, '12:00')) });
    expect((await tooLate.json()).code).toBe('NOT_PLANNED');
  });

  it("refuses a time the tutor does not offer, or the student's other lesson overlaps", async () => {
    const { tutor, student } = await pair();
    const other = await person('tutor');
    await publishTutor(t, other);
    const lesson = await book(student, tutor.id, at(3, '10:00'));
    await book(student, other.id, at(4, '10:00'));
    const offHours = await propose(tutor, lesson.id, { start: iso(at(4, '22:00')) });
    expect(offHours.status).toBe(409);
    expect((await offHours.json()).code).toBe('SLOT_UNAVAILABLE');
    const clash = await propose(tutor, lesson.id, { start: iso(at(4, '10:30')) });
    expect(clash.status).toBe(409);
    expect((await clash.json()).code).toBe('SLOT_UNAVAILABLE');
    // Its own current time does not count as taken: half an hour later overlaps it and is fine.
    expect((await propose(tutor, lesson.id, { start: iso(at(3, '10:30')) })).status).toBe(200);
  });

  it('answers 409 SLOT_UNAVAILABLE when the time was taken before the student accepted', async () => {
    const { tutor, student } = await pair();
    const lesson = await book(student, tutor.id, at(3, '10:00'));
    expect((await propose(tutor, lesson.id, { start: iso(at(5, '10:00')) })).status).toBe(200);
    const someoneElse = await person('student');
    await book(someoneElse, tutor.id, at(5, '10:00'));
    const res = await answer(student, lesson.id, 'accept');
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('SLOT_UNAVAILABLE');
    const read = await (await get(t, `/api/lessons/${lesson.id}`, student.jar)).json();
    expect(read.start).toBe(lesson.start);
  });

  it('lets only the tutor propose and only the student answer; others get 404', async () => {
    const { tutor, student } = await pair();
    const stranger = await person('student');
    const lesson = await book(student, tutor.id, at(3, '10:00'));
    const byStudent = await propose(student, lesson.id, { start: iso(at(4, '10:00')) });
    expect(byStudent.status).toBe(403);
    expect((await propose(stranger, lesson.id, { start: iso(at(4, '10:00')) })).status).toBe(404);
    expect((await propose(tutor, lesson.id, { start: iso(at(4, '10:00')) })).status).toBe(200);
    expect((await answer(tutor, lesson.id, 'accept')).status).toBe(403);
    expect((await answer(stranger, lesson.id, 'decline')).status).toBe(404);
    const cancelled = await send(t, 'POST', `/api/lessons/${lesson.id}/cancel`, {}, student.jar);
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).proposal).toBeNull();
    const afterCancel = await propose(tutor, lesson.id, { start: iso(at(4, '12:00')) });
    expect(afterCancel.status).toBe(409);
    expect((await afterCancel.json()).code).toBe('NOT_PLANNED');
  });
});
