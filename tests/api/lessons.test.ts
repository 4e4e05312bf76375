/**
 * Lessons over the API: a tutor's availability, the slots it offers, booking (with the database
 * refusing double bookings and Idempotency-Key making retries safe), requests the tutor answers,
 * the 24-hour rule for cancelling and rescheduling, the mails and calendar invitations each
 * change sends, the calendar feed, and who may do what.
 */
import { gunzipSync } from 'node:zlib';
import ICAL from 'ical.js';
import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db/schema';
import { type CompletedLesson, runLessonJobs } from '../../src/server/lessons/lesson-jobs';
import { lessonLine } from '../../src/server/messages/messages';
import { inviteToReview } from '../../src/server/reviews/review-invites';
import { type CookieJar, get, send, signUp, verifiedUser } from '../support/accounts';
import { mailbox, setUpApiTest, t } from '../support/api-app';
import type { CaughtMail } from '../support/mail-catcher';
import { TEST_APP_URL } from '../support/test-app';

setUpApiTest();
afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 60 * 60 * 1000;
const ZONE = 'Europe/Madrid';
const MOVE_CUTOFF_MESSAGE =
  'This lesson can only be moved up to 24 hours before it starts. You may still cancel it.';

/** The instant of `time` on the local date `days` from today in `zone`. */
function at(days: number, time: string, zone = ZONE): number {
  return Temporal.Now.zonedDateTimeISO(zone)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: zone, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
}
const iso = (ms: number) => new Date(ms).toISOString();

const everyDay = (start: string, end: string) =>
  [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start, end }));

const availability = {
  timeZone: ZONE,
  weekly: everyDay('08:00', '20:00'),
  overrides: [] as { date: string; windows: { start: string; end: string }[] }[],
  lessonMinutes: [60, 90],
  slotStepMinutes: 30,
  minimumNoticeHours: 0,
  bookingHorizonDays: 60,
  bufferMinutes: 0,
  instantBooking: true,
};

interface Person {
  jar: CookieJar;
  email: string;
  id: string;
  name: string;
}

let people = 0;
async function person(role: 'tutor' | 'student', name?: string): Promise<Person> {
  people += 1;
  const displayName = name ?? `${role === 'tutor' ? 'Tutor' : 'Student'} ${people}`;
  const account = await verifiedUser(t, mailbox, { role, name: displayName });
  const id = (await (await get(t, '/api/session', account.jar)).json()).user.id as string;
  return { jar: account.jar, email: account.email, id, name: displayName };
}

/** A published tutor (rate $40 an hour, teaches Algebra and Calculus) with the given availability. */
async function tutor(settings: Partial<typeof availability> = {}): Promise<Person> {
  const who = await person('tutor');
  const profile = await send(
    t,
    'PATCH',
    '/api/profile/details',
    {
      headline: 'Algebra made calm',
      about: 'Step by step, at your pace.',
      subjects: ['Algebra', 'Calculus'],
      hourlyRate: 40,
      languages: ['English'],
    },
    who.jar,
  );
  expect(profile.status).toBe(200);
  const res = await send(t, 'PUT', '/api/availability', { ...availability, ...settings }, who.jar);
  expect(res.status, await res.clone().text()).toBe(200);
  return who;
}

function book(student: Person, body: Record<string, unknown>, key?: string) {
  return t.request('/api/lessons', {
    method: 'POST',
    body: JSON.stringify({ subject: 'Algebra', minutes: 60, ...body }),
    headers: { cookie: student.jar.header(), ...(key ? { 'idempotency-key': key } : {}) },
  });
}

async function slots(tutorId: string, from: number, to: number, minutes = 60, jar?: CookieJar) {
  const res = await get(
    t,
    `/api/tutors/${tutorId}/slots?from=${iso(from)}&to=${iso(to)}&minutes=${minutes}`,
    jar,
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { slots: { start: string; end: string }[] }).slots;
}

/** Whether the tutor offers a lesson starting exactly at `start` (to this viewer). */
async function offered(tutorId: string, start: number, jar?: CookieJar) {
  return (await slots(tutorId, start, start + 60_000, 60, jar)).some((slot) => slot.start === iso(start));
}

const act = (who: Person, lessonId: string, action: string, body: unknown = {}) =>
  send(t, 'POST', `/api/lessons/${lessonId}/${action}`, body, who.jar);

async function lessonsOf(who: Person) {
  const res = await get(t, '/api/lessons', who.jar);
  expect(res.status).toBe(200);
  return (await res.json()).lessons as { id: string; status: string; start: string }[];
}

/** The mails about one lesson that have arrived for an address, waiting for `count` of them. */
async function mailsAbout(address: string, subjectPart: string, count = 1): Promise<CaughtMail[]> {
  await mailbox.waitFor(
    () => mailbox.mailsTo(address).filter((mail) => mail.subject.includes(subjectPart)).length >= count,
  );
  return mailbox.mailsTo(address).filter((mail) => mail.subject.includes(subjectPart));
}

