/**
 * Operators over the API, on both stores: the admin role comes only from the command line (and
 * is audited so); only admins reach /api/admin/*; tutor verification with its mails and its
 * badge; REQUIRE_TUTOR_APPROVAL; hiding a message or a review (the author is told, a hidden
 * review leaves the rating); suspension (sign-in refused with the reason and the support address,
 * sessions ended, out of the search, upcoming lessons cancelled with mails); the audit log
 * records each action, refuses change even from SQL, and has no route that changes it.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/server/admin/admin-command';
import { lockDataDir } from '../../src/server/db/data-dir-lock';
import type { Database } from '../../src/server/db/database';
import type { LessonStatusColumn } from '../../src/server/db/schema';
import { HIDDEN_MESSAGE_TEXT } from '../../src/shared/admin/admin-rules';
import { type CookieJar, get, send, signIn, signUp } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { insertLesson } from '../support/lessons';
import { createTestApp, type TestApp, testConfig } from '../support/test-app';

setUpApiTest({ env: { SUPPORT_EMAIL: 'help@school.example' } });

const HOUR = 60 * 60 * 1000;

/** A published tutor (complete profile). */
async function tutor(word = 'Operable'): Promise<Person> {
  const who = await person('tutor');
  const details = {
    headline: `${word} chemistry`,
    about: 'Patient and clear.',
    subjects: ['Chemistry'],
    hourlyRate: 30,
    languages: ['English'],
  };
  expect((await send(t, 'PATCH', '/api/profile/details', details, who.jar)).status).toBe(200);
  return who;
}

/** The command line's database: the test's own, left open when the command closes it. */
const testDatabase = async (): Promise<Database> => ({ ...t.database, close: async () => {} });
const admin = (...args: string[]) => runAdminCommand(args, testDatabase);

let admins = 0;
async function adminPerson(): Promise<Person> {
  const who = await person('student', `Admin Number${++admins}`);
  const granted = await admin('grant', who.email);
  expect(granted).toMatchObject({ exitCode: 0, error: '' });
  return who;
}

const lesson = (teacher: Person, student: Person, status: LessonStatusColumn, hoursFromNow: number) =>
  insertLesson(t.database.db, {
    tutorId: teacher.id,
    studentId: student.id,
    status,
    start: Date.now() + hoursFromNow * HOUR,
  });

const auditActions = async () =>
  (await t.database.db.selectFrom('audit_log').selectAll().orderBy('id').execute()).map((row) => ({
    actor: row.actor,
    action: row.action,
    target: row.target,
    reason: row.reason,
  }));

