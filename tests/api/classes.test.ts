/**
 * Group classes over the API, on both stores: creating one (and every refusal naming its field),
 * the tutor's time kept across lessons and classes by the database, enrolling with each session's
 * price held, the gap-free waitlist and who moves up, leaving under the policy, the decision a day
 * before, cancelling and removing, settlement, and twelve students racing for five seats. The
 * finance totals sum to zero after every money move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClassJobs } from '../../src/server/classes/class-jobs';
import { runLessonJobs } from '../../src/server/lessons/lesson-jobs';
import { accounts, balanceOf } from '../../src/server/money/ledger';
import { get, send } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { dayAt, lessonJobDeps } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp, walletOf } from '../support/money';

setUpApiTest({ env: { PAYMENTS: 'on', COMMISSION_PERCENT: '15' } });

const HOUR = 60 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const PRICE = 2000;

interface ClassView {
  id: string;
  seats: number;
  seatsTaken: number;
  waitlist: number;
  status: string;
  sessions: { id: string; start: string; status: string }[];
  you: { status: string | null; position: number | null } | null;
}

let admin: Person;
let day = 2;
/** A fresh day (in Madrid) for each class, so that no two tests' classes meet. */
const nextDay = () => {
  day += 1;
  return day;
};

beforeAll(async () => {
  admin = await makeAdmin(t, await person('student', 'Class Admin'));
});

afterAll(async () => {
  await financeTotals(t, admin);
});

const classBody = (sessions: number[], extra: Record<string, unknown> = {}) => ({
  title: 'Exam prep circle',
  subject: 'Algebra',
  language: 'English',
  description: 'Past papers, together.',
  minutes: 60,
  seats: 5,
  minStudents: 1,
  priceCents: PRICE,
  sessions: sessions.map(iso),
  ...extra,
});

async function tutor(name = 'Class Tutor') {
  return publishTutor(t, await person('tutor', name));
}

async function createClass(who: Person, sessions: number[], extra: Record<string, unknown> = {}) {
  const res = await send(t, 'POST', '/api/classes', classBody(sessions, extra), who.jar);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { class: ClassView }).class;
}

async function student(money = 0, name?: string) {
  const who = await person('student', name);
  if (money > 0) await topUp(t, who, admin, money);
  return who;
}

const enrol = (who: Person, id: string, key?: string) =>
  t.request(`/api/classes/${id}/enrol`, {
    method: 'POST',
    headers: { cookie: who.jar.header(), ...(key ? { 'idempotency-key': key } : {}) },
  });

async function view(id: string, who?: Person): Promise<ClassView> {
  const res = await get(t, `/api/classes/${id}`, who?.jar);
  expect(res.status).toBe(200);
  return res.json();
}

const balance = async (who: Person) =>
  ((await walletOf(t, who)) as { balance: { amountCents: number } }).balance.amountCents;