/** The one event of an invitation, with its calendar's METHOD. */
function invitation(mail: CaughtMail) {
  expect(mail.calendar, `no invitation in "${mail.subject}"`).toBeDefined();
  const calendar = new ICAL.Component(ICAL.parse(mail.calendar ?? ''));
  const event = calendar.getFirstSubcomponent('vevent');
  if (!event) throw new Error('no event in the invitation');
  return {
    method: calendar.getFirstPropertyValue('method'),
    uid: event.getFirstPropertyValue('uid'),
    sequence: Number(event.getFirstPropertyValue('sequence')),
    start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
    end: (event.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().toISOString(),
    rawStart: /DTSTART[^:]*:(\S+)/.exec(mail.calendar ?? '')?.[1],
  };
}

describe('availability', () => {
  it('starts empty with the default settings, and keeps what the tutor saves, in their zone', async () => {
    const who = await person('tutor');
    const empty = await (await get(t, '/api/availability', who.jar)).json();
    expect(empty).toMatchObject({
      timeZone: null,
      weekly: [],
      overrides: [],
      lessonMinutes: [60],
      slotStepMinutes: 30,
      minimumNoticeHours: 12,
      bookingHorizonDays: 60,
      bufferMinutes: 0,
      instantBooking: true,
    });
    const saved = {
      ...availability,
      timeZone: 'Australia/Adelaide',
      weekly: [
        { weekday: 1, start: '09:00', end: '12:00' },
        { weekday: 1, start: '13:00', end: '17:00' },
      ],
      overrides: [{ date: '2030-01-02', windows: [] }],
      lessonMinutes: [90, 30, 90],
    };
    const res = await send(t, 'PUT', '/api/availability', saved, who.jar);
    expect(res.status).toBe(200);
    const noTrial = { offered: false, priceCents: 0 };
    // Left out, the cancellation policy stays the default.
    const policy = { cancellationWindowHours: 24, lateCancelFeePercent: 100 };
    expect(await res.json()).toEqual({
      ...saved,
      lessonMinutes: [30, 90],
      trial: noTrial,
      ...policy,
      packages: [],
    });
    expect(await (await get(t, '/api/availability', who.jar)).json()).toEqual({
      ...saved,
      lessonMinutes: [30, 90],
      trial: noTrial,
      ...policy,
      packages: [],
    });
    // One zone for the tutor: the profile shows the same.
    const details = await (await get(t, '/api/profile/details', who.jar)).json();
    expect(details.timeZone).toBe('Australia/Adelaide');
  });

  it.each([
    ['an unknown zone', { timeZone: 'Mars/Olympus_Mons' }, 'Please choose a valid time zone', 'timeZone'],
    [
      'an end before the start',
      { weekly: [{ weekday: 2, start: '10:00', end: '09:00' }] },
      'The end of a window must be after its start',
      'weekly.0',
    ],
    [
      'overlapping windows',
      {
        weekly: [
          { weekday: 3, start: '09:00', end: '12:00' },
          { weekday: 3, start: '11:00', end: '13:00' },
        ],
      },
      "Wednesday's windows 09:00-12:00 and 11:00-13:00 overlap",
      'weekly',
    ],
    [
      'a length not offered',
      { lessonMinutes: [50] },
      'Lesson lengths must be among 30, 45, 60, 90, 120 minutes',
      'lessonMinutes.0',
    ],
    [
      'a notice over a week',
      { minimumNoticeHours: 200 },
      'Minimum notice must be a whole number of hours from 0 to 168',
      'minimumNoticeHours',
    ],
    [
      'a time that is not one',
      { weekly: [{ weekday: 1, start: '9am', end: '17:00' }] },
      'A start must be a time such as 09:00 (24:00 is midnight)',
      'weekly.0.start',
    ],
    [
      'a date that does not exist',
      { overrides: [{ date: '2030-02-30', windows: [] }] },
      'A date must be a real day of the calendar',
      'overrides.0.date',
    ],
  ])('refuses %s with 400 naming the field', async (_label, change, message, field) => {
    const who = await person('tutor');
    const res = await send(t, 'PUT', '/api/availability', { ...availability, ...change }, who.jar);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message, code: 'VALIDATION_ERROR', field });
  });

  it('refuses a new date before today in the tutor’s zone, naming it; today is fine', async () => {
    // The zones furthest ahead of and behind UTC: whatever the hour, "today" in one of them is not
    // UTC's today, so a server that looked at UTC would get one of them wrong.
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const who = await person('tutor');
      const today = Temporal.Now.plainDateISO(zone);
      const yesterday = today.subtract({ days: 1 }).toString();
      const refused = await send(
        t,
        'PUT',
        '/api/availability',
        {
          ...availability,
          timeZone: zone,
          overrides: [
            { date: today.toString(), windows: [] },
            { date: yesterday, windows: [] },
          ],
        },
        who.jar,
      );
      expect(refused.status, zone).toBe(400);
      expect(await refused.json()).toEqual({
        message: `${yesterday} has passed: choose today or a later date`,
        code: 'VALIDATION_ERROR',
        field: 'overrides.1.date',
      });
      const dayOff = { date: today.toString(), windows: [] };
      const saved = await send(
        t,
        'PUT',
        '/api/availability',
        { ...availability, timeZone: zone, overrides: [dayOff] },
        who.jar,
      );
      expect(saved.status, zone).toBe(200);
      expect((await saved.json()).overrides).toEqual([dayOff]);
    }
  });

  it('drops a date that has passed since it was saved, and saves the rest of the change', async () => {
    const who = await person('tutor');
    const today = Temporal.Now.plainDateISO(ZONE);
    const dayOff = { date: today.toString(), windows: [] };
    const special = { date: today.add({ days: 10 }).toString(), windows: [{ start: '10:00', end: '12:00' }] };
    const first = { ...availability, overrides: [dayOff, special] };
    expect((await send(t, 'PUT', '/api/availability', first, who.jar)).status).toBe(200);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 24 * HOUR);
    // Read again, the day off that has passed is gone...
    expect((await (await get(t, '/api/availability', who.jar)).json()).overrides).toEqual([special]);
    // ...and a page opened before still sends it: the save goes through without it.
    const res = await send(t, 'PUT', '/api/availability', { ...first, minimumNoticeHours: 2 }, who.jar);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ overrides: [special], minimumNoticeHours: 2 });
  });

  it('is a verified tutor’s: 401 signed out, 403 for students and unverified tutors', async () => {
    expect((await t.request('/api/availability')).status).toBe(401);
    const student = await person('student');
    expect((await get(t, '/api/availability', student.jar)).status).toBe(403);
    expect((await send(t, 'PUT', '/api/availability', availability, student.jar)).status).toBe(403);
    const unverified = await signUp(t, { role: 'tutor' });
    expect((await get(t, '/api/availability', unverified.jar)).status).toBe(403);
  });
});

