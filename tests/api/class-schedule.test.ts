/**
 * Group classes around the schedule, on both stores: the tutor's schedule, dashboard and calendar
 * feed show each class session once (with the seats held, a session nobody joined yet too) rather
 * than one entry per seat, while a student's seat reads as its class; the tutor is reminded once
 * per session, each student per seat, even when two servers' jobs race; the data export holds the
 * classes taught and the places taken.
 */
import { strFromU8, unzipSync } from 'fflate';
import ICAL from 'ical.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runReminders } from '../../src/server/lessons/reminders';
import { get, send } from '../support/accounts';
import { type Person, person, setUpApiTest, t } from '../support/api-app';
import { dayAt } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp } from '../support/money';
import { TEST_APP_URL } from '../support/test-app';

setUpApiTest({ env: { PAYMENTS: 'on', COMMISSION_PERCENT: '15' } });
afterEach(() => {
  vi.useRealTimers();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PRICE = 1500;
const iso = (ms: number) => new Date(ms).toISOString();

let admin: Person;
beforeAll(async () => {
  admin = await makeAdmin(t, await person('student', 'Schedule Admin'));
});
afterAll(async () => {
  await financeTotals(t, admin);
});

interface ClassView {
  id: string;
  title: string;
  sessions: { id: string; start: string }[];
}

interface TaughtSession {
  id: string;
  classId: string;
  title: string;
  start: string;
  status: string;
  students: number;
  seats: number;
}

async function createClass(tutor: Person, title: string, sessions: number[], seats = 5) {
  const res = await send(
    t,
    'POST',
    '/api/classes',
    {
      title,
      subject: 'Algebra',
      language: 'English',
      description: 'Past papers, together.',
      minutes: 60,
      seats,
      minStudents: 1,
      priceCents: PRICE,
      sessions: sessions.map(iso),
    },
    tutor.jar,
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { class: ClassView }).class;
}

async function student(name?: string) {
  const who = await person('student', name);
  await topUp(t, who, admin, 20 * PRICE);
  return who;
}

async function enrol(who: Person, classId: string) {
  const res = await send(t, 'POST', `/api/classes/${classId}/enrol`, {}, who.jar);
  expect(res.status, await res.clone().text()).toBe(201);
  expect(await res.json()).toMatchObject({ status: 'enrolled' });
}

async function taught(tutor: Person, from: number, to: number): Promise<TaughtSession[]> {
  const res = await get(t, `/api/schedule/class-sessions?from=${iso(from)}&to=${iso(to)}`, tutor.jar);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { sessions: TaughtSession[] }).sessions;
}

describe("the tutor's schedule", () => {
  it('lists each session once with the seats held, sessions nobody joined too; a student sees their seat as the class', async () => {
    const tutor = await publishTutor(t, await person('tutor', 'Tara Teaches'));
    const first = dayAt(5, '17:00');
    const course = await createClass(tutor, 'Exam prep circle', [first, first + 7 * 24 * HOUR]);
    const empty = await createClass(tutor, 'Quiet reading', [dayAt(6, '09:00')], 3);
    const [ana, ben, cho] = [await student('Ana Seat'), await student('Ben Seat'), await student('Cho Seat')];
    for (const who of [ana, ben, cho]) await enrol(who, course.id);

    const sessions = await taught(tutor, dayAt(4, '00:00'), dayAt(20, '00:00'));
    expect(sessions.map((s) => [s.title, s.start, s.students, s.seats])).toEqual([
      ['Exam prep circle', iso(first), 3, 5],
      ['Quiet reading', iso(dayAt(6, '09:00')), 0, 3],
      ['Exam prep circle', iso(first + 7 * 24 * HOUR), 3, 5],
    ]);
    expect(sessions[0]).toMatchObject({
      id: course.sessions[0]?.id,
      classId: course.id,
      status: 'scheduled',
    });
    expect(sessions[1]?.classId).toBe(empty.id);
    // Outside the range, nothing; a student teaches nothing; a range too long is refused.
    expect(await taught(tutor, dayAt(30, '00:00'), dayAt(31, '00:00'))).toEqual([]);
    expect(await taught(ana, dayAt(4, '00:00'), dayAt(20, '00:00'))).toEqual([]);
    const tooLong = await get(
      t,
      `/api/schedule/class-sessions?from=${iso(first)}&to=${iso(first + 401 * 24 * HOUR)}`,
      tutor.jar,
    );
    expect(tooLong.status).toBe(400);
    expect((await get(t, '/api/schedule/class-sessions?from=yesterday', tutor.jar)).status).toBe(400);
    expect((await get(t, '/api/schedule/class-sessions')).status).toBe(401);

    // The student's lessons hold their seats, named after the class.
    const lessons = await get(
      t,
      `/api/lessons?from=${iso(dayAt(4, '00:00'))}&to=${iso(dayAt(20, '00:00'))}`,
      ana.jar,
    );
    const seats = ((await lessons.json()) as { lessons: { classSession: unknown }[] }).lessons;
    expect(seats.map((lesson) => lesson.classSession)).toEqual(
      course.sessions.map((s) => ({ classId: course.id, sessionId: s.id, title: 'Exam prep circle' })),
    );

    // Someone leaves: the count follows; a cancelled class leaves the schedule.
    expect((await send(t, 'POST', `/api/classes/${course.id}/leave`, {}, cho.jar)).status).toBe(200);
    expect((await taught(tutor, dayAt(4, '00:00'), dayAt(20, '00:00'))).map((s) => s.students)).toEqual([
      2, 0, 2,
    ]);
    const cancelled = await send(t, 'POST', `/api/classes/${empty.id}/cancel`, { reason: 'Ill' }, tutor.jar);
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect((await taught(tutor, dayAt(4, '00:00'), dayAt(20, '00:00'))).map((s) => s.title)).toEqual([
      'Exam prep circle',
      'Exam prep circle',
    ]);
  });
});

/** A zone where it is now between 04:00 and 20:00, so that a session in two hours is still today. */
function daytimeZone(): string {
  const zones = ['Europe/Madrid', 'Asia/Tokyo', 'America/Los_Angeles', 'Asia/Kolkata', 'America/Sao_Paulo'];
  const hourIn = (zone: string) =>
    Number(
      new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: zone }).format(
        new Date(),
      ),
    );
  return zones.find((zone) => hourIn(zone) >= 4 && hourIn(zone) < 20) ?? 'Europe/Madrid';
}