describe('creating a class', () => {
  it('answers the class, its sessions in order, and lists it', async () => {
    const teacher = await tutor();
    const d = nextDay();
    const later = dayAt(d + 7, '17:00');
    const first = dayAt(d, '17:00');
    const made = await createClass(teacher, [later, first], { seats: 3, minStudents: 2 });
    expect(made.sessions.map((s) => s.start)).toEqual([iso(first), iso(later)]);
    expect(made).toMatchObject({
      seats: 3,
      seatsTaken: 0,
      waitlist: 0,
      status: 'scheduled',
      you: { status: null },
    });
    const listed = await get(t, `/api/classes?tutorId=${teacher.id}`);
    expect(((await listed.json()) as { classes: ClassView[] }).classes.map((c) => c.id)).toEqual([made.id]);
    const signedOut = await view(made.id);
    expect(signedOut.you).toBeNull();
  });

  it('refuses bad input with 400 naming the field', async () => {
    const teacher = await tutor();
    const start = dayAt(nextDay(), '10:00');
    const cases: [Record<string, unknown>, string][] = [
      [{ seats: 6 }, 'seats'],
      [{ seats: 1 }, 'seats'],
      [{ seats: 3, minStudents: 4 }, 'minStudents'],
      [{ priceCents: -1 }, 'priceCents'],
      [{ priceCents: 12.5 }, 'priceCents'],
      [{ sessions: [iso(start), iso(start + 30 * 60_000)] }, 'sessions.1'],
      [{ sessions: Array.from({ length: 13 }, (_, i) => iso(start + i * 24 * HOUR)) }, 'sessions'],
      [{ sessions: [iso(Date.now() - HOUR)] }, 'sessions.0'],
      [{ language: 'German' }, 'language'],
      [{ minutes: 45 }, 'minutes'],
      [{ title: '' }, 'title'],
    ];
    for (const [extra, field] of cases) {
      const res = await send(t, 'POST', '/api/classes', classBody([start], extra), teacher.jar);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      const body = (await res.json()) as { message: string; field?: string };
      expect(body.field, JSON.stringify(body)).toBe(field);
      expect(body.message.length).toBeGreaterThan(5);
    }
  });

  it('is for verified, published tutors only', async () => {
    const start = dayAt(nextDay(), '10:00');
    const learner = await student();
    expect((await send(t, 'POST', '/api/classes', classBody([start]), learner.jar)).status).toBe(403);
    const unpublished = await person('tutor');
    const res = await send(t, 'POST', '/api/classes', classBody([start]), unpublished.jar);
    expect(res.status).toBe(403);
  });

  it("keeps the tutor's time: no class over a lesson or a class, no lesson over a class", async () => {
    const teacher = await tutor();
    const d = nextDay();
    const learner = await student(10_000);
    const lesson = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: teacher.id, start: iso(dayAt(d, '10:00')), minutes: 60, subject: 'Algebra' },
      learner.jar,
    );
    expect(lesson.status, await lesson.clone().text()).toBe(201);
    const over = await send(t, 'POST', '/api/classes', classBody([dayAt(d, '10:30')]), teacher.jar);
    expect(over.status).toBe(409);
    expect((await over.json()).code).toBe('SLOT_UNAVAILABLE');
    // Outside the weekly hours is the tutor's own plan, and allowed.
    await createClass(teacher, [dayAt(d, '21:00')]);
    const clash = await send(t, 'POST', '/api/classes', classBody([dayAt(d, '21:30')]), teacher.jar);
    expect(clash.status).toBe(409);
    await createClass(teacher, [dayAt(d, '14:00')]);
    const slots = await get(
      t,
      `/api/tutors/${teacher.id}/slots?from=${iso(dayAt(d, '13:00'))}&to=${iso(dayAt(d, '16:00'))}&minutes=60`,
    );
    const starts = ((await slots.json()) as { slots: { start: string }[] }).slots.map((s) => s.start);
    expect(starts).not.toContain(iso(dayAt(d, '14:00')));
    expect(starts).toContain(iso(dayAt(d, '15:00')));
    const booked = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: teacher.id, start: iso(dayAt(d, '14:30')), minutes: 60, subject: 'Algebra' },
      learner.jar,
    );
    expect(booked.status).toBe(409);
    expect((await booked.json()).code).toBe('SLOT_UNAVAILABLE');
  });
});