describe('slots', () => {
  it('offers each window from its start every step, in the tutor’s zone, and only what fits', async () => {
    const who = await tutor({
      weekly: [{ weekday: 1, start: '09:00', end: '11:00' }],
      timeZone: 'Asia/Kolkata',
    });
    // Two weeks hold two Mondays: 09:00, 09:30, 10:00 each (a 60-minute lesson ends by 11:00).
    const from = at(1, '00:00', 'Asia/Kolkata');
    const found = await slots(who.id, from, from + 14 * 24 * HOUR);
    expect(found).toHaveLength(6);
    const local = found.map((slot) =>
      Temporal.Instant.from(slot.start).toZonedDateTimeISO('Asia/Kolkata').toPlainDateTime(),
    );
    expect(local.every((time) => time.dayOfWeek === 1)).toBe(true);
    expect(local.slice(0, 3).map((time) => time.toPlainTime().toString({ smallestUnit: 'minute' }))).toEqual([
      '09:00',
      '09:30',
      '10:00',
    ]);
    expect(found.map((slot) => slot.start)).toEqual([...found.map((slot) => slot.start)].sort());
    expect(found[0]?.end).toBe(iso(Date.parse(found[0]?.start ?? '') + HOUR));
  });

  it('gzips the slots for a browser that accepts it', async () => {
    const who = await tutor({ weekly: [{ weekday: 2, start: '08:00', end: '18:00' }], timeZone: 'UTC' });
    const from = at(2, '00:00', 'UTC');
    const path = `/api/tutors/${who.id}/slots?from=${iso(from)}&to=${iso(from + 28 * 24 * HOUR)}&minutes=60`;
    const plain = await (await t.request(path)).text();
    const gz = await t.request(path, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const body = Buffer.from(await gz.arrayBuffer());
    expect(body.length).toBeLessThan(Buffer.byteLength(plain) / 4);
    expect(JSON.parse(gunzipSync(body).toString()).slots).toHaveLength(4 * 19);
  });

  it('answers 404 for a tutor who is not public, and 400 for a length or range it does not take', async () => {
    const hidden = await person('tutor');
    const from = at(1, '00:00');
    const res = await get(
      t,
      `/api/tutors/${hidden.id}/slots?from=${iso(from)}&to=${iso(from + HOUR)}&minutes=60`,
    );
    expect(res.status).toBe(404);
    const who = await tutor();
    const wrongLength = await get(
      t,
      `/api/tutors/${who.id}/slots?from=${iso(from)}&to=${iso(from + HOUR)}&minutes=45`,
    );
    expect(wrongLength.status).toBe(400);
    expect((await wrongLength.json()).message).toBe(
      "minutes must be one of this tutor's lesson lengths: 60, 90",
    );
    const tooLong = await get(
      t,
      `/api/tutors/${who.id}/slots?from=${iso(from)}&to=${iso(from + 32 * 24 * HOUR)}&minutes=60`,
    );
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).message).toBe('Slots can be asked for 31 days at most');
    const backwards = await get(
      t,
      `/api/tutors/${who.id}/slots?from=${iso(from)}&to=${iso(from - HOUR)}&minutes=60`,
    );
    expect(backwards.status).toBe(400);
    const garbage = await get(t, `/api/tutors/${who.id}/slots?from=tomorrow&to=${iso(from)}&minutes=60`);
    expect(garbage.status).toBe(400);
  });

  it('keeps a booked time and its buffer out, for everyone, and a student’s own lessons out for them', async () => {
    const who = await tutor({ bufferMinutes: 30 });
    const student = await person('student');
    const start = at(3, '10:00');
    expect((await book(student, { tutorId: who.id, start: iso(start) })).status).toBe(201);
    const day = await slots(who.id, at(3, '08:00'), at(3, '20:00'));
    const starts = day.map((slot) => slot.start);
    // 10:00-11:00 booked, 30 minutes kept free on each side: a lesson may end by 09:30 or start
    // from 11:30.
    expect(starts).toContain(iso(at(3, '08:30')));
    for (const taken of ['09:00', '09:30', '10:00', '10:30', '11:00'])
      expect(starts, taken).not.toContain(iso(at(3, taken)));
    expect(starts).toContain(iso(at(3, '11:30')));
    // Another tutor's 10:00 is free for everyone but that student.
    const other = await tutor();
    expect(await offered(other.id, start)).toBe(true);
    expect(await offered(other.id, start, student.jar)).toBe(false);
    expect(await offered(other.id, at(3, '11:00'), student.jar)).toBe(true);
  });
});

