/**
 * Who may call what: a route matrix for every API route and every
 * kind of visitor, no mass assignment, no cross-site writes, no GET that writes, no CORS, and the
 * security headers on every response.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantAdmin } from '../../src/server/admin/admins';
import { generateDemoTutors, insertDemoTutors } from '../../src/server/demo/demo-tutors';
import { type CookieJar, get, send, signIn, signUp, verifiedUser } from '../support/accounts';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { createTestApp, type TestApp } from '../support/test-app';
import { testStore } from '../support/test-database';

let t: TestApp;
let mailbox: MailCatcher;
const visitors: Record<
  'anonymous' | 'unverified' | 'student' | 'tutor',
  { jar?: CookieJar; email?: string }
> = {
  anonymous: {},
  unverified: {},
  student: {},
  tutor: {},
};

beforeAll(async () => {
  tinyPng = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#4338ca' } })
    .png()
    .toBuffer();
  mailbox = await startMailCatcher();
  const clientDir = mkdtempSync(join(tmpdir(), 'tutorlane-client-'));
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>shell</title>');
  t = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl }, clientDir });
  const unverified = await signUp(t, { name: 'Una Unverified' });
  const student = await verifiedUser(t, mailbox, { name: 'Stu Student' });
  const tutor = await verifiedUser(t, mailbox, { name: 'Tia Tutor', role: 'tutor' });
  visitors.unverified = unverified;
  visitors.student = student;
  visitors.tutor = tutor;
  // A tutor anyone may see: verified, complete, with a photo (not a visitor: the matrix's tutor
  // removes their own photo).
  await insertDemoTutors(t.database.db, [published], { photos: true });
  // A pending reset link, so the verifications table has a row a GET could touch.
  await send(t, 'POST', '/api/auth/request-password-reset', { email: student.email });
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

type Visitor = keyof typeof visitors;
type Expected = number | Record<Visitor, number>;
const signedIn = (anonymous: number, status: number) => ({
  anonymous,
  unverified: status,
  student: status,
  tutor: status,
});

interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** The registered pattern when the path has a parameter. */
  pattern?: string;
  body?: (visitor: Visitor) => unknown;
  /** A raw (non-JSON) body, such as an image. */
  raw?: () => Uint8Array;
  expected: Expected;
  /** For the operators' routes: what an admin gets. */
  admin?: number;
}

/** Signed in and verified: 200 (or `ok`) for either role. */
const verifiedOnly = (ok: number): Expected => ({ anonymous: 401, unverified: 403, student: ok, tutor: ok });
const tutorsOnly = (ok: number): Expected => ({ anonymous: 401, unverified: 403, student: 403, tutor: ok });
const adminsOnly: Expected = { anonymous: 401, unverified: 403, student: 403, tutor: 403 };
const inDays = (days: number) =>
  new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + days * 86_400_000).toISOString();
const NO_LESSON = '00000000-0000-4000-8000-000000000000';
/** A token no family invitation has. */
const NO_INVITATION = 'no-such-invitation-token-0000';
const availability = {
  timeZone: 'Europe/Rome',
  weekly: [{ weekday: 1, start: '09:00', end: '12:00' }],
  overrides: [],
  lessonMinutes: [60],
  slotStepMinutes: 30,
  minimumNoticeHours: 12,
  bookingHorizonDays: 60,
  bufferMinutes: 0,
  instantBooking: true,
};

let tinyPng: Uint8Array;
const published = generateDemoTutors(10).find((tutor) => tutor.withPhoto) as ReturnType<
  typeof generateDemoTutors
>[number];