describe('enrolling and the waitlist', () => {
  it('holds every session ahead, or refuses with what is missing and holds nothing', async () => {
    const teacher = await tutor();
    const d = nextDay();
    const made = await createClass(teacher, [
      dayAt(d, '09:00'),
      dayAt(d + 7, '09:00'),
      dayAt(d + 14, '09:00'),
    ]);
    const poor = await student(PRICE);
    const refused = await enrol(poor, made.id);
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { code: string; needed: { amountCents: number } };
    expect(body.code).toBe('INSUFFICIENT_BALANCE');
    expect(body.needed.amountCents).toBe(2 * PRICE);
    expect(await balance(poor)).toBe(PRICE);

    const rich = await student(10_000);
    const key = crypto.randomUUID();
    const first = await enrol(rich, made.id, key);
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ status: 'enrolled', position: null });
    expect(await balance(rich)).toBe(10_000 - 3 * PRICE);
    const retry = await enrol(rich, made.id, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const again = await enrol(rich, made.id);
    expect(again.status).toBe(200);
    expect(await balance(rich)).toBe(10_000 - 3 * PRICE);
    expect((await view(made.id, rich)).you).toEqual({ status: 'enrolled', position: null });
    const mail = await mailbox.waitFor((m) => m.to === rich.email && m.subject.includes('You are enrolled'));
    expect(mail.calendar?.match(/BEGIN:VEVENT/g)).toHaveLength(3);
    const seats = await get(t, '/api/lessons', rich.jar);
    const lessons = (
      (await seats.json()) as { lessons: { classSession: { classId: string } | null; status: string }[] }
    ).lessons;
    expect(lessons.filter((l) => l.classSession?.classId === made.id)).toHaveLength(3);
    await financeTotals(t, admin);
  });

  it('waitlists in order when full; a freed seat goes to the first who can pay, the others keep their place', async () => {
    const teacher = await tutor();
    const made = await createClass(teacher, [dayAt(nextDay(), '11:00')], { seats: 2 });
    const [a, b] = [await student(5_000), await student(5_000)];
    const [broke, c, d] = [await student(0, 'Broke Waiter'), await student(5_000), await student(5_000)];
    for (const who of [a, b]) expect((await enrol(who, made.id)).status).toBe(201);
    const positions = [];
    for (const who of [broke, c, d]) positions.push(await (await enrol(who, made.id)).json());
    expect(positions).toEqual([
      { status: 'waitlisted', position: 1 },
      { status: 'waitlisted', position: 2 },
      { status: 'waitlisted', position: 3 },
    ]);
    expect(await balance(c)).toBe(5_000);
    expect((await view(made.id)).waitlist).toBe(3);

    const left = await send(t, 'POST', `/api/classes/${made.id}/leave`, {}, a.jar);
    expect(left.status).toBe(200);
    expect(await balance(a)).toBe(5_000);
    expect((await view(made.id, c)).you).toEqual({ status: 'enrolled', position: null });
    expect(await balance(c)).toBe(5_000 - PRICE);
    expect((await view(made.id, broke)).you).toEqual({ status: 'waitlisted', position: 1 });
    expect((await view(made.id, d)).you).toEqual({ status: 'waitlisted', position: 2 });
    await mailbox.waitFor((m) => m.to === broke.email && m.subject.includes('A seat is free'));
    await mailbox.waitFor((m) => m.to === c.email && m.text.includes('first place on its waitlist'));

    // Leaving the waitlist closes the gap.
    expect((await send(t, 'POST', `/api/classes/${made.id}/leave`, {}, broke.jar)).status).toBe(200);
    expect((await view(made.id, d)).you).toEqual({ status: 'waitlisted', position: 1 });
    await financeTotals(t, admin);
  });

  it("leaving keeps the next session's fee inside its window, releases the rest, and pays the fee to the tutor", async () => {
    const teacher = await tutor();
    const soon = Date.now() + 3 * HOUR;
    const made = await createClass(teacher, [soon, soon + 7 * 24 * HOUR]);
    const who = await student(10_000);
    expect((await enrol(who, made.id)).status).toBe(201);
    // Enrolled an hour ago: past the 15 minutes' grace.
    await t.database.db
      .updateTable('lessons')
      .set({ created_at: new Date(Date.now() - HOUR) })
      .where('student_id', '=', who.id)
      .execute();
    expect((await send(t, 'POST', `/api/classes/${made.id}/leave`, {}, who.jar)).status).toBe(200);
    expect(await balance(who)).toBe(10_000 - PRICE);
    const mail = await mailbox.waitFor((m) => m.to === who.email && m.subject.includes('You left'));
    expect(mail.text).toContain('fee');
    // Kept until the session has taken place, then paid with it, less the school's 15 %.
    const payable = async () =>
      ((await walletOf(t, teacher)) as { payable: { amountCents: number } }).payable.amountCents;
    expect(await payable()).toBe(0);
    expect((await runClassJobs(lessonJobDeps(t), soon + 2 * HOUR)).feesPaid).toBe(1);
    expect(await payable()).toBe(PRICE * 0.85);
    expect((await runClassJobs(lessonJobDeps(t), soon + 3 * HOUR)).feesPaid).toBe(0);
    await financeTotals(t, admin);
  });

  it('refuses a seat lesson moved or cancelled on its own', async () => {
    const teacher = await tutor();
    const made = await createClass(teacher, [dayAt(nextDay(), '12:00')]);
    const who = await student(5_000);
    await enrol(who, made.id);
    const lessons = (await (await get(t, '/api/lessons', who.jar)).json()) as {
      lessons: { id: string; classSession: { classId: string } | null }[];
    };
    const seat = lessons.lessons.find((l) => l.classSession?.classId === made.id);
    const res = await send(t, 'POST', `/api/lessons/${seat?.id}/cancel`, {}, who.jar);
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('CLASS_SEAT');
  });

  it('of twelve students enrolling at once in five seats, five are in and seven wait in order 1 to 7', async () => {
    const teacher = await tutor();
    const made = await createClass(teacher, [dayAt(nextDay(), '15:00'), dayAt(day + 7, '15:00')]);
    const students: Person[] = [];
    for (let i = 0; i < 12; i++) students.push(await student(10_000));
    const answers = await Promise.all(students.map(async (who) => (await enrol(who, made.id)).json()));
    const enrolled = answers.filter((a) => a.status === 'enrolled');
    const waiting = answers.filter((a) => a.status === 'waitlisted').map((a) => a.position);
    expect(enrolled).toHaveLength(5);
    expect(waiting.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const balances = await Promise.all(students.map(balance));
    expect(balances.filter((b) => b === 10_000 - 2 * PRICE)).toHaveLength(5);
    expect(balances.filter((b) => b === 10_000)).toHaveLength(7);
    expect((await view(made.id)).seatsTaken).toBe(5);
    await financeTotals(t, admin);
  });

  it('of four classes asked for at once on a balance that pays for one, one is taken; the others are told what is missing', async () => {
    const teachers = [await tutor(), await tutor(), await tutor(), await tutor()];
    const d = nextDay();
    const classes = await Promise.all(
      teachers.map((teacher, i) => createClass(teacher, [dayAt(d, `1${i}:00`), dayAt(d + 7, `1${i}:00`)])),
    );
    const learner = await student(2 * PRICE + 500);
    const answers = await Promise.all(
      classes.map(async (made) => {
        const res = await enrol(learner, made.id);
        return { status: res.status, body: await res.json() };
      }),
    );
    expect(answers.filter((a) => a.status === 201)).toEqual([
      { status: 201, body: { status: 'enrolled', position: null } },
    ]);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(3);
    for (const { body } of refused)
      expect(body).toMatchObject({
        code: 'INSUFFICIENT_BALANCE',
        needed: { amountCents: 2 * PRICE - 500, currency: 'USD' },
      });
    expect(await balance(learner)).toBe(500);
    const seats = await Promise.all(classes.map(async (made) => (await view(made.id)).seatsTaken));
    expect(seats.sort()).toEqual([0, 0, 0, 1]);
    await financeTotals(t, admin);
  });
});

