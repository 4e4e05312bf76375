/**
 * What a school's own data says of it, on both stores, each test in a database of its own (the
 * counts are the whole school's): a new school shows no home page figure and no typical rate rather than the
 * first description's samples; each real count (students who took a lesson, verified tutors,
 * lessons that took place) shows once it reaches 10; an admin's figures replace the counts until
 * the admin gives them back; and what most listed tutors charge is said once five are listed, as
 * the middle 80% of their rates, in the school's currency.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { grantAdmin } from '../../src/server/admin/admins';
import { generateDemoTutors, insertDemoTutors } from '../../src/server/demo/demo-tutors';
import { type CookieJar, get, send, signIn, verifiedPerson } from '../support/accounts';
import { insertLesson } from '../support/lessons';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { publishTutor } from '../support/money';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let mailbox: MailCatcher;
beforeAll(async () => {
  mailbox = await startMailCatcher();
});
afterAll(async () => {
  await mailbox.close();
});
beforeEach(async () => {
  t = await createTestApp({
    env: { SMTP_URL: mailbox.smtpUrl, CURRENCY: 'EUR' },
    // Counts read afresh for every snapshot, and the snapshot read again at once: what a test
    // changes shows in the next answers, not a minute later.
    overrides: { schoolFiguresMaxAgeMs: 0, settingsMaxAgeMs: 0 },
  });
  admin = undefined;
});
afterEach(async () => {
  await t.close();
});

const HOUR = 3_600_000;
const config = async () => (await t.request('/api/config')).json();
/** GET /api/config once the snapshot has read what the test just changed (it serves the last read while it reads again). */
const configSoon = async <T>(pick: (body: Awaited<ReturnType<typeof config>>) => T, expected: T) =>
  expect.poll(async () => pick(await config()), { timeout: 10_000 }).toEqual(expected);

let made = 0;
/** `count` students, straight into the database: the counts need people, not sign-ins. */
async function students(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `figures-student-${++made}`);
  await t.database.db
    .insertInto('users')
    .values(
      ids.map((id) => ({
        id,
        email: `${id}@example.com`,
        display_name: `Student ${id}`,
        email_verified: true,
        role: 'student' as const,
      })),
    )
    .execute();
  return ids;
}

/** Listed tutors at these rates (published, as the demo data publishes them), verified or not. */
async function listedTutors(rates: number[], options: { verified?: boolean } = {}): Promise<string[]> {
  const tutors = generateDemoTutors(rates.length, 7 + made).map((tutor, index) => ({
    ...tutor,
    id: `figures-tutor-${++made}`,
    email: `figures-tutor-${made}@example.com`,
    hourlyRate: rates[index] as number,
  }));
  await insertDemoTutors(t.database.db, tutors, { photos: false });
  const ids = tutors.map((tutor) => tutor.id);
  if (options.verified)
    await t.database.db
      .updateTable('tutor_profiles')
      .set({ verification_status: 'approved', approved_at: new Date() })
      .where('user_id', 'in', ids)
      .execute();
  return ids;
}

interface Person {
  jar: CookieJar;
  id: string;
  email: string;
  name: string;
}
let admin: Person | undefined;
/** This test's admin, granted the command line's way. */
async function anAdmin(): Promise<Person> {
  if (admin) return admin;
  const who = await verifiedPerson(t, mailbox, 'student', `Figures Admin${++made}`);
  await grantAdmin(t.database.db, who.email);
  admin = { ...who, jar: (await signIn(t, who.email)).jar };
  return admin;
}

const noFigures = { studentsHelped: null, expertTutors: null, lessonsCompleted: null };

describe('a new school', () => {
  it('shows no home page figure, no typical rate and no reply time, rather than the first description’s', async () => {
    const body = await config();
    expect(body.homeFigures).toEqual(noFigures);
    expect(body.typicalHourlyRate).toBeNull();
    expect(body.supportReplyHours).toBeNull();
    expect(JSON.stringify(body)).not.toMatch(/10,000\+|500\+|50,000\+/);
  });
});