describe('the admin role, from the command line only', () => {
  it('grants, lists and revokes, each change audited with "command line" as its actor', async () => {
    const who = await person('tutor', 'Grace Granted');
    const session = async () => (await (await get(t, '/api/session', who.jar)).json()).user;
    expect((await session()).isAdmin).toBe(false);
    expect(await admin('grant', who.email.toUpperCase())).toMatchObject({ exitCode: 0 });
    expect((await admin('list')).output).toContain(who.email);
    // The flag sits beside the role, which stays tutor.
    const fresh = await signIn(t, who.email);
    expect((await (await get(t, '/api/session', fresh.jar)).json()).user).toMatchObject({
      role: 'tutor',
      isAdmin: true,
    });
    expect((await get(t, '/api/admin/overview', fresh.jar)).status).toBe(200);
    expect((await admin('grant', who.email)).output).toContain('already an admin');
    expect(await admin('revoke', who.email)).toMatchObject({ exitCode: 0 });
    // Read from the database on every request: the revocation holds at once.
    expect((await get(t, '/api/admin/overview', fresh.jar)).status).toBe(403);
    expect((await admin('list')).output).not.toContain(who.email);
    const log = (await auditActions()).filter((entry) => entry.target.includes(who.email));
    expect(log).toEqual([
      { actor: 'command line', action: 'admin.granted', target: `Grace Granted <${who.email}>`, reason: '' },
      { actor: 'command line', action: 'admin.revoked', target: `Grace Granted <${who.email}>`, reason: '' },
    ]);
  });

  it('refuses unknown accounts, bad addresses and bad usage with a plain message', async () => {
    expect(await admin('grant', 'nobody@example.com')).toMatchObject({
      exitCode: 1,
      error: expect.stringContaining('No account has the email nobody@example.com'),
    });
    expect((await admin('grant', 'not-an-email')).exitCode).toBe(1);
    expect((await admin('promote', 'x@example.com')).exitCode).toBe(2);
    expect((await admin()).error).toContain('npm run admin -- grant');
  });

  it('on the embedded store, says the running server must be stopped first, and how', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tutorlane-admin-'));
    const lock = lockDataDir(dataDir);
    try {
      const config = testConfig({ DATA_DIR: dataDir });
      const { openDatabase } = await import('../../src/server/db/database');
      const result = await runAdminCommand(['list'], () =>
        openDatabase({ databaseUrl: undefined, dataDir: config.dataDir }),
      );
      expect(result.exitCode).toBe(1);
      expect(result.error).toContain(`pid ${process.pid}`);
      expect(result.error).toContain(`Stop the server (Ctrl+C in its terminal, or kill ${process.pid})`);
    } finally {
      lock.release();
    }
  });

  it('can never be chosen at sign-up or set through the profile', async () => {
    const { res, email } = await signUp(t, { name: 'Mallory Mass', role: 'student' });
    expect(res.status).toBe(200);
    const sneaky = await t.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'x-captcha': await (await import('../support/accounts')).solveCaptcha(t) },
      body: JSON.stringify({
        name: 'Mallory Admin',
        email: `admin-${email}`,
        password: 'correct-horse-battery-42',
        confirmPassword: 'correct-horse-battery-42',
        isAdmin: true,
        is_admin: true,
      }),
    });
    expect(sneaky.status).toBeLessThan(500);
    const row = await t.database.db
      .selectFrom('users')
      .select('is_admin')
      .where('email', '=', `admin-${email}`)
      .executeTakeFirst();
    expect(row?.is_admin ?? false).toBe(false);
    const mallory = await person('student');
    expect((await send(t, 'PATCH', '/api/profile', { isAdmin: true }, mallory.jar)).status).toBe(400);
  });
});

describe('only admins reach the console', () => {
  it('answers 401 signed out and 403 to students and tutors, on every admin route', async () => {
    const student = await person('student');
    const someTutor = await tutor();
    const boss = await adminPerson();
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/overview'],
      ['GET', '/api/admin/verifications'],
      ['POST', `/api/admin/verifications/${someTutor.id}/approve`, {}],
      ['POST', `/api/admin/verifications/${someTutor.id}/decline`, { note: 'No.' }],
      ['GET', '/api/admin/reports'],
      ['POST', '/api/admin/reports/message-1/dismiss', {}],
      ['POST', '/api/admin/reports/message-1/hide', {}],
      ['POST', `/api/admin/users/${student.id}/suspend`, { reason: 'Testing' }],
      ['GET', '/api/admin/audit'],
    ];
    for (const [method, path, body] of routes) {
      const call = (jar?: CookieJar) =>
        method === 'GET' ? get(t, path, jar) : send(t, method, path, body, jar);
      expect((await call()).status, `${path} signed out`).toBe(401);
      expect((await call(student.jar)).status, `${path} student`).toBe(403);
      expect((await call(someTutor.jar)).status, `${path} tutor`).toBe(403);
    }
    // Nothing was changed by those refusals.
    expect((await get(t, '/api/admin/overview', boss.jar)).status).toBe(200);
    const row = await t.database.db
      .selectFrom('users')
      .select('suspended_at')
      .where('id', '=', student.id)
      .executeTakeFirstOrThrow();
    expect(row.suspended_at).toBeNull();
  });

  it('refuses bad input with 400 and a message, and unknown things with 404', async () => {
    const boss = await adminPerson();
    const bad = await send(t, 'POST', '/api/admin/users/x/suspend', { reason: '   ' }, boss.jar);
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain('Please give a reason');
    expect(
      (await send(t, 'POST', '/api/admin/users/x/suspend', { reason: 'x', extra: 1 }, boss.jar)).status,
    ).toBe(400);
    expect((await send(t, 'POST', '/api/admin/verifications/nobody/decline', {}, boss.jar)).status).toBe(400);
    expect((await send(t, 'POST', '/api/admin/reports/banana-1/hide', {}, boss.jar)).status).toBe(404);
    expect((await send(t, 'POST', '/api/admin/reports/review-99999/hide', {}, boss.jar)).status).toBe(404);
    expect(
      (await send(t, 'POST', '/api/admin/users/nobody-here/suspend', { reason: 'x' }, boss.jar)).status,
    ).toBe(404);
    expect((await get(t, '/api/admin/audit?before=abc', boss.jar)).status).toBe(400);
    const self = await send(
      t,
      'POST',
      `/api/admin/users/${(await (await get(t, '/api/session', boss.jar)).json()).user.id}/suspend`,
      { reason: 'Oops' },
      boss.jar,
    );
    expect(self.status).toBe(409);
  });
});