/** Every API route, what each visitor sends, and the status each must get. */
const matrix: Route[] = [
  { method: 'GET', path: '/api/health', expected: 200 },
  { method: 'GET', path: '/api/config', expected: 200 },
  { method: 'GET', path: '/api/captcha/challenge', expected: 200 },
  { method: 'GET', path: '/api/session', expected: 200 },
  { method: 'GET', path: '/api/profile', expected: signedIn(401, 200) },
  { method: 'PATCH', path: '/api/profile', body: () => ({}), expected: signedIn(401, 200) },
  {
    method: 'GET',
    path: '/api/dashboard',
    expected: { anonymous: 401, unverified: 403, student: 200, tutor: 200 },
  },
  {
    method: 'GET',
    path: '/api/schedule',
    expected: { anonymous: 401, unverified: 403, student: 200, tutor: 200 },
  },
  {
    method: 'GET',
    path: '/api/schedule/class-sessions',
    expected: { anonymous: 401, unverified: 403, student: 200, tutor: 200 },
  },
  {
    method: 'POST',
    path: '/api/contact',
    body: () => ({ name: 'Matrix', email: 'matrix@example.com', subject: 'other', message: 'Route matrix' }),
    expected: 201,
  },
  {
    method: 'POST',
    path: '/api/account/verify-email',
    body: () => ({ token: 'x'.repeat(43) }),
    expected: 400,
  },
  { method: 'POST', path: '/api/auth/sign-up/email', body: () => ({ name: 'x' }), expected: 400 },
  {
    method: 'POST',
    path: '/api/auth/sign-in/email',
    body: () => ({ email: 'nobody@example.com', password: 'wrong-password-42' }),
    expected: 401,
  },
  {
    method: 'POST',
    path: '/api/auth/send-verification-email',
    body: (visitor) => ({ email: visitors[visitor].email ?? 'nobody@example.com' }),
    // Signed in and already verified: Better Auth says so (to you, about you).
    expected: { anonymous: 200, unverified: 200, student: 400, tutor: 400 },
  },
  {
    method: 'POST',
    path: '/api/auth/request-password-reset',
    body: () => ({ email: 'nobody@example.com' }),
    expected: 200,
  },
  {
    method: 'POST',
    path: '/api/auth/reset-password',
    body: () => ({ token: 'y'.repeat(24), newPassword: 'some-new-pass-42' }),
    expected: 400,
  },
  { method: 'GET', path: '/api/profile/details', expected: signedIn(401, 200) },
  { method: 'PATCH', path: '/api/profile/details', body: () => ({}), expected: signedIn(401, 200) },
  {
    method: 'POST',
    path: '/api/profile/time-zone',
    body: () => ({ timeZone: 'Europe/Rome' }),
    expected: signedIn(401, 200),
  },
  { method: 'GET', path: '/api/profile/photo', expected: signedIn(401, 404) },
  {
    method: 'PUT',
    path: '/api/profile/photo',
    raw: () => tinyPng,
    expected: { anonymous: 401, unverified: 403, student: 403, tutor: 200 },
  },
  {
    method: 'DELETE',
    path: '/api/profile/photo',
    expected: { anonymous: 401, unverified: 403, student: 403, tutor: 200 },
  },
  { method: 'GET', path: '/api/tutors', expected: 200 },
  { method: 'GET', path: '/api/tutors/featured', expected: 200 },
  { method: 'GET', path: `/api/tutors/${published.id}`, pattern: '/api/tutors/:id', expected: 200 },
  {
    method: 'GET',
    path: `/api/tutors/${published.id}/photo`,
    pattern: '/api/tutors/:id/photo',
    expected: 200,
  },
  { method: 'GET', path: '/api/tutors/no-such-tutor', pattern: '/api/tutors/:id', expected: 404 },
  { method: 'GET', path: '/api/tutors/no-such-tutor/photo', pattern: '/api/tutors/:id/photo', expected: 404 },
  {
    method: 'GET',
    path: `/api/tutors/${published.id}/reviews`,
    pattern: '/api/tutors/:id/reviews',
    expected: 200,
  },
  {
    method: 'PUT',
    path: `/api/tutors/${published.id}/review`,
    pattern: '/api/tutors/:id/review',
    body: () => ({ rating: 5, text: 'Route matrix review, long enough.' }),
    // Nobody here has had a lesson with the demo tutor.
    expected: verifiedOnly(403),
  },
  {
    method: 'POST',
    path: `/api/reviews/${NO_LESSON}/answer`,
    pattern: '/api/reviews/:id/answer',
    body: () => ({ text: 'Route matrix' }),
    expected: verifiedOnly(404),
  },
  {
    method: 'POST',
    path: `/api/reviews/${NO_LESSON}/report`,
    pattern: '/api/reviews/:id/report',
    body: () => ({ reason: 'Route matrix' }),
    expected: verifiedOnly(404),
  },
  { method: 'GET', path: '/api/availability', expected: tutorsOnly(200) },
  { method: 'PUT', path: '/api/availability', body: () => availability, expected: tutorsOnly(200) },
  {
    method: 'GET',
    path: `/api/tutors/${published.id}/slots?from=${inDays(1)}&to=${inDays(8)}&minutes=60`,
    pattern: '/api/tutors/:id/slots',
    expected: 200,
  },
  {
    method: 'POST',
    path: '/api/lessons',
    body: () => ({ tutorId: published.id, start: inDays(3), minutes: 60, subject: published.subjects[0] }),
    // The demo tutor offers no hours: a student may book, but not this time.
    expected: { anonymous: 401, unverified: 403, student: 409, tutor: 403 },
  },
  { method: 'GET', path: '/api/lessons', expected: verifiedOnly(200) },
  {
    method: 'GET',
    path: `/api/lessons/${NO_LESSON}`,
    pattern: '/api/lessons/:id',
    expected: verifiedOnly(404),
  },
  ...(['accept', 'decline', 'cancel'] as const).map(
    (action): Route => ({
      method: 'POST',
      path: `/api/lessons/${NO_LESSON}/${action}`,
      pattern: `/api/lessons/:id/${action}`,
      body: () => ({}),
      expected: verifiedOnly(404),
    }),
  ),
  {
    method: 'POST',
    path: `/api/lessons/${NO_LESSON}/reschedule`,
    pattern: '/api/lessons/:id/reschedule',
    body: () => ({ start: inDays(4) }),
    expected: verifiedOnly(404),
  },
  {
    method: 'POST',
    path: `/api/lessons/${NO_LESSON}/propose`,
    pattern: '/api/lessons/:id/propose',
    body: () => ({ start: inDays(4) }),
    expected: verifiedOnly(404),
  },
  ...(['accept', 'decline'] as const).map(
    (action): Route => ({
      method: 'POST',
      path: `/api/lessons/${NO_LESSON}/proposal/${action}`,
      pattern: `/api/lessons/:id/proposal/${action}`,
      body: () => ({}),
      expected: verifiedOnly(404),
    }),
  ),
  {
    method: 'POST',
    path: `/api/lessons/${NO_LESSON}/no-show`,
    pattern: '/api/lessons/:id/no-show',
    body: () => ({}),
    expected: verifiedOnly(404),
  },
  {
    method: 'GET',
    path: `/api/lessons/${NO_LESSON}/notes`,
    pattern: '/api/lessons/:id/notes',
    expected: verifiedOnly(404),
  },
  {
    method: 'PUT',
    path: `/api/lessons/${NO_LESSON}/notes`,
    pattern: '/api/lessons/:id/notes',
    body: () => ({ covered: 'Route matrix', homework: '' }),
    expected: verifiedOnly(404),
  },
  // A tutor reads goals of a student they teach (?studentId=), and sets none of their own.
  {
    method: 'GET',
    path: '/api/goals',
    expected: { anonymous: 401, unverified: 403, student: 200, tutor: 404 },
  },
  {
    method: 'POST',
    path: '/api/goals',
    body: () => ({ subject: 'Physics', title: 'Route matrix' }),
    expected: { anonymous: 401, unverified: 403, student: 201, tutor: 403 },
  },
  {
    method: 'PATCH',
    path: `/api/goals/${NO_LESSON}`,
    pattern: '/api/goals/:id',
    body: () => ({ title: 'Route matrix' }),
    expected: verifiedOnly(404),
  },
  {
    method: 'POST',
    path: `/api/goals/${NO_LESSON}/milestones`,
    pattern: '/api/goals/:id/milestones',
    body: () => ({ title: 'Route matrix' }),
    expected: verifiedOnly(404),
  },
  {
    method: 'PATCH',
    path: `/api/milestones/${NO_LESSON}`,
    pattern: '/api/milestones/:id',
    body: () => ({ done: true }),
    expected: verifiedOnly(404),
  },
  {
    method: 'GET',
    path: '/api/history/no-such-person',
    pattern: '/api/history/:id',
    expected: verifiedOnly(404),
  },
  {
    method: 'GET',
    path: `/api/lessons/${NO_LESSON}/room`,
    pattern: '/api/lessons/:id/room',
    expected: verifiedOnly(404),
  },
  {
    method: 'GET',
    path: `/api/lessons/${NO_LESSON}/room/chat`,
    pattern: '/api/lessons/:id/room/chat',
    expected: verifiedOnly(404),
  },
  ...(
    [
      ['join', {}],
      ['signal', { peer: 'route-matrix', signal: { kind: 'hello' } }],
      ['chat', { text: 'Route matrix' }],
    ] as const
  ).map(
    ([action, body]): Route => ({
      method: 'POST',
      path: `/api/lessons/${NO_LESSON}/room/${action}`,
      pattern: `/api/lessons/:id/room/${action}`,
      body: () => body,
      expected: verifiedOnly(404),
    }),
  ),
  // Families: only a parent adds, changes and invites children; no child has this id, and no
  // invitation this token.
  { method: 'GET', path: '/api/family', expected: verifiedOnly(200) },
  {
    method: 'POST',
    path: '/api/family/children',
    body: () => ({ firstName: 'Route', birthYear: 2015 }),
    expected: { anonymous: 401, unverified: 403, student: 403, tutor: 403 },
  },
  ...(
    [
      ['PATCH', '', { monthlyLimitCents: null }],
      ['DELETE', '', undefined],
      ['POST', '/invite', { email: 'route-matrix-child@example.test' }],
    ] as const
  ).map(
    ([method, action, body]): Route => ({
      method,
      path: `/api/family/children/${NO_LESSON}${action}`,
      pattern: `/api/family/children/:id${action}`,
      ...(body ? { body: () => body } : {}),
      expected: { anonymous: 401, unverified: 403, student: 403, tutor: 403 },
    }),
  ),
  {
    method: 'POST',
    path: '/api/family/parent-invitations',
    body: () => ({ email: 'route-matrix-parent@example.test' }),
    expected: { anonymous: 401, unverified: 403, student: 200, tutor: 403 },
  },
  {
    method: 'GET',
    path: `/api/family/invitations/${NO_INVITATION}`,
    pattern: '/api/family/invitations/:token',
    expected: 404,
  },
  {
    method: 'POST',
    path: `/api/family/invitations/${NO_INVITATION}/accept`,
    pattern: '/api/family/invitations/:token/accept',
    body: () => ({ password: 'route-matrix-password-1' }),
    expected: 404,
  },
  // Group classes: no class has this id, so those who get past the guards are told it does not exist.
  { method: 'GET', path: '/api/classes', expected: 200 },
  { method: 'GET', path: `/api/classes/${NO_LESSON}`, pattern: '/api/classes/:id', expected: 404 },
  {
    method: 'POST',
    path: '/api/classes',
    body: () => ({
      title: 'Route matrix',
      subject: 'Algebra',
      language: 'English',
      minutes: 60,
      seats: 3,
      minStudents: 1,
      priceCents: 1000,
      sessions: [inDays(5)],
    }),
    // The matrix's tutor has published nothing: only a published tutor creates a class.
    expected: tutorsOnly(403),
  },
  {
    method: 'POST',
    path: `/api/classes/${NO_LESSON}/enrol`,
    pattern: '/api/classes/:id/enrol',
    expected: { anonymous: 401, unverified: 403, student: 404, tutor: 403 },
  },
  ...(['leave', 'cancel'] as const).map(
    (action): Route => ({
      method: 'POST',
      path: `/api/classes/${NO_LESSON}/${action}`,
      pattern: `/api/classes/:id/${action}`,
      body: () => ({ reason: 'Route matrix' }),
      expected: verifiedOnly(404),
    }),
  ),
  ...(
    [
      ['GET', '', undefined],
      ['GET', '/chat', undefined],
      ['POST', '/join', {}],
      ['POST', '/signal', { peer: 'route-matrix', signal: { kind: 'hello' } }],
      ['POST', '/chat', { text: 'Route matrix' }],
      ['POST', '/mute', { userId: 'route-matrix' }],
    ] as const
  ).map(
    ([method, action, body]): Route => ({
      method,
      path: `/api/classes/${NO_LESSON}/sessions/${NO_LESSON}/room${action}`,
      pattern: `/api/classes/:id/sessions/:sessionId/room${action}`,
      ...(body ? { body: () => body } : {}),
      expected: verifiedOnly(404),
    }),
  ),
  { method: 'GET', path: '/api/calendar-feed', expected: verifiedOnly(200) },
  { method: 'POST', path: '/api/calendar-feed', body: () => ({}), expected: verifiedOnly(200) },
  { method: 'DELETE', path: '/api/calendar-feed', expected: verifiedOnly(200) },
  {
    method: 'GET',
    path: `/api/calendar/${'n'.repeat(32)}.ics`,
    pattern: '/api/calendar/:token',
    expected: 404,
  },
  { method: 'GET', path: '/api/conversations', expected: verifiedOnly(200) },
  { method: 'GET', path: '/api/conversations/unread', expected: verifiedOnly(200) },
  {
    method: 'POST',
    path: '/api/conversations',
    body: () => ({ tutorId: published.id, text: 'Route matrix' }),
    // A tutor names a student (studentId), not a tutor.
    expected: { anonymous: 401, unverified: 403, student: 201, tutor: 400 },
  },
  {
    method: 'GET',
    path: `/api/conversations/${NO_LESSON}`,
    pattern: '/api/conversations/:id',
    expected: verifiedOnly(404),
  },
  {
    method: 'GET',
    path: `/api/conversations/${NO_LESSON}/messages`,
    pattern: '/api/conversations/:id/messages',
    expected: verifiedOnly(404),
  },
  {
    method: 'POST',
    path: `/api/conversations/${NO_LESSON}/messages`,
    pattern: '/api/conversations/:id/messages',
    body: () => ({ text: 'Anyone there?' }),
    expected: verifiedOnly(404),
  },
  {
    method: 'POST',
    path: `/api/conversations/${NO_LESSON}/read`,
    pattern: '/api/conversations/:id/read',
    body: () => ({}),
    expected: verifiedOnly(404),
  },
  {
    method: 'POST',
    path: '/api/support/conversation',
    body: () => ({}),
    // Each visitor's first call makes their one support conversation; an admin is support (409).
    expected: verifiedOnly(201),
    admin: 409,
  },
  {
    method: 'POST',
    path: '/api/blocks',
    body: () => ({ userId: published.id }),
    expected: verifiedOnly(200),
  },
  {
    method: 'DELETE',
    path: `/api/blocks/${published.id}`,
    pattern: '/api/blocks/:userId',
    expected: verifiedOnly(200),
  },
  {
    method: 'POST',
    path: '/api/messages/999999999/report',
    pattern: '/api/messages/:id/report',
    body: () => ({ reason: 'Route matrix' }),
    expected: verifiedOnly(404),
  },
  // Without an Upgrade header: the address is only for the live channel's WebSocket.
  { method: 'GET', path: '/api/live', expected: verifiedOnly(426) },
  { method: 'GET', path: '/api/profile/verification', expected: tutorsOnly(200) },
  {
    method: 'POST',
    path: '/api/profile/verification-request',
    body: () => ({}),
    // The matrix's tutor has no complete profile yet.
    expected: tutorsOnly(409),
  },
  // The operators' console: admins only, whatever else the visitor is.
  { method: 'GET', path: '/api/admin/overview', expected: adminsOnly, admin: 200 },
  // A backup of the embedded store; PostgreSQL is backed up with its own tools.
  {
    method: 'GET',
    path: '/api/admin/backup',
    expected: adminsOnly,
    admin: testStore === 'embedded' ? 200 : 409,
  },
  { method: 'GET', path: '/api/admin/verifications', expected: adminsOnly, admin: 200 },
  ...(['approve', 'decline'] as const).map(
    (action): Route => ({
      method: 'POST',
      path: `/api/admin/verifications/${published.id}/${action}`,
      pattern: `/api/admin/verifications/:tutorId/${action}`,
      body: () => ({ note: 'Route matrix' }),
      // The demo tutor has not asked for review.
      expected: adminsOnly,
      admin: 409,
    }),
  ),
  { method: 'GET', path: '/api/admin/reports', expected: adminsOnly, admin: 200 },
  ...(['dismiss', 'hide'] as const).map(
    (action): Route => ({
      method: 'POST',
      path: `/api/admin/reports/message-999999999/${action}`,
      pattern: `/api/admin/reports/:id/${action}`,
      body: () => ({}),
      expected: adminsOnly,
      admin: 404,
    }),
  ),
  {
    method: 'POST',
    path: '/api/admin/users/no-such-user/suspend',
    pattern: '/api/admin/users/:id/suspend',
    body: () => ({ reason: 'Route matrix' }),
    expected: adminsOnly,
    admin: 404,
  },
  {
    method: 'POST',
    path: '/api/admin/lessons/00000000-0000-4000-8000-000000000000/cancel',
    pattern: '/api/admin/lessons/:id/cancel',
    body: () => ({ reason: 'Route matrix' }),
    expected: adminsOnly,
    admin: 404,
  },
  {
    method: 'POST',
    path: '/api/admin/lessons/00000000-0000-4000-8000-000000000000/move',
    pattern: '/api/admin/lessons/:id/move',
    body: () => ({ start: inDays(4), reason: 'Route matrix' }),
    expected: adminsOnly,
    admin: 404,
  },
  { method: 'GET', path: '/api/admin/audit', expected: adminsOnly, admin: 200 },
  { method: 'GET', path: '/api/admin/lessons', expected: adminsOnly, admin: 200 },
  { method: 'GET', path: '/api/admin/classes', expected: adminsOnly, admin: 200 },
  {
    method: 'DELETE',
    path: `/api/admin/classes/${NO_LESSON}/students/${NO_LESSON}`,
    pattern: '/api/admin/classes/:id/students/:studentId',
    body: () => ({ reason: 'Route matrix' }),
    expected: adminsOnly,
    admin: 404,
  },
  // Two-factor sign-in, Better Auth's own routes: a wrong password or code changes nothing.
  {
    method: 'POST',
    path: '/api/auth/two-factor/enable',
    body: () => ({ password: 'not-the-password' }),
    expected: signedIn(401, 400),
  },
  ...(['generate-backup-codes', 'get-totp-uri'] as const).map(
    (action): Route => ({
      method: 'POST',
      path: `/api/auth/two-factor/${action}`,
      body: () => ({ password: 'not-the-password', code: '000000' }),
      expected: signedIn(401, 400),
    }),
  ),
  ...(['verify-totp', 'verify-backup-code'] as const).map(
    (action): Route => ({
      method: 'POST',
      path: `/api/auth/two-factor/${action}`,
      body: () => ({ code: '000000' }),
      expected: signedIn(401, 400),
    }),
  ),
  {
    method: 'POST',
    path: '/api/auth/two-factor/disable',
    body: () => ({ password: 'not-the-password', code: '000000' }),
    expected: signedIn(401, 400),
  },
  // A person's own data: the export, the money left (none here: no refund to ask for), and a
  // deletion refused for the wrong password.
  { method: 'GET', path: '/api/account/export', expected: signedIn(401, 200) },
  { method: 'GET', path: '/api/account/money-left', expected: signedIn(401, 200) },
  {
    method: 'POST',
    path: '/api/account/refund-request',
    body: () => ({}),
    expected: verifiedOnly(409),
  },
  {
    method: 'POST',
    path: '/api/account/delete',
    body: () => ({ password: 'not-the-password' }),
    expected: signedIn(401, 403),
  },
  // Weekly series: a preview books nothing; a series nobody has is 404.
  {
    method: 'GET',
    path: `/api/lessons/preview-series?tutorId=${published.id}&start=${encodeURIComponent(inDays(5))}&minutes=60&repeatWeeks=4`,
    pattern: '/api/lessons/preview-series',
    // Students only; the demo tutor keeps no weekly hours, so the first week is not offered.
    expected: { anonymous: 401, unverified: 403, student: 409, tutor: 403 },
  },
  {
    method: 'GET',
    path: `/api/series/${NO_LESSON}`,
    pattern: '/api/series/:id',
    expected: verifiedOnly(404),
  },
  ...(['accept', 'decline', 'cancel'] as const).map(
    (action): Route => ({
      method: 'POST',
      path: `/api/series/${NO_LESSON}/${action}`,
      pattern: `/api/series/:id/${action}`,
      body: () => ({}),
      expected: verifiedOnly(404),
    }),
  ),
  // Packages: this app takes no payments, so nothing can be bought.
  { method: 'GET', path: '/api/packages', expected: verifiedOnly(200) },
  {
    method: 'POST',
    path: '/api/packages',
    body: () => ({ tutorId: published.id, lessons: 5, minutes: 60 }),
    expected: { anonymous: 401, unverified: 403, student: 409, tutor: 403 },
  },
  {
    method: 'POST',
    path: `/api/packages/${NO_LESSON}/end`,
    pattern: '/api/packages/:id/end',
    body: () => ({}),
    expected: { anonymous: 401, unverified: 403, student: 404, tutor: 403 },
  },
  // Money. This app runs with PAYMENTS=off, so a student's top-up is refused with 409.
  { method: 'GET', path: '/api/wallet/summary', expected: verifiedOnly(200) },
  { method: 'GET', path: '/api/wallet', expected: verifiedOnly(200) },
  {
    method: 'POST',
    path: '/api/wallet/top-ups',
    body: () => ({ amountCents: 1000, method: 'manual' }),
    expected: { anonymous: 401, unverified: 403, student: 409, tutor: 403 },
  },
  {
    method: 'POST',
    path: '/api/wallet/top-ups/00000000-0000-4000-8000-000000000000/withdraw',
    pattern: '/api/wallet/top-ups/:id/withdraw',
    body: () => ({}),
    expected: { anonymous: 401, unverified: 403, student: 404, tutor: 403 },
  },
  {
    method: 'GET',
    path: '/api/wallet/transactions/999999999/receipt',
    pattern: '/api/wallet/transactions/:id/receipt',
    expected: verifiedOnly(404),
  },
  // Stripe is not configured: there is no webhook to call.
  { method: 'POST', path: '/api/payments/stripe/webhook', body: () => ({}), expected: 404 },
  { method: 'GET', path: '/api/admin/finance', expected: adminsOnly, admin: 200 },
  ...(['confirm', 'reject'] as const).map(
    (action): Route => ({
      method: 'POST',
      path: `/api/admin/top-ups/00000000-0000-4000-8000-000000000000/${action}`,
      pattern: `/api/admin/top-ups/:id/${action}`,
      body: () => ({ note: 'Route matrix' }),
      expected: adminsOnly,
      admin: 404,
    }),
  ),
  {
    method: 'POST',
    path: '/api/admin/payouts',
    body: () => ({ tutorId: 'no-such-user', amountCents: 100, reference: 'Route matrix' }),
    expected: adminsOnly,
    admin: 404,
  },
  {
    method: 'POST',
    path: '/api/admin/refunds',
    body: () => ({ studentId: 'no-such-user', amountCents: 100, reference: 'Route matrix' }),
    expected: adminsOnly,
    admin: 404,
  },
  {
    method: 'POST',
    path: '/api/admin/packages/00000000-0000-4000-8000-000000000000/refund',
    pattern: '/api/admin/packages/:id/refund',
    body: () => ({ amountCents: 100, reference: 'Route matrix' }),
    expected: adminsOnly,
    admin: 404,
  },
  {
    method: 'POST',
    path: '/api/admin/lessons/00000000-0000-4000-8000-000000000000/refund',
    pattern: '/api/admin/lessons/:id/refund',
    body: () => ({ reason: 'Route matrix' }),
    expected: adminsOnly,
    admin: 404,
  },
  { method: 'GET', path: '/api/admin/finance/payables.csv', expected: adminsOnly, admin: 200 },
  { method: 'GET', path: '/api/admin/finance/entries.csv', expected: adminsOnly, admin: 200 },
  { method: 'GET', path: '/api/admin/settings', expected: adminsOnly, admin: 200 },
  {
    method: 'PATCH',
    path: '/api/admin/settings',
    // The figures in effect (none set: the real counts): an admin's answer is 200 with nothing changed.
    body: () => ({ homeFigures: null }),
    expected: adminsOnly,
    admin: 200,
  },
];
const signOutRoute: Route = { method: 'POST', path: '/api/auth/sign-out', body: () => ({}), expected: 200 };