describe('the dashboards', () => {
  it("show the tutor today's class session once, and the student their seat as the class", async () => {
    const tutor = await publishTutor(t, await person('tutor', 'Dana Dashboard'));
    const zone = daytimeZone();
    expect((await send(t, 'PATCH', '/api/profile/details', { timeZone: zone }, tutor.jar)).status).toBe(200);
    const start = Math.ceil((Date.now() + 2 * HOUR) / (5 * MINUTE)) * 5 * MINUTE;
    const made = await createClass(tutor, 'Evening conversation', [start]);
    const [eve, finn] = [await student('Eve Seat'), await student('Finn Seat')];
    for (const who of [eve, finn]) await enrol(who, made.id);

    const board = await (await get(t, '/api/dashboard', tutor.jar)).json();
    expect(board.today).toEqual([
      {
        id: made.sessions[0]?.id,
        start: iso(start),
        end: iso(start + HOUR),
        minutes: 60,
        subject: 'Algebra',
        status: 'confirmed',
        with: null,
        classSession: {
          classId: made.id,
          sessionId: made.sessions[0]?.id,
          title: 'Evening conversation',
          students: 2,
          seats: 5,
        },
      },
    ]);

    const seen = await (await get(t, '/api/dashboard', eve.jar)).json();
    expect(seen.upcoming).toHaveLength(1);
    expect(seen.upcoming[0]).toMatchObject({
      with: { id: tutor.id, displayName: 'Dana Dashboard' },
      classSession: { classId: made.id, title: 'Evening conversation', students: 2, seats: 5 },
    });
  });
});