describe('tutor verification', () => {
  it('asked for from a complete profile, approved with a mailed note; the badge stays through edits', async () => {
    const boss = await adminPerson();
    const incomplete = await person('tutor');
    const early = await send(t, 'POST', '/api/profile/verification-request', {}, incomplete.jar);
    expect(early.status).toBe(409);
    expect((await early.json()).code).toBe('PROFILE_INCOMPLETE');
    const student = await person('student');
    expect((await send(t, 'POST', '/api/profile/verification-request', {}, student.jar)).status).toBe(403);

    const teacher = await tutor('Verifiable');
    const card = async () =>
      (await (await get(t, '/api/tutors?q=Verifiable')).json()).tutors.find(
        (x: { id: string }) => x.id === teacher.id,
      );
    expect((await card()).verified).toBe(false);
    const asked = await send(t, 'POST', '/api/profile/verification-request', {}, teacher.jar);
    expect(asked.status).toBe(200);
    expect(await asked.json()).toMatchObject({ status: 'requested' });
    expect((await send(t, 'POST', '/api/profile/verification-request', {}, teacher.jar)).status).toBe(409);

    const queue = await (await get(t, '/api/admin/verifications', boss.jar)).json();
    const entry = queue.waiting.find((x: { tutorId: string }) => x.tutorId === teacher.id);
    expect(entry).toMatchObject({
      email: teacher.email,
      status: 'requested',
      profile: { headline: 'Verifiable chemistry', subjects: ['Chemistry'], hourlyRate: 30 },
      history: [{ event: 'requested', hourlyRate: 30, subjects: ['Chemistry'] }],
    });

    const approved = await send(
      t,
      'POST',
      `/api/admin/verifications/${teacher.id}/approve`,
      { note: 'Welcome aboard.' },
      boss.jar,
    );
    expect(approved.status).toBe(200);
    const mail = await mailbox.waitFor((m) => m.to === teacher.email && m.subject.includes('verified'));
    expect(mail.text).toContain('Welcome aboard.');
    expect((await card()).verified).toBe(true);
    // Deciding twice: the second finds nothing waiting.
    expect(
      (await send(t, 'POST', `/api/admin/verifications/${teacher.id}/decline`, { note: 'x' }, boss.jar))
        .status,
    ).toBe(200);
    expect(
      (await send(t, 'POST', `/api/admin/verifications/${teacher.id}/decline`, { note: 'x' }, boss.jar))
        .status,
    ).toBe(409);
    // Asked again after the decline, approved again.
    expect((await send(t, 'POST', '/api/profile/verification-request', {}, teacher.jar)).status).toBe(200);
    expect(
      (await send(t, 'POST', `/api/admin/verifications/${teacher.id}/approve`, {}, boss.jar)).status,
    ).toBe(200);

    // A changed headline keeps the badge and is no change for admins; a rate or subject change is.
    await send(
      t,
      'PATCH',
      '/api/profile/details',
      { headline: 'Verifiable chemistry, now online' },
      teacher.jar,
    );
    expect((await card()).verified).toBe(true);
    let changed = (await (await get(t, '/api/admin/verifications', boss.jar)).json()).changedSinceApproval;
    expect(changed.find((x: { tutorId: string }) => x.tutorId === teacher.id)).toBeUndefined();
    await send(
      t,
      'PATCH',
      '/api/profile/details',
      { hourlyRate: 45, subjects: ['Chemistry', 'Physics'] },
      teacher.jar,
    );
    expect((await card()).verified).toBe(true);
    changed = (await (await get(t, '/api/admin/verifications', boss.jar)).json()).changedSinceApproval;
    expect(changed.find((x: { tutorId: string }) => x.tutorId === teacher.id)?.changesSinceApproval).toEqual({
      hourlyRate: { before: 30, after: 45 },
      subjectsAdded: ['Physics'],
      subjectsRemoved: [],
    });
    const state = await (await get(t, '/api/profile/verification', teacher.jar)).json();
    expect(state).toMatchObject({ status: 'approved' });
  });

  it('declines with a note the tutor receives; a decline needs a note', async () => {
    const boss = await adminPerson();
    const teacher = await tutor();
    await send(t, 'POST', '/api/profile/verification-request', {}, teacher.jar);
    const noNote = await send(t, 'POST', `/api/admin/verifications/${teacher.id}/decline`, {}, boss.jar);
    expect(noNote.status).toBe(400);
    expect((await noNote.json()).message).toContain('note');
    expect(
      (
        await send(
          t,
          'POST',
          `/api/admin/verifications/${teacher.id}/decline`,
          { note: 'Please add a real photo.' },
          boss.jar,
        )
      ).status,
    ).toBe(200);
    const mail = await mailbox.waitFor((m) => m.to === teacher.email && m.subject.includes('declined'));
    expect(mail.text).toContain('Please add a real photo.');
    expect(await (await get(t, '/api/profile/verification', teacher.jar)).json()).toMatchObject({
      status: 'declined',
      lastNote: 'Please add a real photo.',
    });
  });

  it('with REQUIRE_TUTOR_APPROVAL, lists only approved tutors', async () => {
    const strict = await createTestApp({
      database: t.database,
      env: { SMTP_URL: mailbox.smtpUrl, REQUIRE_TUTOR_APPROVAL: 'true' },
    });
    const teacher = await tutor('Strictly');
    const found = async (app: TestApp) =>
      (await (await get(app, '/api/tutors?q=Strictly')).json()).tutors.map((x: { id: string }) => x.id);
    expect(await found(t)).toContain(teacher.id);
    expect(await found(strict)).not.toContain(teacher.id);
    expect((await get(strict, `/api/tutors/${teacher.id}`)).status).toBe(404);
    // Nor can an unlisted tutor be booked by someone who knows the address.
    const hour = 3_600_000;
    const from = new Date(Math.ceil(Date.now() / hour) * hour + 48 * hour).toISOString();
    const to = new Date(Date.parse(from) + 7 * 24 * hour).toISOString();
    const slots = `/api/tutors/${teacher.id}/slots?from=${from}&to=${to}&minutes=60`;
    expect((await get(strict, slots)).status).toBe(404);
    const learner = await person('student');
    const booking = { tutorId: teacher.id, start: from, minutes: 60, subject: 'Chemistry' };
    expect((await send(strict, 'POST', '/api/lessons', booking, learner.jar)).status).toBe(404);
    const boss = await adminPerson();
    await send(t, 'POST', '/api/profile/verification-request', {}, teacher.jar);
    await send(t, 'POST', `/api/admin/verifications/${teacher.id}/approve`, {}, boss.jar);
    expect(await found(strict)).toContain(teacher.id);
    expect((await get(strict, `/api/tutors/${teacher.id}`)).status).toBe(200);
    expect((await get(strict, slots)).status).toBe(200);
  });
});

