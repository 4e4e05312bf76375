/**
 * Who is listed, on both stores: a published tutor, and where REQUIRE_TUTOR_APPROVAL is set only
 * one an admin approved. Every route that shows, books, messages or reviews a tutor follows that
 * one rule: an unlisted tutor is not found (404) on each, or left out of each list, exactly as an
 * unpublished one; a listed tutor is there. Two apps share one database, one requiring approval
 * and one not, so the same two tutors are walked through every route under both rules.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/server/admin/admin-command';
import type { Database } from '../../src/server/db/database';
import { type CookieJar, get, send, signIn, verifiedPerson } from '../support/accounts';
import { insertLesson } from '../support/lessons';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { createTestApp, type TestApp } from '../support/test-app';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

interface Person {
  jar: CookieJar;
  id: string;
  email: string;
  name: string;
}

let mailbox: MailCatcher;
/** Approval not required: every published tutor is listed. */
let open: TestApp;
/** REQUIRE_TUTOR_APPROVAL=true, on the same database. */
let strict: TestApp;
/** Published, with a photo, hours and the better reviews, but never approved. */
let unapproved: Person;
/** Published, with a photo and hours, and approved by an admin. */
let approved: Person;

let png: Buffer;
let people = 0;
const person = (role: 'student' | 'tutor', name?: string) =>
  verifiedPerson(open, mailbox, role, name ?? `${role === 'tutor' ? 'Tutor' : 'Student'} Listing${++people}`);

/** A published tutor of Physics with a photo and hours every day, on UTC. */
async function tutor(name: string): Promise<Person> {
  const who = await person('tutor', name);
  const details = {
    headline: 'Listingword physics',
    about: 'From the Moon to the Milky Way.',
    subjects: ['Physics'],
    hourlyRate: 30,
    languages: ['English'],
  };
  expect((await send(open, 'PATCH', '/api/profile/details', details, who.jar)).status).toBe(200);
  const photo = await open.request('/api/profile/photo', {
    method: 'PUT',
    body: new Uint8Array(png),
    headers: { cookie: who.jar.header(), 'content-type': 'image/png' },
  });
  expect(photo.status, await photo.clone().text()).toBe(200);
  const hours = {
    timeZone: 'UTC',
    weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '08:00', end: '20:00' })),
    overrides: [],
    lessonMinutes: [60],
    slotStepMinutes: 60,
    minimumNoticeHours: 0,
    bookingHorizonDays: 60,
    bufferMinutes: 0,
    instantBooking: true,
  };
  const saved = await send(open, 'PUT', '/api/availability', hours, who.jar);
  expect(saved.status, await saved.clone().text()).toBe(200);
  return who;
}

/** A student who has had a lesson with the tutor and may review them, reviewing with `rating`. */
async function reviewed(teacher: Person, rating: number) {
  const student = await studentAfterLesson(teacher);
  const res = await send(
    open,
    'PUT',
    `/api/tutors/${teacher.id}/review`,
    { rating, text: 'Clear explanations of the night sky.' },
    student.jar,
  );
  expect(res.status, await res.clone().text()).toBe(201);
}

async function studentAfterLesson(teacher: Person): Promise<Person> {
  const student = await person('student');
  await insertLesson(open.database.db, {
    tutorId: teacher.id,
    studentId: student.id,
    status: 'completed',
    start: Date.now() - 3 * DAY,
    subject: 'Physics',
  });
  return student;
}

beforeAll(async () => {
  mailbox = await startMailCatcher();
  png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#1e3a8a' } })
    .png()
    .toBuffer();
  open = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl } });
  strict = await createTestApp({
    database: open.database,
    env: { SMTP_URL: mailbox.smtpUrl, REQUIRE_TUTOR_APPROVAL: 'true' },
  });
  unapproved = await tutor('Una Unapproved');
  approved = await tutor('Abe Approved');
  // The unapproved tutor is the better rated: where they are listed, they are the featured one.
  await reviewed(unapproved, 5);
  await reviewed(approved, 3);

  expect((await send(open, 'POST', '/api/profile/verification-request', {}, approved.jar)).status).toBe(200);
  const admin = await person('student', 'Ada Admin');
  const database = async (): Promise<Database> => ({ ...open.database, close: async () => {} });
  expect(await runAdminCommand(['grant', admin.email], database)).toMatchObject({ exitCode: 0 });
  const { jar } = await signIn(open, admin.email);
  const approval = await send(open, 'POST', `/api/admin/verifications/${approved.id}/approve`, {}, jar);
  expect(approval.status).toBe(200);
}, 60_000);