describe('booking', () => {
  it('confirms a lesson at once, priced at booking, and mails both an invitation in UTC', async () => {
    const who = await tutor();
    const student = await person('student');
    const start = at(5, '14:30');
    const res = await book(student, {
      tutorId: who.id,
      start: iso(start),
      minutes: 90,
      note: 'Chapter 4 please',
    });
    expect(res.status).toBe(201);
    const lesson = await res.json();
    expect(lesson).toEqual({
      id: expect.any(String),
      start: iso(start),
      end: iso(start + 90 * 60 * 1000),
      minutes: 90,
      status: 'confirmed',
      subject: 'Algebra',
      note: 'Chapter 4 please',
      trial: false,
      price: { amountCents: 6000, currency: 'USD' },
      tutor: { id: who.id, displayName: who.name },
      student: { id: student.id, displayName: student.name },
      changeableUntil: iso(start - 24 * HOUR),
      // The default policy, fixed on the lesson; nothing is charged while payments are off.
      cancellation: {
        freeUntil: iso(start - 24 * HOUR),
        feePercent: 100,
        fee: { amountCents: 0, currency: 'USD' },
        lateFee: null,
        by: null,
        at: null,
        reason: null,
      },
      // This school takes no money through Tutorlane (PAYMENTS=off): nothing is held.
      payment: { status: 'none', amountCents: 6000, currency: 'USD' },
      proposal: null,
      seriesId: null,
      classSession: null,
      packageId: null,
      // The student booked it for themselves (docs/api.md, "Families").
      bookedByParent: false,
    });
    for (const address of [who.email, student.email]) {
      const [mail] = await mailsAbout(address, 'Lesson confirmed');
      if (!mail) throw new Error('no confirmation');
      const event = invitation(mail);
      expect(event).toMatchObject({ method: 'REQUEST', sequence: 0, start: iso(start), end: lesson.end });
      expect(event.uid).toBe(`lesson-${lesson.id}@${new URL(TEST_APP_URL).hostname}`);
      expect(event.rawStart).toMatch(/Z$/);
      // Nothing is held while payments are off, so nobody is told of earnings: both read the price.
      expect(mail.text).toContain('The price is $60.');
      expect(mail.text).not.toContain('You will earn');
    }
    // Both see it.
    expect((await lessonsOf(who)).map((l) => l.id)).toContain(lesson.id);
    expect((await lessonsOf(student)).map((l) => l.id)).toContain(lesson.id);
  });

  it('makes exactly one lesson of 20 students booking one time at once', async () => {
    const who = await tutor();
    const students = await Promise.all(Array.from({ length: 20 }, () => person('student')));
    const start = iso(at(6, '11:00'));
    const answers = await Promise.all(students.map((student) => book(student, { tutorId: who.id, start })));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    const refused = answers.find((res) => res.status === 409);
    expect(await refused?.json()).toEqual({
      message: 'This time is no longer available. Please choose another time.',
      code: 'SLOT_UNAVAILABLE',
    });
    const rows = await t.database.db
      .selectFrom('lessons')
      .select('id')
      .where('tutor_id', '=', who.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses overlapping times for one tutor even when the requests race with different lengths', async () => {
    const who = await tutor();
    const [first, second] = await Promise.all([person('student'), person('student')]);
    if (!first || !second) throw new Error('no students');
    const [a, b] = await Promise.all([
      book(first, { tutorId: who.id, start: iso(at(7, '10:00')), minutes: 90 }),
      book(second, { tutorId: who.id, start: iso(at(7, '11:00')), minutes: 60 }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
  });

  it('returns the lesson it made to a retry with the same Idempotency-Key, sent again or at once', async () => {
    const who = await tutor();
    const student = await person('student');
    const start = iso(at(8, '09:00'));
    const first = await book(student, { tutorId: who.id, start }, 'retry-key-1');
    expect(first.status).toBe(201);
    const again = await book(student, { tutorId: who.id, start }, 'retry-key-1');
    // The first answer again, marked as a replay.
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).id).toBe((await first.json()).id);

    const later = iso(at(8, '15:00'));
    const burst = await Promise.all(
      Array.from({ length: 10 }, () => book(student, { tutorId: who.id, start: later }, 'retry-key-2')),
    );
    expect(burst.every((res) => res.status === 200 || res.status === 201)).toBe(true);
    const ids = new Set(await Promise.all(burst.map(async (res) => (await res.json()).id)));
    expect(ids.size).toBe(1);
    const rows = await t.database.db
      .selectFrom('lessons')
      .select('id')
      .where('student_id', '=', student.id)
      .execute();
    expect(rows).toHaveLength(2);
  });

  it('refuses times not offered (409), lengths and subjects the tutor does not offer (400)', async () => {
    const who = await tutor({ minimumNoticeHours: 48, bookingHorizonDays: 10 });
    const student = await person('student');
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ start: iso(at(3, '21:00')) }, 409, 'This time is no longer available. Please choose another time.'],
      [{ start: iso(at(3, '10:10')) }, 409, 'This time is no longer available. Please choose another time.'],
      [{ start: iso(at(1, '10:00')) }, 409, 'This time is no longer available. Please choose another time.'],
      [{ start: iso(at(12, '10:00')) }, 409, 'This time is no longer available. Please choose another time.'],
      [
        { start: iso(at(3, '10:00')), minutes: 45 },
        400,
        "minutes must be one of this tutor's lesson lengths: 60, 90",
      ],
      [
        { start: iso(at(3, '10:00')), subject: 'Spanish' },
        400,
        `Please choose a subject ${who.name} teaches`,
      ],
      [{ start: 'next tuesday' }, 400, 'start must be a date and time such as 2026-12-01T09:00:00Z'],
      [{ start: iso(at(3, '10:00')), extra: 1 }, 400, 'A booking has no such field: extra'],
    ];
    for (const [change, status, message] of refusals) {
      const res = await book(student, { tutorId: who.id, ...change });
      expect(res.status, JSON.stringify(change)).toBe(status);
      expect((await res.json()).message, JSON.stringify(change)).toBe(message);
    }
    const unknown = await book(student, { tutorId: 'no-such-tutor', start: iso(at(3, '10:00')) });
    expect(unknown.status).toBe(404);
    expect(await lessonsOf(student)).toEqual([]);
  });

  it('lets only verified students book: 401, 403 for tutors and the unverified', async () => {
    const who = await tutor();
    const body = JSON.stringify({
      tutorId: who.id,
      start: iso(at(4, '10:00')),
      minutes: 60,
      subject: 'Algebra',
    });
    expect((await t.request('/api/lessons', { method: 'POST', body })).status).toBe(401);
    const otherTutor = await tutor();
    const asTutor = await book(otherTutor, { tutorId: who.id, start: iso(at(4, '10:00')) });
    expect(asTutor.status).toBe(403);
    expect((await asTutor.json()).message).toBe('Only students can book lessons');
    const unverified = await signUp(t, { role: 'student' });
    const res = await t.request('/api/lessons', {
      method: 'POST',
      body,
      headers: { cookie: unverified.jar.header() },
    });
    expect(res.status).toBe(403);
  });
});

