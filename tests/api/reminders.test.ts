/**
 * Lesson reminders over the API and the job: both people of a confirmed lesson are mailed a day
 * and an hour before it, once, even when two servers' jobs race and after a restart; never for a
 * lesson no longer confirmed; at a moved lesson's new time only; only the hour reminder for a
 * lesson booked 3 hours ahead; not the reminder a person turned off on their profile. Each mail is
 * in its reader's zone and names the other person, the subject and the lesson's room.
 */
import { Temporal } from 'temporal-polyfill';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runReminders } from '../../src/server/lessons/reminders';
import { type CookieJar, get, send, verifiedUser } from '../support/accounts';
import { mailbox, setUpApiTest, t } from '../support/api-app';
import { openAvailability } from '../support/lessons';
import { TEST_APP_URL } from '../support/test-app';

setUpApiTest();
afterEach(() => {
  vi.useRealTimers();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const TUTOR_ZONE = 'Europe/Madrid';
const STUDENT_ZONE = 'America/New_York';
const iso = (ms: number) => new Date(ms).toISOString();

/** The instant of `time` on the Madrid date `days` from today. */
function at(days: number, time: string): number {
  return Temporal.Now.zonedDateTimeISO(TUTOR_ZONE)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: TUTOR_ZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
}

interface Person {
  jar: CookieJar;
  email: string;
  id: string;
  name: string;
}

let people = 0;
async function person(role: 'tutor' | 'student', zone: string): Promise<Person> {
  people += 1;
  const name = `${role === 'tutor' ? 'Tutor' : 'Student'} ${people} Reminded`;
  const account = await verifiedUser(t, mailbox, { role, name });
  const id = (await (await get(t, '/api/session', account.jar)).json()).user.id as string;
  const saved = await send(t, 'PATCH', '/api/profile/details', { timeZone: zone }, account.jar);
  expect(saved.status).toBe(200);
  return { jar: account.jar, email: account.email.toLowerCase(), id, name };
}

/** A published tutor in Madrid, bookable at once every day 08:00-20:00, with no notice needed. */
async function tutor(): Promise<Person> {
  const who = await person('tutor', TUTOR_ZONE);
  const profile = await send(
    t,
    'PATCH',
    '/api/profile/details',
    {
      headline: 'Algebra made calm',
      about: 'Step by step, at your pace.',
      subjects: ['Algebra'],
      hourlyRate: 40,
      languages: ['English'],
    },
    who.jar,
  );
  expect(profile.status).toBe(200);
  const res = await send(t, 'PUT', '/api/availability', openAvailability, who.jar);
  expect(res.status, await res.clone().text()).toBe(200);
  return who;
}

async function book(student: Person, tutorId: string, start: number): Promise<string> {
  const res = await send(
    t,
    'POST',
    '/api/lessons',
    { tutorId, start: iso(start), subject: 'Algebra', minutes: 60 },
    student.jar,
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).id as string;
}

const deps = () => ({
  db: t.database.db,
  mailer: t.mailer,
  mail: { appUrl: TEST_APP_URL, mailFrom: t.config.mailFrom },
});

/** Sets the clock, then runs the job as two servers would, at once; answers how many each sent. */
async function racingRuns(now: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  const runs = await Promise.all([runReminders(deps()), runReminders(deps())]);
  return runs.map((run) => run.sent);
}

/** The reminders queued for an address (sent or not), oldest first. */
function remindersTo(address: string) {
  return t.database.db
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body', 'html_body'])
    .where('recipient', '=', address)
    .where('subject', 'like', 'Reminder:%')
    .orderBy('id')
    .execute();
}

/** The reminders the database holds for a lesson, as "user kind start". */
async function remindersOf(lessonId: string) {
  const rows = await t.database.db
    .selectFrom('lesson_reminders')
    .select(['user_id', 'kind', 'starts_at'])
    .where('lesson_id', '=', lessonId)
    .execute();
  return rows.map((row) => `${row.user_id} ${row.kind} ${row.starts_at.toISOString()}`).sort();
}

describe('lesson reminders', () => {
  it('mails both people a day and an hour before, once, even when jobs race and after a restart', async () => {
    const who = await tutor();
    const student = await person('student', STUDENT_ZONE);
    const start = at(4, '10:00');
    const lessonId = await book(student, who.id, start);

    // Two servers' jobs at the day reminder's moment: each reminder is written, and mailed, once.
    expect((await racingRuns(start - 24 * HOUR + MINUTE)).reduce((a, b) => a + b)).toBe(2);
    // A restart (another pass) finds nothing left to send.
    expect((await runReminders(deps())).sent).toBe(0);
    expect(await remindersTo(student.email)).toHaveLength(1);
    expect(await remindersTo(who.email)).toHaveLength(1);

    // Between the two moments nothing more is due.
    expect((await racingRuns(start - 2 * HOUR)).reduce((a, b) => a + b)).toBe(0);

    expect((await racingRuns(start - HOUR + MINUTE)).reduce((a, b) => a + b)).toBe(2);
    expect((await runReminders(deps())).sent).toBe(0);
    // Once it has started, nothing is sent late.
    expect((await racingRuns(start + MINUTE)).reduce((a, b) => a + b)).toBe(0);

    const [studentDay, studentHour] = await remindersTo(student.email);
    const [tutorDay, tutorHour] = await remindersTo(who.email);
    // Each in the reader's zone: 10:00 in Madrid is 04:00 in New York (or 05:00 in the weeks the
    // two zones change their clocks apart).
    const newYork = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(STUDENT_ZONE);
    const studentClock = `${String(newYork.hour).padStart(2, '0')}:00`;
    expect(studentDay?.subject).toBe(
      `Reminder: Algebra with ${who.name} tomorrow at ${studentClock} (Tutorlane)`,
    );
    expect(studentHour?.subject).toBe(
      `Reminder: Algebra with ${who.name} today at ${studentClock} (Tutorlane)`,
    );
    expect(tutorDay?.subject).toBe(`Reminder: Algebra with ${student.name} tomorrow at 10:00 (Tutorlane)`);
    expect(tutorHour?.subject).toBe(`Reminder: Algebra with ${student.name} today at 10:00 (Tutorlane)`);
    const room = `${TEST_APP_URL}/lessons/${lessonId}/room`;
    for (const mail of [studentDay, studentHour]) {
      expect(mail?.text_body).toContain(`Your Algebra lesson with ${who.name}`);
      expect(mail?.text_body).toContain(`${studentClock}–`);
      expect(mail?.text_body).toContain('Eastern Time (New York)');
      expect(mail?.text_body).toContain(room);
      expect(mail?.html_body).toContain(room);
    }
    for (const mail of [tutorDay, tutorHour]) {
      expect(mail?.text_body).toContain(`Your Algebra lesson with ${student.name}`);
      expect(mail?.text_body).toContain('10:00–11:00');
      expect(mail?.text_body).toContain('Central European Time (Madrid)');
      expect(mail?.text_body).toContain(room);
    }
    expect(await remindersOf(lessonId)).toEqual(
      [`${who.id} day`, `${who.id} hour`, `${student.id} day`, `${student.id} hour`]
        .map((key) => `${key} ${iso(start)}`)
        .sort(),
    );
  });

  it('sends none for a cancelled lesson', async () => {
    const who = await tutor();
    const student = await person('student', STUDENT_ZONE);
    const start = at(4, '15:00');
    const lessonId = await book(student, who.id, start);
    const cancelled = await send(t, 'POST', `/api/lessons/${lessonId}/cancel`, {}, student.jar);
    expect(cancelled.status).toBe(200);
    await racingRuns(start - 24 * HOUR + MINUTE);
    await racingRuns(start - 30 * MINUTE);
    expect(await remindersOf(lessonId)).toEqual([]);
    expect(await remindersTo(student.email)).toEqual([]);
    expect(await remindersTo(who.email)).toEqual([]);
  });

  it('reminds a moved lesson at its new time only', async () => {
    const who = await tutor();
    const student = await person('student', STUDENT_ZONE);
    const first = at(4, '12:00');
    const moved = at(5, '16:00');
    const lessonId = await book(student, who.id, first);
    const res = await send(
      t,
      'POST',
      `/api/lessons/${lessonId}/reschedule`,
      { start: iso(moved) },
      student.jar,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    // The old time's moments pass without a reminder.
    await racingRuns(first - 24 * HOUR + MINUTE);
    await racingRuns(first - 30 * MINUTE);
    expect(await remindersOf(lessonId)).toEqual([]);
    expect((await racingRuns(moved - 24 * HOUR + MINUTE)).reduce((a, b) => a + b)).toBe(2);
    expect((await racingRuns(moved - 30 * MINUTE)).reduce((a, b) => a + b)).toBe(2);
    expect(await remindersOf(lessonId)).toEqual(
      [`${who.id} day`, `${who.id} hour`, `${student.id} day`, `${student.id} hour`]
        .map((key) => `${key} ${iso(moved)}`)
        .sort(),
    );
    expect((await remindersTo(who.email)).map((mail) => mail.subject)).toEqual([
      `Reminder: Algebra with ${student.name} tomorrow at 16:00 (Tutorlane)`,
      `Reminder: Algebra with ${student.name} today at 16:00 (Tutorlane)`,
    ]);
  });

  it('gives a lesson booked 3 hours ahead only the hour reminder', async () => {
    const who = await tutor();
    const student = await person('student', STUDENT_ZONE);
    const start = at(3, '13:00');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start - 3 * HOUR);
    const lessonId = await book(student, who.id, start);
    expect((await racingRuns(start - 3 * HOUR + MINUTE)).reduce((a, b) => a + b)).toBe(0);
    expect((await racingRuns(start - 2 * HOUR)).reduce((a, b) => a + b)).toBe(0);
    expect((await racingRuns(start - HOUR + MINUTE)).reduce((a, b) => a + b)).toBe(2);
    expect((await remindersOf(lessonId)).map((key) => key.split(' ')[1])).toEqual(['hour', 'hour']);
  });

  it('leaves out the reminder a person turned off on their profile', async () => {
    const who = await tutor();
    const student = await person('student', STUDENT_ZONE);
    const initial = await (await get(t, '/api/profile/details', student.jar)).json();
    expect(initial.reminders).toEqual({ dayBefore: true, hourBefore: true });
    const saved = await send(
      t,
      'PATCH',
      '/api/profile/details',
      { reminders: { dayBefore: false } },
      student.jar,
    );
    expect(saved.status).toBe(200);
    expect((await saved.json()).reminders).toEqual({ dayBefore: false, hourBefore: true });
    const tutorSaved = await send(
      t,
      'PATCH',
      '/api/profile/details',
      { reminders: { hourBefore: false } },
      who.jar,
    );
    expect((await tutorSaved.json()).reminders).toEqual({ dayBefore: true, hourBefore: false });
    const refused = await send(
      t,
      'PATCH',
      '/api/profile/details',
      { reminders: { weekBefore: true } },
      student.jar,
    );
    expect(refused.status).toBe(400);

    const start = at(4, '17:00');
    const lessonId = await book(student, who.id, start);
    await racingRuns(start - 24 * HOUR + MINUTE);
    await racingRuns(start - HOUR + MINUTE);
    expect((await remindersOf(lessonId)).map((key) => key.split(' ').slice(0, 2).join(' '))).toEqual(
      [`${who.id} day`, `${student.id} hour`].sort(),
    );
  });
  // Last in the file: its 1,200 mails are still being delivered to the catcher when it ends, and a
  // test after it would wait behind them for its own.
  it('sends 1,200 reminders due at once, in batches, each once', async () => {
    // 600 pairs, straight into the database (no booking could make them this fast): more lessons
    // than one batch reads, all due at the same minute.
    const count = 600;
    const start = at(9, '09:00');
    const booked = new Date(start - 5 * 24 * HOUR);
    const ids = Array.from({ length: count }, (_, i) => `bulk-${i}-${crypto.randomUUID()}`);
    await t.database.db
      .insertInto('users')
      .values(
        ids.flatMap((id, i) => [
          { id: `${id}-t`, email: `${id}-t@example.com`, display_name: `Bulk Tutor ${i}`, role: 'tutor' },
          { id: `${id}-s`, email: `${id}-s@example.com`, display_name: `Bulk Student ${i}`, role: 'student' },
        ]),
      )
      .execute();
    await t.database.db
      .insertInto('lessons')
      .values(
        ids.map((id, i) => ({
          id,
          tutor_id: `${id}-t`,
          student_id: `${id}-s`,
          subject: 'Algebra',
          // Spread over ten minutes, so batches end and begin between lessons of one start too.
          starts_at: new Date(start + (i % 10) * MINUTE),
          ends_at: new Date(start + (i % 10) * MINUTE + HOUR),
          blocked_until: new Date(start + (i % 10) * MINUTE + HOUR),
          minutes: 60,
          price_cents: 4000,
          status: 'confirmed',
          created_at: booked,
          updated_at: booked,
        })),
      )
      .execute();
    const sent = await racingRuns(start - 24 * HOUR + 10 * MINUTE);
    expect(sent.reduce((a, b) => a + b)).toBe(2 * count);
    expect((await runReminders(deps())).sent).toBe(0);
    const written = await t.database.db
      .selectFrom('lesson_reminders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('lesson_id', 'like', 'bulk-%')
      .executeTakeFirstOrThrow();
    expect(Number(written.n)).toBe(2 * count);
  });
});