describe('deciding, cancelling and removing', () => {
  it('cancels a class short of its minimum a day before, releasing holds and telling the waitlist too', async () => {
    const teacher = await tutor();
    const start = dayAt(nextDay() + 3, '16:00');
    const short = await createClass(teacher, [start], { seats: 2, minStudents: 2 });
    const full = await createClass(teacher, [start + 2 * HOUR], { seats: 2, minStudents: 1 });
    const who = await student(5_000);
    await enrol(who, short.id);
    await enrol(who, full.id);
    const decided = await runClassJobs(lessonJobDeps(t), start - 21 * HOUR);
    expect(decided.cancelled).toBeGreaterThanOrEqual(1);
    expect((await view(short.id)).status).toBe('cancelled');
    expect((await view(full.id)).status).toBe('held');
    expect(await balance(who)).toBe(5_000 - PRICE);
    await mailbox.waitFor((m) => m.to === who.email && m.text.includes('did not reach its minimum of 2'));
    // Decided once: a later run changes nothing.
    const again = await runClassJobs(lessonJobDeps(t), start - 20 * HOUR);
    expect(again).toMatchObject({ held: 0, cancelled: 0 });
    await financeTotals(t, admin);
  });

  it('holds a class made less than a day before it starts', async () => {
    const teacher = await tutor();
    const made = await createClass(teacher, [Date.now() + 5 * HOUR], { minStudents: 3 });
    expect(made.status).toBe('held');
  });

  it('the tutor cancels with a reason; an admin removes a student and the waitlist moves up', async () => {
    const teacher = await tutor();
    const made = await createClass(teacher, [dayAt(nextDay(), '18:00')], { seats: 2 });
    const [a, b, c] = [await student(5_000), await student(5_000), await student(5_000)];
    for (const who of [a, b, c]) await enrol(who, made.id);
    const outsider = await tutor('Other Tutor');
    expect(
      (await send(t, 'POST', `/api/classes/${made.id}/cancel`, { reason: 'x' }, outsider.jar)).status,
    ).toBe(404);
    expect((await send(t, 'POST', `/api/classes/${made.id}/cancel`, {}, teacher.jar)).status).toBe(400);

    const removed = await t.request(`/api/admin/classes/${made.id}/students/${a.id}`, {
      method: 'DELETE',
      headers: { cookie: admin.jar.header(), 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'Asked to be moved to the evening group' }),
    });
    expect(removed.status, await removed.clone().text()).toBe(200);
    expect(await balance(a)).toBe(5_000);
    expect((await view(made.id, c)).you).toEqual({ status: 'enrolled', position: null });
    await mailbox.waitFor((m) => m.to === a.email && m.text.includes('evening group'));
    const audit = await (await get(t, '/api/admin/audit', admin.jar)).json();
    expect(JSON.stringify(audit)).toContain('class.student_removed');

    const cancelled = await send(
      t,
      'POST',
      `/api/classes/${made.id}/cancel`,
      { reason: 'I am ill' },
      teacher.jar,
    );
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).status).toBe('cancelled');
    expect(await balance(b)).toBe(5_000);
    expect(await balance(c)).toBe(5_000);
    await mailbox.waitFor(
      (m) => m.to === b.email && m.subject.includes('Class cancelled') && m.text.includes('I am ill'),
    );
    await financeTotals(t, admin);
  });

  it("a suspended student's seat goes to the waitlist; a suspended tutor's classes are called off", async () => {
    const teacher = await tutor();
    const made = await createClass(teacher, [dayAt(nextDay(), '08:00')], { seats: 2 });
    const [a, b, c] = [await student(5_000), await student(5_000), await student(5_000)];
    for (const who of [a, b, c]) await enrol(who, made.id);
    const suspend = (who: Person) =>
      send(t, 'POST', `/api/admin/users/${who.id}/suspend`, { reason: 'Abuse' }, admin.jar);
    expect((await suspend(a)).status).toBe(200);
    expect(await balanceOf(t.database.db, accounts.balance(a.id).id)).toBe(5_000);
    expect((await view(made.id, c)).you).toEqual({ status: 'enrolled', position: null });
    expect((await suspend(teacher)).status).toBe(200);
    expect((await view(made.id)).status).toBe('cancelled');
    expect([await balance(b), await balance(c)]).toEqual([5_000, 5_000]);
    await financeTotals(t, admin);
  });

  it('settles each seat after its session, after which its student may review the tutor', async () => {
    const teacher = await tutor();
    const start = dayAt(nextDay(), '19:00');
    const made = await createClass(teacher, [start]);
    const [came, absent] = [await student(5_000), await student(5_000)];
    await enrol(came, made.id);
    await enrol(absent, made.id);
    const result = await runLessonJobs(lessonJobDeps(t), start + 2 * HOUR);
    expect(result.completed).toBeGreaterThanOrEqual(2);
    const earned = (await walletOf(t, teacher)) as { payable: { amountCents: number } };
    expect(earned.payable.amountCents).toBe(2 * PRICE * 0.85);
    const seats = (await (await get(t, '/api/lessons', came.jar)).json()) as {
      lessons: { status: string; payment: { status: string }; classSession: { classId: string } | null }[];
    };
    const seat = seats.lessons.find((l) => l.classSession?.classId === made.id);
    expect(seat).toMatchObject({ status: 'completed', payment: { status: 'settled' } });
    // A session attended is a lesson that took place: its student may review the tutor.
    const review = { rating: 5, text: 'Clear explanations, and a good pace for all of us.' };
    expect((await send(t, 'PUT', `/api/tutors/${teacher.id}/review`, review, came.jar)).status).toBe(201);
    await financeTotals(t, admin);
  });
});