async function conversationWithMessage(from: Person, to: Person, text: string) {
  const started = await send(t, 'POST', '/api/conversations', { tutorId: to.id, text }, from.jar);
  expect(started.status).toBe(201);
  const body = await started.json();
  return { conversationId: body.id as string, messageId: body.message.id as number };
}

describe('moderation', () => {
  it('lists reports oldest first with the reason and the text as it was; hiding tells the author', async () => {
    const boss = await adminPerson();
    const teacher = await tutor();
    const rude = await person('student');
    const { conversationId, messageId } = await conversationWithMessage(
      rude,
      teacher,
      'You are a terrible teacher!',
    );
    const other = await conversationWithMessage(rude, teacher, 'Second message');
    await send(t, 'POST', `/api/messages/${messageId}/report`, { reason: 'Insulting' }, teacher.jar);
    await send(t, 'POST', `/api/messages/${other.messageId}/report`, { reason: 'Spam' }, teacher.jar);
    const reports = (await (await get(t, '/api/admin/reports', boss.jar)).json()).reports.filter(
      (r: { author: { id: string } }) => r.author.id === rude.id,
    );
    expect(reports.map((r: { reason: string }) => r.reason)).toEqual(['Insulting', 'Spam']);
    expect(reports[0]).toMatchObject({
      id: expect.stringMatching(/^message-\d+$/),
      kind: 'message',
      reportedText: 'You are a terrible teacher!',
      reporter: { id: teacher.id },
      author: { id: rude.id, email: rude.email, suspended: false },
      hidden: false,
    });

    expect(
      (await send(t, 'POST', `/api/admin/reports/${reports[0].id}/hide`, { note: 'Be kind.' }, boss.jar))
        .status,
    ).toBe(200);
    expect((await send(t, 'POST', `/api/admin/reports/${reports[0].id}/hide`, {}, boss.jar)).status).toBe(
      409,
    );
    const told = await mailbox.waitFor((m) => m.to === rude.email && m.subject.includes('removed'));
    expect(told.text).toContain('You are a terrible teacher!');
    expect(told.text).toContain('Be kind.');
    // Both people now see what replaced it, never what it said.
    for (const jar of [teacher.jar, rude.jar]) {
      const page = await (await get(t, `/api/conversations/${conversationId}/messages`, jar)).json();
      const hidden = page.messages.find((m: { id: number }) => m.id === messageId);
      expect(hidden).toMatchObject({ hidden: true, text: HIDDEN_MESSAGE_TEXT });
      expect(JSON.stringify(page)).not.toContain('terrible');
    }
    // Dismissing the other one settles it without touching the message.
    expect((await send(t, 'POST', `/api/admin/reports/${reports[1].id}/dismiss`, {}, boss.jar)).status).toBe(
      200,
    );
    const open = (await (await get(t, '/api/admin/reports', boss.jar)).json()).reports;
    expect(open.filter((r: { author: { id: string } }) => r.author.id === rude.id)).toEqual([]);
  });

  it('hides a review: off the tutor page and out of the rating', async () => {
    const boss = await adminPerson();
    const teacher = await tutor('Rated');
    const fair = await person('student');
    const harsh = await person('student');
    for (const student of [fair, harsh]) await lesson(teacher, student, 'completed', -48);
    await send(
      t,
      'PUT',
      `/api/tutors/${teacher.id}/review`,
      { rating: 5, text: 'Wonderful lessons, very clear.' },
      fair.jar,
    );
    const bad = await send(
      t,
      'PUT',
      `/api/tutors/${teacher.id}/review`,
      { rating: 1, text: 'Awful person, do not book them ever.' },
      harsh.jar,
    );
    const reviewId = (await bad.json()).id;
    await send(t, 'POST', `/api/reviews/${reviewId}/report`, { reason: 'Personal attack' }, teacher.jar);
    expect((await (await get(t, `/api/tutors/${teacher.id}/reviews`)).json()).average).toBe(3);
    const report = (await (await get(t, '/api/admin/reports', boss.jar)).json()).reports.find(
      (r: { kind: string; author: { id: string } }) => r.kind === 'review' && r.author.id === harsh.id,
    );
    expect(report).toMatchObject({
      reportedText: 'Awful person, do not book them ever.',
      tutorName: teacher.name,
    });
    expect((await send(t, 'POST', `/api/admin/reports/${report.id}/hide`, {}, boss.jar)).status).toBe(200);
    const after = await (await get(t, `/api/tutors/${teacher.id}/reviews`)).json();
    expect(after).toMatchObject({ average: 5, count: 1 });
    expect(after.reviews.map((r: { id: string }) => r.id)).not.toContain(reviewId);
    const card = (await (await get(t, '/api/tutors?q=Rated')).json()).tutors.find(
      (x: { id: string }) => x.id === teacher.id,
    );
    expect(card.rating).toEqual({ average: 5, count: 1 });
    await mailbox.waitFor((m) => m.to === harsh.email && m.subject.includes('review of yours was removed'));
  });

  it('suspends: sessions end, sign-in is refused with the reason and support address, out of search, lessons cancelled', async () => {
    const boss = await adminPerson();
    const teacher = await tutor('Suspendable');
    const student = await person('student');
    const otherStudent = await person('student');
    const upcoming = await lesson(teacher, student, 'confirmed', 72);
    const requested = await lesson(teacher, otherStudent, 'pending', 96);
    const past = await lesson(teacher, student, 'completed', -72);
    const { messageId } = await conversationWithMessage(student, teacher, 'Hello');
    const reply = await send(
      t,
      'POST',
      `/api/conversations/${(await (await get(t, '/api/conversations', teacher.jar)).json()).conversations[0].id}/messages`,
      { text: 'Send me money' },
      teacher.jar,
    );
    await send(t, 'POST', `/api/messages/${(await reply.json()).id}/report`, { reason: 'Scam' }, student.jar);
    expect(messageId).toBeGreaterThan(0);
    const inSearch = async () =>
      (await (await get(t, '/api/tutors?q=Suspendable')).json()).tutors.some(
        (x: { id: string }) => x.id === teacher.id,
      );
    expect(await inSearch()).toBe(true);

    const res = await send(
      t,
      'POST',
      `/api/admin/users/${teacher.id}/suspend`,
      { reason: 'Asked students for money' },
      boss.jar,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ suspended: true, cancelledLessons: 2 });
    expect(
      (await send(t, 'POST', `/api/admin/users/${teacher.id}/suspend`, { reason: 'Again' }, boss.jar)).status,
    ).toBe(409);

    // Signed out at once, and cannot sign in again: told why, and where to write.
    expect((await get(t, '/api/profile', teacher.jar)).status).toBe(401);
    const refused = await signIn(t, teacher.email);
    expect(refused.res.status).toBe(403);
    const body = await refused.res.json();
    expect(body.message).toContain('Asked students for money');
    expect(body.message).toContain('help@school.example');
    // A wrong password is still only a wrong password.
    expect((await signIn(t, teacher.email, 'wrong-password-42')).res.status).toBe(401);

    expect(await inSearch()).toBe(false);
    expect((await get(t, `/api/tutors/${teacher.id}`)).status).toBe(404);

    const statuses = await t.database.db
      .selectFrom('lessons')
      .select(['id', 'status'])
      .where('id', 'in', [upcoming, requested, past])
      .execute();
    expect(Object.fromEntries(statuses.map((l) => [l.id, l.status]))).toEqual({
      [upcoming]: 'cancelled',
      [requested]: 'cancelled',
      [past]: 'completed',
    });
    // The student reads it as called off by Tutorlane, not by the tutor, and with no reason of theirs.
    const seen = await (await get(t, `/api/lessons/${upcoming}`, student.jar)).json();
    expect(seen.cancellation).toMatchObject({ by: 'tutorlane', at: expect.any(String), reason: null });
    for (const who of [student, otherStudent]) {
      const mail = await mailbox.waitFor(
        (m) => m.to === who.email && m.subject.startsWith('Lesson cancelled'),
      );
      expect(mail.text).toContain('no longer active');
    }
    // The confirmed lesson's mail withdraws its calendar invitation; the request was never in one.
    const cancelMail = mailbox.mailsTo(student.email).find((m) => m.subject.startsWith('Lesson cancelled'));
    expect(cancelMail?.calendar).toContain('METHOD:CANCEL');
    await mailbox.waitFor((m) => m.to === teacher.email && m.subject.includes('suspended'));
    // The report about what they wrote is settled by the suspension.
    const open = (await (await get(t, '/api/admin/reports', boss.jar)).json()).reports;
    expect(open.filter((r: { author: { id: string } }) => r.author.id === teacher.id)).toEqual([]);

    // Whoever runs the server may lift it: sign-in works again, the profile is listed again, the
    // cancelled lessons stay cancelled, and the audit log says so.
    const lifted = await admin('lift-suspension', teacher.email);
    expect(lifted).toMatchObject({ exitCode: 0, output: expect.stringContaining('may sign in again') });
    expect((await admin('lift-suspension', teacher.email)).output).toContain('was not suspended');
    expect((await signIn(t, teacher.email)).res.status).toBe(200);
    expect(await inSearch()).toBe(true);
    const [entry] = (await (await get(t, '/api/admin/audit', boss.jar)).json()).entries;
    expect(entry).toMatchObject({ actor: 'command line', action: 'user.suspension_lifted' });
    expect(entry.target).toContain(teacher.email);
    const still = await t.database.db
      .selectFrom('lessons')
      .select('status')
      .where('id', '=', upcoming)
      .executeTakeFirst();
    expect(still?.status).toBe('cancelled');
  });
  it('expires a request whose answer was overdue, mailing its expiry, and cancels only live ones', async () => {
    const boss = await adminPerson();
    const teacher = await tutor('Overdue');
    const waiting = await person('student');
    const live = await person('student');
    // Asked two days ago for a lesson in two days: the tutor's time to answer ran out an hour ago,
    // and no minute job has written it expired yet.
    const overdue = await lesson(teacher, waiting, 'pending', 48);
    await t.database.db
      .updateTable('lessons')
      .set({ expires_at: new Date(Date.now() - HOUR) })
      .where('id', '=', overdue)
      .execute();
    const open = await lesson(teacher, live, 'pending', 72);

    const res = await send(
      t,
      'POST',
      `/api/admin/users/${teacher.id}/suspend`,
      { reason: 'Testing overdue requests' },
      boss.jar,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ suspended: true, cancelledLessons: 1 });
    const statuses = await t.database.db
      .selectFrom('lessons')
      .select(['id', 'status'])
      .where('id', 'in', [overdue, open])
      .execute();
    expect(Object.fromEntries(statuses.map((l) => [l.id, l.status]))).toEqual({
      [overdue]: 'expired',
      [open]: 'cancelled',
    });
    await mailbox.waitFor((m) => m.to === waiting.email && m.subject.startsWith('Lesson request expired'));
    await mailbox.waitFor((m) => m.to === live.email && m.subject.startsWith('Lesson cancelled'));
    expect(mailbox.mailsTo(waiting.email).some((m) => m.subject.startsWith('Lesson cancelled'))).toBe(false);
  });
});