function call(route: Route, visitor: Visitor, extraHeaders: Record<string, string> = {}) {
  const jar = visitors[visitor].jar;
  return t.request(route.path, {
    method: route.method,
    headers: {
      ...(jar ? { cookie: jar.header() } : {}),
      ...(route.raw ? { 'content-type': 'image/png' } : {}),
      ...extraHeaders,
    },
    ...(route.body ? { body: JSON.stringify(route.body(visitor)) } : {}),
    ...(route.raw ? { body: route.raw() as BodyInit } : {}),
  });
}

describe('route matrix', () => {
  it('covers every API route the app has', () => {
    const registered = new Set(
      t.app.routes
        .filter(
          (route) => route.path.startsWith('/api/') && route.method !== 'ALL' && !route.path.includes('*'),
        )
        .map((route) => `${route.method} ${route.path}`),
    );
    const inMatrix = new Set(
      [...matrix, signOutRoute].map((route) => `${route.method} ${route.pattern ?? route.path}`),
    );
    expect([...registered].filter((route) => !inMatrix.has(route))).toEqual([]);
    expect([...inMatrix].filter((route) => !registered.has(route))).toEqual([]);
  });

  for (const visitor of Object.keys(visitors) as Visitor[]) {
    it(`gives the ${visitor} visitor exactly the expected status on every route`, async () => {
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const route of matrix) {
        const key = `${route.method} ${route.path}`;
        got[key] = (await call(route, visitor)).status;
        want[key] = typeof route.expected === 'number' ? route.expected : route.expected[visitor];
      }
      expect(got).toEqual(want);
    });
  }

  it('gives an admin the console, and the console only what the row says', async () => {
    const admin = await verifiedUser(t, mailbox, { name: 'Ada Admin' });
    expect((await grantAdmin(t.database.db, admin.email)).changed).toBe(true);
    const { jar } = await signIn(t, admin.email);
    const got: Record<string, number> = {};
    const want: Record<string, number> = {};
    for (const route of matrix.filter((row) => row.admin !== undefined)) {
      const key = `${route.method} ${route.path}`;
      got[key] = (
        await t.request(route.path, {
          method: route.method,
          headers: { cookie: jar.header() },
          ...(route.body ? { body: JSON.stringify(route.body('student')) } : {}),
        })
      ).status;
      want[key] = route.admin as number;
    }
    expect(Object.keys(want)).toHaveLength(27);
    expect(got).toEqual(want);
  });

  it('never returns another user’s data', async () => {
    const others = (visitor: Visitor) => [
      published.email,
      ...(Object.keys(visitors) as Visitor[])
        .filter((other) => other !== visitor && visitors[other].email)
        .map((other) => visitors[other].email as string),
    ];
    for (const visitor of Object.keys(visitors) as Visitor[]) {
      for (const route of matrix.filter((r) => r.method === 'GET')) {
        const text = await (await call(route, visitor)).text();
        for (const email of others(visitor)) expect(text, `${visitor} ${route.path}`).not.toContain(email);
      }
    }
  });
});