describe('the calendar feed', () => {
  it("holds one event per session for the tutor, and the class's name on a student's seat", async () => {
    const tutor = await publishTutor(t, await person('tutor', 'Gil Calendar'));
    const start = dayAt(8, '18:00');
    const made = await createClass(tutor, 'Theory club', [start]);
    const [hana, ivo] = [await student('Hana Seat'), await student('Ivo Seat')];
    for (const who of [hana, ivo]) await enrol(who, made.id);

    const eventsOf = async (who: Person) => {
      const feed = await (await send(t, 'POST', '/api/calendar-feed', {}, who.jar)).json();
      const res = await t.request(new URL(feed.url).pathname);
      expect(res.status).toBe(200);
      return new ICAL.Component(ICAL.parse(await res.text())).getAllSubcomponents('vevent').map((event) => ({
        uid: event.getFirstPropertyValue('uid'),
        summary: event.getFirstPropertyValue('summary'),
        status: event.getFirstPropertyValue('status'),
      }));
    };
    const host = new URL(TEST_APP_URL).hostname;
    expect(await eventsOf(tutor)).toEqual([
      {
        uid: `class-session-${made.sessions[0]?.id}@${host}`,
        summary: 'Theory club (class: 2 of 5 students)',
        status: 'CONFIRMED',
      },
    ]);
    const [seat] = await eventsOf(hana);
    expect(seat).toMatchObject({ summary: 'Theory club (class with Gil Calendar)', status: 'CONFIRMED' });
    expect(seat?.uid).toMatch(new RegExp(`^lesson-[\\w-]+@${host}$`));

    // Called off: the session stays in the tutor's feed as cancelled, so their calendar drops it.
    expect(
      (await send(t, 'POST', `/api/classes/${made.id}/cancel`, { reason: 'Ill' }, tutor.jar)).status,
    ).toBe(200);
    expect((await eventsOf(tutor)).map((event) => event.status)).toEqual(['CANCELLED']);
  });
});

const reminderDeps = () => ({
  db: t.database.db,
  mailer: t.mailer,
  mail: { appUrl: TEST_APP_URL, mailFrom: t.config.mailFrom },
});

/** Sets the clock, then runs the job as two servers would, at once; answers how many were sent. */
async function racingRuns(now: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  const runs = await Promise.all([runReminders(reminderDeps()), runReminders(reminderDeps())]);
  return runs.reduce((sum, run) => sum + run.sent, 0);
}

function remindersTo(address: string) {
  return t.database.db
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('recipient', '=', address.toLowerCase())
    .where('subject', 'like', 'Reminder:%')
    .orderBy('id')
    .execute();
}