describe('the home page’s figures', () => {
  it('are the real counts, each shown once it reaches 10: students who took a lesson, verified tutors, lessons that took place', async () => {
    const [tutor] = await listedTutors([40], { verified: true });
    const nine = await students(9);
    const start = Date.now() - 30 * 24 * HOUR;
    // Nine lessons that took place (the last confirmed, ended, not yet marked by the minute job)...
    for (const [index, student] of nine.entries())
      await insertLesson(t.database.db, {
        tutorId: tutor as string,
        studentId: student,
        status: index === 8 ? 'confirmed' : 'completed',
        start: start + index * 24 * HOUR,
      });
    // ...and lessons that did not: none of these counts, nor their student.
    const [absent, waiting, ahead] = (await students(3)) as [string, string, string];
    const later = Date.now() + 48 * HOUR;
    for (const [status, studentId, at] of [
      ['cancelled', absent, start - 24 * HOUR],
      ['declined', absent, start - 48 * HOUR],
      ['no_show', absent, start - 72 * HOUR],
      ['pending', waiting, later],
      ['confirmed', ahead, later + 24 * HOUR],
    ] as const)
      await insertLesson(t.database.db, { tutorId: tutor as string, studentId, status, start: at });
    // Verified tutors: nine listed and approved, one approved but no longer listed, one listed unverified.
    await listedTutors([30, 31, 32, 33, 34, 35, 36, 37], { verified: true });
    const [unlisted] = await listedTutors([50], { verified: true });
    await t.database.db
      .updateTable('tutor_profiles')
      .set({ published: false })
      .where('user_id', '=', unlisted as string)
      .execute();
    await listedTutors([60]);
    await configSoon((body) => body.homeFigures, noFigures);
    expect((await (await get(t, '/api/admin/settings', (await anAdmin()).jar)).json()).homeCounts).toEqual({
      studentsHelped: 9,
      expertTutors: 9,
      lessonsCompleted: 9,
    });

    // A tenth lesson, with a student who had none: two figures reach 10.
    const [tenth] = await students(1);
    await insertLesson(t.database.db, {
      tutorId: tutor as string,
      studentId: tenth as string,
      status: 'completed',
      start: start + 10 * 24 * HOUR,
    });
    await configSoon((body) => body.homeFigures, {
      studentsHelped: '10',
      expertTutors: null,
      lessonsCompleted: '10',
    });

    // A tenth verified tutor, approved by an admin in the console.
    const applicant = await verifiedPerson(t, mailbox, 'tutor', 'Vera Applicant');
    await publishTutor(t, applicant);
    expect((await send(t, 'POST', '/api/profile/verification-request', {}, applicant.jar)).status).toBe(200);
    const approved = await send(
      t,
      'POST',
      `/api/admin/verifications/${applicant.id}/approve`,
      {},
      (await anAdmin()).jar,
    );
    expect(approved.status, await approved.clone().text()).toBe(200);
    await configSoon((body) => body.homeFigures, {
      studentsHelped: '10',
      expertTutors: '10',
      lessonsCompleted: '10',
    });
  });

  it('are an admin’s once set, until the admin gives the real counts back; each change audited', async () => {
    const who = await anAdmin();
    const figures = { studentsHelped: '1,200+', expertTutors: '35', lessonsCompleted: '8,000+' };
    const set = await send(t, 'PATCH', '/api/admin/settings', { homeFigures: figures }, who.jar);
    expect(set.status, await set.clone().text()).toBe(200);
    const answer = await set.json();
    expect(answer.homeFigures).toEqual(figures);
    expect(answer.changed).toEqual([
      'Students helped: the real count → 1,200+',
      'Expert tutors: the real count → 35',
      'Lessons completed: the real count → 8,000+',
    ]);
    await configSoon((body) => body.homeFigures, figures);

    const back = await send(t, 'PATCH', '/api/admin/settings', { homeFigures: null }, who.jar);
    expect(back.status, await back.clone().text()).toBe(200);
    const restored = await back.json();
    expect(restored.homeFigures).toBeNull();
    expect(restored.changed).toEqual([
      'Students helped: 1,200+ → the real count',
      'Expert tutors: 35 → the real count',
      'Lessons completed: 8,000+ → the real count',
    ]);
    await configSoon((body) => body.homeFigures, noFigures);
    // Given back again: nothing changes, nothing is audited.
    const again = await send(t, 'PATCH', '/api/admin/settings', { homeFigures: null }, who.jar);
    expect((await again.json()).changed).toEqual([]);
    const audited = await t.database.db
      .selectFrom('audit_log')
      .select('reason')
      .where('action', '=', 'settings.changed')
      .orderBy('id')
      .execute();
    expect(audited.map((entry) => entry.reason)).toEqual([
      answer.changed.join('\n'),
      restored.changed.join('\n'),
    ]);
  });
});

describe('what most tutors charge', () => {
  it('is said from five listed tutors on, as the middle 80% of their rates, in the school’s currency', async () => {
    await listedTutors([45, 30, 40, 35]);
    // A profile that is not listed (not public yet) says nothing of what tutors charge.
    const hidden = await verifiedPerson(t, mailbox, 'tutor', 'Hidden Rate');
    const draft = await send(t, 'PATCH', '/api/profile/details', { hourlyRate: 490 }, hidden.jar);
    expect(draft.status, await draft.clone().text()).toBe(200);
    await configSoon((body) => body.homeFigures, noFigures);
    expect((await config()).typicalHourlyRate).toBeNull();

    // Five: "most" is all of them (a tenth of five is none).
    await listedTutors([50]);
    await configSoon((body) => body.typicalHourlyRate, { low: 30, high: 50 });
    expect((await config()).payments.currency).toBe('EUR');

    // Twenty: the two cheapest and the two dearest are left out, whatever they charge.
    await listedTutors([5, 6, 41, 42, 43, 44, 46, 47, 48, 49, 51, 52, 53, 480, 500]);
    await configSoon((body) => body.typicalHourlyRate, { low: 30, high: 53 });
  });
});