describe('requests', () => {
  it('waits for the tutor: a request mail, then accept confirms it with invitations to both', async () => {
    const who = await tutor({ instantBooking: false });
    const student = await person('student');
    const res = await book(student, { tutorId: who.id, start: iso(at(5, '10:00')) });
    expect(res.status).toBe(201);
    const lesson = await res.json();
    expect(lesson.status).toBe('pending');
    const [request] = await mailsAbout(who.email, 'New lesson request');
    expect(request?.calendar).toBeUndefined();
    // The time is held while the request waits.
    expect(await offered(who.id, at(5, '10:00'))).toBe(false);

    const byStudent = await act(student, lesson.id, 'accept');
    expect(byStudent.status).toBe(403);
    const accepted = await act(who, lesson.id, 'accept');
    expect(accepted.status).toBe(200);
    expect((await accepted.json()).status).toBe('confirmed');
    for (const address of [who.email, student.email]) {
      const [mail] = await mailsAbout(address, 'Lesson confirmed');
      if (!mail) throw new Error('no confirmation');
      expect(invitation(mail)).toMatchObject({ method: 'REQUEST', sequence: 0 });
    }
    const twice = await act(who, lesson.id, 'accept');
    expect(twice.status).toBe(409);
    expect((await twice.json()).message).toBe('This request is no longer waiting for an answer');
  });

  it('frees the time when the tutor declines, and tells the student', async () => {
    const who = await tutor({ instantBooking: false });
    const student = await person('student');
    const start = at(5, '12:00');
    const lesson = await (await book(student, { tutorId: who.id, start: iso(start) })).json();
    const declined = await act(who, lesson.id, 'decline');
    expect((await declined.json()).status).toBe('declined');
    await mailsAbout(student.email, 'Lesson request declined');
    expect(await offered(who.id, start)).toBe(true);
  });

  it('expires a request after 48 hours: read as expired at once, mailed once by the job', async () => {
    const who = await tutor({ instantBooking: false });
    const student = await person('student');
    const start = at(6, '10:00');
    const lesson = await (await book(student, { tutorId: who.id, start: iso(start) })).json();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 48 * HOUR + 1000);
    expect((await lessonsOf(student)).find((l) => l.id === lesson.id)?.status).toBe('expired');
    const late = await act(who, lesson.id, 'accept');
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe('This request has expired');
    // Two servers' jobs at once: the request expires, and is mailed about, once.
    const deps = {
      db: t.database.db,
      mailer: t.mailer,
      mail: { appUrl: TEST_APP_URL, mailFrom: t.config.mailFrom },
      conversations: { lessonLine },
      payments: t.config.payments,
      afterCompleted: (trx: Transaction<DB>, completed: CompletedLesson[]) =>
        inviteToReview({ mailer: t.mailer, appUrl: TEST_APP_URL }, trx, completed),
    };
    const runs = await Promise.all([runLessonJobs(deps), runLessonJobs(deps)]);
    expect(runs.map((run) => run.expired).sort()).toEqual([0, 1]);
    await t.mailer.deliverDue();
    vi.useRealTimers();
    await mailsAbout(student.email, 'Lesson request expired');
    await mailsAbout(who.email, 'Lesson request expired');
    // Both jobs have finished and the outbox was emptied after them: what they queued is all there is.
    const queued = await t.database.db
      .selectFrom('mail_outbox')
      .select(['subject', 'sent_at'])
      .where('recipient', '=', student.email.toLowerCase())
      .where('subject', 'like', '%expired%')
      .execute();
    expect(queued).toEqual([{ subject: expect.any(String), sent_at: expect.any(Date) }]);
    expect(mailbox.mailsTo(student.email).filter((m) => m.subject.includes('expired'))).toHaveLength(1);
  });

  it('frees a request’s time once its deadline passes, before any job expires it', async () => {
    const who = await tutor({ instantBooking: false });
    const other = await tutor();
    const student = await person('student');
    const start = at(5, '10:00');
    expect((await book(student, { tutorId: who.id, start: iso(start) })).status).toBe(201);
    // Waiting, the request holds the tutor's time and the student's.
    expect(await offered(who.id, start)).toBe(false);
    expect(await offered(other.id, start, student.jar)).toBe(false);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 48 * HOUR + 1000);
    expect(await offered(who.id, start)).toBe(true);
    expect(await offered(other.id, start, student.jar)).toBe(true);
    const next = await person('student');
    expect((await book(next, { tutorId: who.id, start: iso(start) })).status).toBe(201);
  });
});