describe('reminders', () => {
  it('reach each student per seat and the tutor once per session, even when jobs race', async () => {
    const tutor = await publishTutor(t, await person('tutor', 'Kai Reminded'));
    const start = dayAt(3, '16:00');
    const made = await createClass(tutor, 'Chord charts', [start]);
    const students = [await student('Lia Seat'), await student('Max Seat'), await student('Noa Seat')];
    for (const who of students) await enrol(who, made.id);
    const sessionId = made.sessions[0]?.id ?? '';

    // The day reminder: three students and the tutor, once each.
    expect(await racingRuns(start - 24 * HOUR + MINUTE)).toBe(4);
    expect(await racingRuns(start - 23 * HOUR)).toBe(0);
    // The hour reminder likewise.
    expect(await racingRuns(start - HOUR + MINUTE)).toBe(4);
    expect(await racingRuns(start - 30 * MINUTE)).toBe(0);

    const toTutor = await remindersTo(tutor.email);
    expect(toTutor.map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/^Reminder: your class Chord charts tomorrow at /),
      expect.stringMatching(/^Reminder: your class Chord charts today at /),
    ]);
    expect(toTutor[0]?.text_body).toContain('3 students hold a seat in it.');
    expect(toTutor[0]?.text_body).toContain(`${TEST_APP_URL}/classes/${made.id}/sessions/${sessionId}/room`);
    for (const who of students) {
      const mails = await remindersTo(who.email);
      expect(mails.map((mail) => mail.subject)).toEqual([
        expect.stringMatching(/^Reminder: Chord charts with Kai Reminded tomorrow at /),
        expect.stringMatching(/^Reminder: Chord charts with Kai Reminded today at /),
      ]);
      expect(mails[1]?.text_body).toContain('Your class Chord charts with Kai Reminded starts soon');
      expect(mails[1]?.text_body).not.toContain('hold a seat');
    }
  });

  it('do not remind the tutor again when the seat that carried it is given up', async () => {
    const tutor = await publishTutor(t, await person('tutor', 'Ola Reminded'));
    const start = dayAt(3, '12:00');
    const made = await createClass(tutor, 'Grammar drills', [start]);
    const [pia, quin] = [await student('Pia Seat'), await student('Quin Seat')];
    for (const who of [pia, quin]) await enrol(who, made.id);
    expect(await racingRuns(start - 24 * HOUR + MINUTE)).toBe(3);
    vi.useRealTimers();
    // Both leave in turn (so the seat that carried the tutor's reminder is given up whichever it
    // was), and a third student takes a seat while the day reminder is still due.
    expect((await send(t, 'POST', `/api/classes/${made.id}/leave`, {}, pia.jar)).status).toBe(200);
    const rae = await student('Rae Seat');
    await enrol(rae, made.id);
    expect((await send(t, 'POST', `/api/classes/${made.id}/leave`, {}, quin.jar)).status).toBe(200);
    // Rae's own day reminder goes out; the tutor's does not again.
    expect(await racingRuns(start - 23 * HOUR)).toBe(1);
    expect(await remindersTo(rae.email)).toHaveLength(1);
    expect(await remindersTo(tutor.email)).toHaveLength(1);
  });
});

describe('the data export', () => {
  it("holds the classes a tutor teaches and a student's places in classes", async () => {
    const tutor = await publishTutor(t, await person('tutor', 'Sol Exported'));
    const made = await createClass(tutor, 'Export club', [dayAt(9, '10:00'), dayAt(16, '10:00')]);
    const una = await student('Una Exported');
    await enrol(una, made.id);

    const filesOf = async (who: Person) => {
      const res = await get(t, '/api/account/export', who.jar);
      expect(res.status).toBe(200);
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
      return (name: string) => JSON.parse(strFromU8(files[name] ?? new Uint8Array()));
    };
    const tutorFiles = await filesOf(tutor);
    const taughtClasses = tutorFiles('classes.json');
    expect(taughtClasses.enrolments).toEqual([]);
    expect(taughtClasses.taught).toHaveLength(1);
    expect(taughtClasses.taught[0]).toMatchObject({
      id: made.id,
      title: 'Export club',
      seats: 5,
      seatsTaken: 1,
    });
    expect(taughtClasses.taught[0].sessions.map((s: { id: string }) => s.id)).toEqual(
      made.sessions.map((s) => s.id),
    );
    expect(JSON.stringify(taughtClasses)).not.toContain(una.email);

    const studentFiles = await filesOf(una);
    const places = studentFiles('classes.json');
    expect(places.taught).toEqual([]);
    expect(places.enrolments).toEqual([
      expect.objectContaining({
        classId: made.id,
        title: 'Export club',
        tutorName: 'Sol Exported',
        status: 'enrolled',
      }),
    ]);
    const seats = studentFiles('lessons.json');
    expect(seats.map((lesson: { classSessionId: string }) => lesson.classSessionId)).toEqual(
      made.sessions.map((s) => s.id),
    );
  });
});