describe('mass assignment', () => {
  it('changes nothing through role, emailVerified, email, id or __proto__ in a profile update', async () => {
    const { jar, email } = await signUp(t, { name: 'Mass Assign' });
    const before = await (await get(t, '/api/profile', jar)).json();
    const attempts = [
      '{"role":"tutor"}',
      '{"emailVerified":true}',
      '{"email":"attacker@example.com"}',
      '{"id":"someone-else"}',
      '{"uid":"someone-else"}',
      '{"__proto__":{"role":"tutor","emailVerified":true}}',
      '{"displayName":"Ok","constructor":{"prototype":{"role":"tutor"}}}',
    ];
    for (const body of attempts) {
      const res = await t.request('/api/profile', {
        method: 'PATCH',
        body,
        headers: { cookie: jar.header() },
      });
      expect(res.status, body).toBe(400);
    }
    const after = await (await get(t, '/api/profile', jar)).json();
    expect(after).toEqual(before);
    expect(after).toMatchObject({ email, role: 'student', emailVerified: false });
    const row = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 'student', email_verified: false });
  });

  it('refuses a role other than student or tutor at sign-up', async () => {
    const { res } = await signUp(t, { role: 'admin' });
    expect(res.status).toBe(400);
  });
});

describe('cross-site requests', () => {
  it('refuses every state-changing request from a foreign Origin with 403', async () => {
    for (const route of [...matrix.filter((r) => r.method !== 'GET'), signOutRoute]) {
      for (const visitor of ['anonymous', 'student'] as const) {
        const res = await call(route, visitor, { origin: 'https://evil.example' });
        expect(res.status, `${route.method} ${route.path}`).toBe(403);
      }
    }
    const bySite = await call(matrix.find((r) => r.path === '/api/contact') as Route, 'student', {
      origin: '',
      'sec-fetch-site': 'cross-site',
    });
    expect(bySite.status).toBe(403);
  });

  it('changes nothing on any GET', async () => {
    const db = t.database.db;
    // Columns the mail worker updates on its own as it delivers, whatever the requests do.
    const deliveryState: Record<string, string[]> = {
      mail_outbox: ['attempts', 'next_attempt_at', 'claimed_until', 'sent_at', 'last_error'],
    };
    /** Every row of every table the database has, as text: the schema, not a list here, says which. */
    const snapshot = async () => {
      const state: Record<string, string[]> = {};
      for (const table of await db.introspection.getTables()) {
        const columns = table.columns
          .map((column) => column.name)
          .filter((name) => !deliveryState[table.name]?.includes(name));
        const { rows } = await sql<Record<string, unknown>>`select ${sql.join(
          columns.map((name) => sql.ref(name)),
        )} from ${sql.table(table.name)}`.execute(db);
        state[table.name] = rows
          // The export counts its downloads (a heavy answer, limited per person): bookkeeping of
          // the request itself, not a change to anyone's data.
          .filter((row) => !(table.name === 'rate_limits' && String(row.key).startsWith('accountExport:')))
          .map((row) => JSON.stringify(row))
          .sort();
      }
      return state;
    };
    const before = await snapshot();
    for (const visitor of Object.keys(visitors) as Visitor[]) {
      for (const route of matrix.filter((r) => r.method === 'GET')) await call(route, visitor);
      // GET on a state-changing path is not a way in either.
      for (const path of [
        '/api/auth/sign-out',
        '/api/auth/sign-up/email',
        '/api/account/verify-email',
        '/api/contact',
      ]) {
        const res = await t.request(path, {
          headers: visitors[visitor].jar ? { cookie: visitors[visitor].jar.header() } : {},
        });
        expect(res.status, path).toBe(404);
      }
    }
    // The tables a GET could most plausibly touch are there, and hold rows.
    for (const table of ['users', 'sessions', 'tutor_profiles', 'profile_photos', 'verifications']) {
      expect(before[table]?.length, table).toBeGreaterThan(0);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('never answers CORS for another origin', async () => {
    for (const route of matrix) {
      const preflight = await t.request(route.path, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': route.method },
      });
      expect(preflight.headers.get('access-control-allow-origin'), route.path).toBeNull();
      const res = await call(
        route,
        'student',
        route.method === 'GET' ? { origin: 'https://evil.example' } : {},
      );
      expect(res.headers.get('access-control-allow-origin'), route.path).toBeNull();
      expect(res.headers.get('access-control-allow-credentials'), route.path).toBeNull();
    }
  });
});

describe('security headers', () => {
  const check = (res: Response, label: string, kind: 'api' | 'document' = 'document') => {
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = csp.split(';').map((d) => d.trim());
    // A page may run its own scripts only; an API answer is data, and may load nothing at all.
    expect(directives, label).toContain(kind === 'api' ? "default-src 'none'" : "script-src 'self'");
    expect(csp, label).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      expect(csp, label).toContain(directive);
    }
    expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
    expect(['no-referrer', 'same-origin', 'strict-origin']).toContain(res.headers.get('referrer-policy'));
  };

  it('are on every kind of response: API, page, unknown page, unknown API path, error', async () => {
    for (const path of [
      '/api/health',
      '/',
      '/contact',
      '/no-such-page',
      '/api/no-such-route',
      '/api/profile',
    ]) {
      check(await t.request(path), path, path.startsWith('/api/') ? 'api' : 'document');
    }
    check(await t.request('/api/contact', { method: 'POST', body: 'not json' }), 'POST error', 'api');
  });

  it('send no Referer from the pages whose URL carries a token', async () => {
    for (const path of [
      '/reset-password?token=abc',
      '/verify-email?token=abc',
      // The browser app shows the same pages at these addresses.
      '/reset-password/?token=abc',
      '/verify-email/?token=abc',
      '/Reset-Password?token=abc',
    ]) {
      expect((await t.request(path)).headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });

  it('keep auth answers out of every cache', async () => {
    for (const route of matrix.filter(
      (r) => r.path.startsWith('/api/auth') || r.path.startsWith('/api/account'),
    )) {
      expect((await call(route, 'student')).headers.get('cache-control'), route.path).toBe('no-store');
    }
    for (const path of ['/api/session', '/api/profile']) {
      expect((await get(t, path, visitors.student.jar)).headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('add HSTS only when the site is served over https', async () => {
    expect((await t.request('/')).headers.get('strict-transport-security')).toBeNull();
    const secure = await createTestApp({ env: { APP_URL: 'https://tutorlane.example' } });
    try {
      expect((await secure.request('/api/health')).headers.get('strict-transport-security')).toMatch(
        /max-age=\d+/,
      );
    } finally {
      await secure.close();
    }
  });
});

it('signs out every visitor kind with 200', async () => {
  for (const visitor of Object.keys(visitors) as Visitor[]) {
    expect((await call(signOutRoute, visitor)).status, visitor).toBe(200);
  }
  expect((await get(t, '/api/profile', visitors.student.jar)).status).toBe(401);
});