describe('cancelling and rescheduling', () => {
  it('lets either side cancel more than 24 hours ahead: invitations cancelled, the time free again', async () => {
    const who = await tutor();
    const student = await person('student');
    const start = at(4, '16:00');
    const lesson = await (await book(student, { tutorId: who.id, start: iso(start) })).json();
    const before = Date.now();
    const cancelled = await act(who, lesson.id, 'cancel', { reason: 'I am ill' });
    expect(cancelled.status).toBe(200);
    const answer = await cancelled.json();
    expect(answer).toMatchObject({ status: 'cancelled', changeableUntil: null });
    // Both read who called it off, when, and the reason they gave.
    expect(answer.cancellation).toMatchObject({ by: 'tutor', at: expect.any(String), reason: 'I am ill' });
    expect(Date.parse(answer.cancellation.at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(answer.cancellation.at)).toBeLessThanOrEqual(Date.now() + 1000);
    expect((await (await get(t, `/api/lessons/${lesson.id}`, student.jar)).json()).cancellation).toEqual(
      answer.cancellation,
    );
    for (const address of [who.email, student.email]) {
      const [confirmation] = await mailsAbout(address, 'Lesson confirmed');
      const [cancellation] = await mailsAbout(address, 'Lesson cancelled');
      if (!confirmation || !cancellation) throw new Error('mails missing');
      const before = invitation(confirmation);
      const after = invitation(cancellation);
      expect(after).toMatchObject({ method: 'CANCEL', uid: before.uid, sequence: before.sequence + 1 });
    }
    const [studentMail] = await mailsAbout(student.email, 'Lesson cancelled');
    expect(studentMail?.text).toContain('I am ill');
    expect(await offered(who.id, start)).toBe(true);
    const again = await act(student, lesson.id, 'cancel');
    expect(again.status).toBe(409);
  });

  it('refuses a move within the default 24 hours of the start, by elapsed time, but still cancels', async () => {
    const who = await tutor();
    const student = await person('student');
    const start = at(4, '09:00');
    const lesson = await (await book(student, { tutorId: who.id, start: iso(start) })).json();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start - 24 * HOUR + 1000);
    const refused = await act(student, lesson.id, 'reschedule', { start: iso(at(4, '13:00')) });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: MOVE_CUTOFF_MESSAGE, code: 'TOO_LATE' });
    // Inside the window the tutor must say why.
    const noReason = await act(who, lesson.id, 'cancel', {});
    expect(noReason.status).toBe(400);
    expect((await get(t, `/api/lessons/${lesson.id}`, student.jar).then((r) => r.json())).status).toBe(
      'confirmed',
    );
    // The student may still cancel inside the window (with payments off, nothing is charged).
    const cancelled = await act(student, lesson.id, 'cancel');
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).cancellation).toMatchObject({
      by: 'student',
      at: iso(start - 24 * HOUR + 1000),
      reason: null,
      fee: { amountCents: 0, currency: 'USD' },
    });
  });

  it('moves a lesson for the student, keeping its identity; its own time does not block it', async () => {
    const who = await tutor();
    const student = await person('student');
    const start = at(9, '10:00');
    const lesson = await (await book(student, { tutorId: who.id, start: iso(start) })).json();
    const byTutor = await act(who, lesson.id, 'reschedule', { start: iso(at(9, '10:30')) });
    expect(byTutor.status).toBe(403);
    // Half an hour later overlaps its own current time: allowed.
    const moved = await act(student, lesson.id, 'reschedule', { start: iso(at(9, '10:30')) });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({
      id: lesson.id,
      start: iso(at(9, '10:30')),
      status: 'confirmed',
    });
    const [update] = await mailsAbout(who.email, 'Lesson moved');
    if (!update) throw new Error('no update');
    expect(invitation(update)).toMatchObject({ method: 'REQUEST', sequence: 1, start: iso(at(9, '10:30')) });
    // Another student's lesson blocks a move onto it.
    const other = await person('student');
    expect((await book(other, { tutorId: who.id, start: iso(at(9, '14:00')) })).status).toBe(201);
    const onto = await act(student, lesson.id, 'reschedule', { start: iso(at(9, '13:30')) });
    expect(onto.status).toBe(409);
    const offGrid = await act(student, lesson.id, 'reschedule', { start: iso(at(9, '21:00')) });
    expect(offGrid.status).toBe(409);
  });
});