describe('the audit log', () => {
  it('records who did what, when and why, newest first, in pages', async () => {
    const boss = await adminPerson();
    const teacher = await tutor();
    await send(t, 'POST', '/api/profile/verification-request', {}, teacher.jar);
    await send(
      t,
      'POST',
      `/api/admin/verifications/${teacher.id}/decline`,
      { note: 'Photo missing' },
      boss.jar,
    );
    const page = await (await get(t, '/api/admin/audit', boss.jar)).json();
    expect(page.entries[0]).toMatchObject({
      actor: expect.stringContaining(boss.email),
      action: 'tutor.declined',
      target: expect.stringContaining(teacher.email),
      reason: 'Photo missing',
      at: expect.any(String),
    });
    expect(page.entries.map((e: { action: string }) => e.action)).toContain('admin.granted');
    const older = await (await get(t, `/api/admin/audit?before=${page.entries[0].id}`, boss.jar)).json();
    expect(older.entries[0].id).toBeLessThan(page.entries[0].id);
  });

  it('has no route that changes it, and the database refuses change too', async () => {
    const boss = await adminPerson();
    const id = (await (await get(t, '/api/admin/audit', boss.jar)).json()).entries[0].id;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const path of ['/api/admin/audit', `/api/admin/audit/${id}`]) {
        const res = await send(t, method, path, { reason: 'rewritten' }, boss.jar);
        expect(res.status, `${method} ${path}`).toBe(404);
      }
    }
    const routes = t.app.routes.filter((r) => r.path.includes('/audit') && r.method !== 'ALL');
    expect([...new Set(routes.map((r) => `${r.method} ${r.path}`))]).toEqual(['GET /api/admin/audit']);
    await expect(sql`update audit_log set reason = 'rewritten'`.execute(t.database.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from audit_log`.execute(t.database.db)).rejects.toThrow(/append-only/);
  });

  it('lets the words of an entry change only to erase an account that is deleted, never what was done', async () => {
    const boss = await adminPerson();
    const named = await person('student', 'Nadia Namedinlog');
    const suspended = await send(
      t,
      'POST',
      `/api/admin/users/${named.id}/suspend`,
      { reason: 'Spam' },
      boss.jar,
    );
    expect(suspended.status, await suspended.clone().text()).toBe(200);
    const entry = await t.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('target_id', '=', named.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    /** One statement in a transaction that names `erasing` as the account being erased. */
    const whileErasing = (erasing: string, statement: ReturnType<typeof sql>) =>
      t.database.db.transaction().execute(async (trx) => {
        await sql`select set_config('tutorlane.erasing_account', ${erasing}, true)`.execute(trx);
        await statement.execute(trx);
      });
    const relabel = sql`update audit_log set target = 'Deleted user' where id = ${entry.id}`;
    // The account is not deleted: refused.
    await expect(whileErasing(named.id, relabel)).rejects.toThrow(/append-only/);
    await t.database.db
      .updateTable('users')
      .set({ deleted_at: new Date() })
      .where('id', '=', named.id)
      .execute();
    // Deleted: its words may go, but not what was done, to whom or when, and nothing is deleted.
    for (const change of [
      sql`update audit_log set action = 'user.suspension_lifted' where id = ${entry.id}`,
      sql`update audit_log set target_id = null where id = ${entry.id}`,
      sql`update audit_log set created_at = now() - interval '1 day' where id = ${entry.id}`,
      sql`delete from audit_log where id = ${entry.id}`,
    ])
      await expect(whileErasing(named.id, change)).rejects.toThrow(/append-only/);
    await expect(relabel.execute(t.database.db)).rejects.toThrow(/append-only/);
    await whileErasing(named.id, relabel);
    const after = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'target_id'])
      .where('id', '=', entry.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ action: 'user.suspended', target: 'Deleted user', target_id: named.id });
  });
});

describe('the overview', () => {
  it('counts users, tutors, lessons, reports and the outbox, and lists contact messages with their state', async () => {
    const boss = await adminPerson();
    await send(t, 'POST', '/api/contact', {
      name: 'Visitor',
      email: 'visitor@example.com',
      subject: 'other',
      message: 'Hello there',
    });
    const overview = await (await get(t, '/api/admin/overview', boss.jar)).json();
    const counted = await t.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('role', '=', 'student')
      .executeTakeFirstOrThrow();
    expect(overview.users.students).toBe(Number(counted.n));
    expect(overview.users.admins).toBeGreaterThan(0);
    expect(overview).toMatchObject({
      tutors: { listed: expect.any(Number), waiting: expect.any(Number), approved: expect.any(Number) },
      lessonsThisWeek: { booked: expect.any(Number) },
      openReports: { total: expect.any(Number) },
      mailOutbox: { waiting: expect.any(Number), failed: 0 },
      settings: { requireTutorApproval: false },
    });
    const contact = overview.contactMessages.find(
      (m: { email: string }) => m.email === 'visitor@example.com',
    );
    expect(contact).toMatchObject({ name: 'Visitor', message: 'Hello there' });
    expect(['waiting', 'forwarded']).toContain(contact.state);
    await t.mailer.deliverDue();
    await mailbox.waitFor((m) => m.subject.includes('contact'));
    const later = await (await get(t, '/api/admin/overview', boss.jar)).json();
    expect(
      later.contactMessages.find((m: { email: string }) => m.email === 'visitor@example.com').state,
    ).toBe('forwarded');
  });
});