afterAll(async () => {
  // `strict` shares the database that `open` closes.
  await open?.close();
  await mailbox?.close();
});

/** Whether a route answered as for a tutor who is there, or the 404 of one who is not. */
async function found(res: Response, there: number): Promise<boolean> {
  if (res.status === 404) {
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    return false;
  }
  expect(res.status, await res.clone().text()).toBe(there);
  return true;
}

/**
 * Every tutor-facing route, asked about one tutor through one app by a student who has had a
 * lesson with them: whether each shows (or lets them book, message, review) the tutor.
 */
async function walk(app: TestApp, teacher: Person): Promise<Record<string, boolean>> {
  const student = await studentAfterLesson(teacher);
  const ids = (list: { id?: string; tutorId?: string }[]) => list.map((item) => item.id ?? item.tutorId);

  const search = await (await get(app, '/api/tutors?q=Listingword')).json();
  const featured = await (await get(app, '/api/tutors/featured')).json();
  // The same student, asked through the app that lists everyone: a free hour to book.
  const from = Math.ceil(Date.now() / HOUR) * HOUR + 2 * DAY;
  const range = `from=${new Date(from).toISOString()}&to=${new Date(from + 7 * DAY).toISOString()}`;
  const slotsPath = `/api/tutors/${teacher.id}/slots?${range}&minutes=60`;
  const free = (await (await get(open, slotsPath, student.jar)).json()).slots[0].start as string;

  // The invitations to review come first: reviewing ends them.
  const dashboard = await (await get(app, '/api/dashboard', student.jar)).json();
  const schedule = await (await get(app, '/api/schedule', student.jar)).json();
  return {
    search: ids(search.tutors).includes(teacher.id),
    featured: featured.tutor?.id === teacher.id,
    page: await found(await get(app, `/api/tutors/${teacher.id}`), 200),
    photo: await found(await get(app, `/api/tutors/${teacher.id}/photo`), 200),
    reviews: await found(await get(app, `/api/tutors/${teacher.id}/reviews`, student.jar), 200),
    slots: await found(await get(app, slotsPath, student.jar), 200),
    dashboardInvite: ids(dashboard.toReview).includes(teacher.id),
    scheduleInvite: ids(schedule.toReview).includes(teacher.id),
    review: await found(
      await send(
        app,
        'PUT',
        `/api/tutors/${teacher.id}/review`,
        { rating: teacher === unapproved ? 5 : 3, text: 'Patient, and the charts were a great help.' },
        student.jar,
      ),
      201,
    ),
    message: await found(
      await send(app, 'POST', '/api/conversations', { tutorId: teacher.id, text: 'Hello!' }, student.jar),
      201,
    ),
    booking: await found(
      await send(
        app,
        'POST',
        '/api/lessons',
        { tutorId: teacher.id, start: free, minutes: 60, subject: 'Physics' },
        student.jar,
      ),
      201,
    ),
  };
}

const everywhere = {
  search: true,
  featured: true,
  page: true,
  photo: true,
  reviews: true,
  slots: true,
  dashboardInvite: true,
  scheduleInvite: true,
  review: true,
  message: true,
  booking: true,
};
const nowhere = Object.fromEntries(Object.keys(everywhere).map((route) => [route, false]));

describe('who is listed', () => {
  it('without approval required: every published tutor, on every route', async () => {
    expect(await walk(open, unapproved)).toEqual(everywhere);
    // Featured is the best rated of the listed, and that is the unapproved tutor here.
    expect(await walk(open, approved)).toEqual({ ...everywhere, featured: false });
  });

  it('with approval required: an unapproved tutor on no route, an approved one on every route', async () => {
    expect(await walk(strict, unapproved)).toEqual(nowhere);
    expect(await walk(strict, approved)).toEqual(everywhere);
  });

  it('an unlisted tutor answers exactly as an unpublished one', async () => {
    const incomplete = await person('tutor', 'Ivo Incomplete');
    for (const path of ['', '/photo', '/reviews']) {
      const unpublished = await get(strict, `/api/tutors/${incomplete.id}${path}`);
      const unlisted = await get(strict, `/api/tutors/${unapproved.id}${path}`);
      expect(unlisted.status).toBe(404);
      expect(await unlisted.json()).toEqual(await unpublished.json());
    }
  });
});