describe('dates out of range', () => {
  const DATES = ['0000-01-01', '0001-01-01', '9999-12-31'];
  const refusal = (field: string) => `${field} must be between the years 2000 and 2100`;
  const expectRefused = async (res: Response, message: string, label: string) => {
    expect(res.status, label).toBe(400);
    expect(await res.json(), label).toMatchObject({ code: 'VALIDATION_ERROR', message });
  };

  it('refuses instants outside 2000 to 2100 on slots, the list, booking and rescheduling, with 400', async () => {
    const who = await tutor();
    const student = await person('student');
    const lesson = await (await book(student, { tutorId: who.id, start: iso(at(10, '10:00')) })).json();
    for (const date of DATES) {
      const early = `${date}T00:00:00Z`;
      const late = `${date}T12:00:00Z`;
      await expectRefused(
        await get(t, `/api/tutors/${who.id}/slots?from=${early}&to=${late}&minutes=60`),
        refusal('from'),
        `slots ${date}`,
      );
      await expectRefused(
        await get(t, `/api/tutors/${who.id}/slots?from=2026-12-01T00:00:00Z&to=${late}&minutes=60`),
        refusal('to'),
        `slots to ${date}`,
      );
      await expectRefused(
        await get(t, `/api/lessons?from=${early}&to=${late}`, student.jar),
        refusal('from'),
        `list ${date}`,
      );
      await expectRefused(await get(t, `/api/lessons?from=${early}`, student.jar), refusal('from'), date);
      await expectRefused(await get(t, `/api/lessons?to=${late}`, student.jar), refusal('to'), date);
      await expectRefused(
        await book(student, { tutorId: who.id, start: `${date}T10:00:00Z` }),
        refusal('start'),
        `book ${date}`,
      );
      await expectRefused(
        await act(student, lesson.id, 'reschedule', { start: `${date}T10:00:00Z` }),
        refusal('start'),
        `reschedule ${date}`,
      );
    }
    // The lesson is where it was.
    expect((await (await get(t, `/api/lessons/${lesson.id}`, student.jar)).json()).start).toBe(
      iso(at(10, '10:00')),
    );
  });

  it('refuses availability dates outside 2000 to 2100 with 400', async () => {
    const who = await tutor();
    for (const date of DATES) {
      const res = await send(
        t,
        'PUT',
        '/api/availability',
        { ...availability, overrides: [{ date, windows: [] }] },
        who.jar,
      );
      await expectRefused(res, 'A date must be between the years 2000 and 2100', `availability ${date}`);
    }
  });
});

describe('reading lessons', () => {
  it('shows a lesson to its two participants only: 404 for anyone else, on every route', async () => {
    const who = await tutor();
    const student = await person('student');
    const lesson = await (await book(student, { tutorId: who.id, start: iso(at(10, '10:00')) })).json();
    const stranger = await person('student');
    expect((await get(t, `/api/lessons/${lesson.id}`, stranger.jar)).status).toBe(404);
    for (const action of ['accept', 'decline', 'cancel', 'reschedule']) {
      const res = await act(
        stranger,
        lesson.id,
        action,
        action === 'reschedule' ? { start: lesson.start } : {},
      );
      expect(res.status, action).toBe(404);
    }
    expect((await get(t, '/api/lessons/not-a-lesson', student.jar)).status).toBe(404);
    expect((await get(t, `/api/lessons/${lesson.id}`, student.jar)).status).toBe(200);
    expect(await lessonsOf(stranger)).toEqual([]);
  });

  it('lists the lessons in a range, and reads a lesson that has ended as completed', async () => {
    const who = await tutor();
    const student = await person('student');
    const start = at(3, '08:00');
    const lesson = await (await book(student, { tutorId: who.id, start: iso(start) })).json();
    const inRange = await get(t, `/api/lessons?from=${iso(start)}&to=${iso(start + HOUR)}`, student.jar);
    expect((await inRange.json()).lessons.map((l: { id: string }) => l.id)).toEqual([lesson.id]);
    const outside = await get(
      t,
      `/api/lessons?from=${iso(start + HOUR)}&to=${iso(start + 2 * HOUR)}`,
      student.jar,
    );
    expect((await outside.json()).lessons).toEqual([]);
    const bad = await get(t, `/api/lessons?from=${iso(start)}&to=${iso(start - HOUR)}`, student.jar);
    expect(bad.status).toBe(400);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + HOUR + 1000);
    const after = await get(t, `/api/lessons/${lesson.id}`, who.jar);
    expect(await after.json()).toMatchObject({ status: 'completed', changeableUntil: null });
  });
});

describe('dashboards and the schedule', () => {
  it('builds both dashboards from the lessons, for the day and month of each user’s zone', async () => {
    const who = await tutor();
    const student = await person('student');
    const start = at(2, '10:00');
    const [morning, noon] = [at(2, '07:00'), at(2, '12:00')];
    const lesson = await (await book(student, { tutorId: who.id, start: iso(start), minutes: 90 })).json();
    vi.useFakeTimers({ toFake: ['Date'] });
    // The morning of the lesson, in Madrid.
    vi.setSystemTime(morning);
    const before = await (await get(t, '/api/dashboard', who.jar)).json();
    expect(before).toMatchObject({
      role: 'tutor',
      timeZone: ZONE,
      today: [
        { id: lesson.id, status: 'confirmed', subject: 'Algebra', with: { displayName: student.name } },
      ],
      // Not earned before it took place: waiting on the lesson ahead.
      earnings: { thisMonthCents: 0, pendingCents: 6000, currency: 'USD' },
      totalSessions: 0,
      activeStudents: 1,
      pendingRequests: 0,
      hasAvailability: true,
    });
    // The student saved no zone: the browser's stands in.
    const ahead = await (await get(t, '/api/dashboard?timeZone=Asia/Tokyo', student.jar)).json();
    expect(ahead).toMatchObject({ role: 'student', timeZone: 'Asia/Tokyo', completedBySubject: [] });
    expect(ahead.upcoming.map((l: { id: string }) => l.id)).toEqual([lesson.id]);

    // After it.
    vi.setSystemTime(noon);
    const after = await (await get(t, '/api/dashboard', who.jar)).json();
    expect(after).toMatchObject({
      totalSessions: 1,
      today: [{ id: lesson.id, status: 'completed' }],
      earnings: { thisMonthCents: 6000, pendingCents: 0 },
    });
    const done = await (await get(t, '/api/dashboard', student.jar)).json();
    expect(done).toMatchObject({ upcoming: [], completedBySubject: [{ subject: 'Algebra', lessons: 1 }] });
  });

  it('counts requests waiting, and tells a tutor without hours that nobody can book yet', async () => {
    const who = await tutor({ instantBooking: false });
    const student = await person('student');
    expect((await book(student, { tutorId: who.id, start: iso(at(3, '10:00')) })).status).toBe(201);
    expect(await (await get(t, '/api/dashboard', who.jar)).json()).toMatchObject({
      pendingRequests: 1,
      earnings: { thisMonthCents: 0 },
    });
    const newcomer = await person('tutor');
    expect(await (await get(t, '/api/dashboard', newcomer.jar)).json()).toMatchObject({
      hasAvailability: false,
      today: [],
    });
  });

  it('shows times in the saved zone, else the browser’s, else UTC', async () => {
    const who = await tutor();
    expect(await (await get(t, '/api/schedule?timeZone=Asia/Tokyo', who.jar)).json()).toMatchObject({
      role: 'tutor',
      timeZone: ZONE,
      timeZoneSaved: true,
    });
    const student = await person('student');
    expect(await (await get(t, '/api/schedule?timeZone=Asia/Tokyo', student.jar)).json()).toMatchObject({
      timeZone: 'Asia/Tokyo',
      timeZoneSaved: false,
    });
    expect(
      await (await get(t, '/api/schedule?timeZone=Mars/Olympus_Mons', student.jar)).json(),
    ).toMatchObject({
      timeZone: 'UTC',
    });
  });
});

describe('calendar feed', () => {
  it('serves the user’s lessons at a secret address until it is renewed or removed', async () => {
    const who = await tutor();
    const student = await person('student');
    const lesson = await (await book(student, { tutorId: who.id, start: iso(at(11, '10:00')) })).json();
    expect(await (await get(t, '/api/calendar-feed', student.jar)).json()).toEqual({ url: null });
    const made = await (await send(t, 'POST', '/api/calendar-feed', {}, student.jar)).json();
    expect(made.url).toMatch(new RegExp(`^${TEST_APP_URL}/api/calendar/[\\w-]{20,}\\.ics$`));
    const path = new URL(made.url).pathname;
    const feed = await t.request(path);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toContain('text/calendar');
    const calendar = new ICAL.Component(ICAL.parse(await feed.text()));
    const events = calendar.getAllSubcomponents('vevent');
    expect(events.map((event) => event.getFirstPropertyValue('uid'))).toEqual([
      `lesson-${lesson.id}@${new URL(TEST_APP_URL).hostname}`,
    ]);
    const renewed = await (await send(t, 'POST', '/api/calendar-feed', {}, student.jar)).json();
    expect(renewed.url).not.toBe(made.url);
    expect((await t.request(path)).status).toBe(404);
    expect((await send(t, 'DELETE', '/api/calendar-feed', {}, student.jar)).status).toBe(200);
    expect((await t.request(new URL(renewed.url).pathname)).status).toBe(404);
  });
});
