/**
 * Property-based fuzzing of every JSON endpoint: whatever arrives, never a
 * 5xx, and every 4xx is JSON with a message and no stack trace; a body over 100 KB gets 413.
 * It runs on the embedded store only (vitest.config.ts says why).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiters } from '../../src/server/rate-limit/rate-limits';
import { type CookieJar, signUp } from '../support/accounts';
import { createTestApp, type TestApp } from '../support/test-app';
import { createTestDatabase } from '../support/test-database';

const RUNS = 1000;

let t: TestApp;
let jar: CookieJar;
let tutorJar: CookieJar;
let verifiedJars: { student: CookieJar; tutor: CookieJar };

const jarFor = (signedIn: (typeof endpoints)[number]['signedIn']) =>
  signedIn === 'tutor'
    ? tutorJar
    : signedIn === 'verified student'
      ? verifiedJars.student
      : signedIn === 'verified tutor'
        ? verifiedJars.tutor
        : jar;
beforeAll(async () => {
  // A thousand profile saves by one user would meet its hourly limit after 60: lift it, so the
  // bodies reach the validation they are here to fuzz.
  const database = await createTestDatabase();
  const limiters = createRateLimiters({
    database,
    rules: Object.fromEntries(
      (['profileUpdate', 'lessonChanges', 'messages', 'newConversations'] as const).map((name) => [
        name,
        { points: 100 * RUNS, durationSeconds: 3600 },
      ]),
    ),
  });
  t = await createTestApp({ database, overrides: { limiters } });
  jar = (await signUp(t)).jar;
  tutorJar = (await signUp(t, { role: 'tutor' })).jar;
  // Lessons and messages are for verified accounts: these two are verified in the database.
  const verified = async (role: 'student' | 'tutor') => {
    const account = await signUp(t, { role });
    await t.database.db
      .updateTable('users')
      .set({ email_verified: true })
      .where('email', '=', account.email)
      .execute();
    return account.jar;
  };
  verifiedJars = { student: await verified('student'), tutor: await verified('tutor') };
});
afterAll(async () => {
  await t.close();
});

/** NUL, other control characters, and the characters that change how text around them is shown. */
const awkwardCharacter = fc.constantFrom(
  'a',
  ' ',
  '@',
  '.',
  '\u0000',
  '\u0001',
  '\u001b',
  '\t',
  '\n',
  '\r',
  '\u007f',
  '\u0085',
  '\u202e',
  '\u2066',
  '\u200b',
  '\ufeff',
);

/** Values that look like what each field expects, and everything that does not. */
const fieldValue = fc.oneof(
  fc.jsonValue(),
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: awkwardCharacter }),
  fc.emailAddress(),
  fc.constantFrom(
    '',
    ' ',
    'student',
    'tutor',
    'admin',
    'general',
    'x'.repeat(200),
    '\r\nBcc: a@b.c',
    '<script>',
    '__proto__',
    'abc\u0000def',
    'ada\u0000@example.com',
    'Ada\u202eecalevoL',
  ),
  fc.integer(),
  fc.constant(null),
);
const field = (keys: string[]) =>
  fc.dictionary(fc.constantFrom(...keys, '__proto__', 'constructor', 'extra'), fieldValue);

const endpoints: {
  method: 'POST' | 'PATCH' | 'PUT';
  path: string;
  keys: string[];
  signedIn?: boolean | 'tutor' | 'verified student' | 'verified tutor';
  captcha?: boolean;
}[] = [
  {
    method: 'POST',
    path: '/api/auth/sign-up/email',
    keys: ['name', 'email', 'password', 'confirmPassword', 'role'],
    captcha: true,
  },
  { method: 'POST', path: '/api/auth/sign-in/email', keys: ['email', 'password', 'rememberMe'] },
  { method: 'POST', path: '/api/auth/sign-out', keys: [] },
  { method: 'POST', path: '/api/auth/send-verification-email', keys: ['email', 'callbackURL'] },
  { method: 'POST', path: '/api/auth/request-password-reset', keys: ['email', 'redirectTo'] },
  { method: 'POST', path: '/api/auth/reset-password', keys: ['token', 'newPassword', 'confirmPassword'] },
  { method: 'POST', path: '/api/account/verify-email', keys: ['token'], signedIn: true },
  { method: 'POST', path: '/api/contact', keys: ['name', 'email', 'subject', 'message'] },
  { method: 'PATCH', path: '/api/profile', keys: ['displayName', 'role', 'email'], signedIn: true },
  {
    method: 'PATCH',
    path: '/api/profile/details',
    keys: ['timeZone', 'learningGoals', 'headline'],
    signedIn: true,
  },
  {
    method: 'PATCH',
    path: '/api/profile/details',
    keys: ['timeZone', 'headline', 'about', 'subjects', 'hourlyRate', 'languages', 'yearsExperience'],
    signedIn: 'tutor',
  },
  { method: 'POST', path: '/api/profile/time-zone', keys: ['timeZone'], signedIn: true },
  {
    method: 'PUT',
    path: '/api/availability',
    keys: [
      'timeZone',
      'weekly',
      'overrides',
      'lessonMinutes',
      'slotStepMinutes',
      'minimumNoticeHours',
      'bufferMinutes',
    ],
    signedIn: 'verified tutor',
  },
  {
    method: 'POST',
    path: '/api/lessons',
    keys: ['tutorId', 'start', 'minutes', 'subject', 'note'],
    signedIn: 'verified student',
  },
  {
    method: 'POST',
    path: '/api/conversations',
    keys: ['tutorId', 'studentId', 'text'],
    signedIn: 'verified student',
  },
  { method: 'POST', path: '/api/blocks', keys: ['userId'], signedIn: 'verified student' },
  {
    method: 'POST',
    path: `/api/lessons/${crypto.randomUUID()}/room/signal`,
    keys: ['peer', 'signal', 'kind', 'sdp', 'candidate'],
    signedIn: 'verified student',
  },
];

const body = (keys: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: field(keys).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string() },
  );

async function expectWellFormed(res: Response, label: string) {
  expect(res.status, label).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.headers.get('content-type'), label).toContain('application/json');
    const parsed = (await res.json()) as { message?: unknown };
    expect(typeof parsed.message, label).toBe('string');
    expect(String(parsed.message).length, label).toBeGreaterThan(0);
    expect(JSON.stringify(parsed), label).not.toMatch(/\s+at \S+ \(|node_modules|\.ts:\d+/);
  }
}

describe('text with a NUL or another control character', () => {
  it('is refused with 400 and a message in every free-text field, never a 500', async () => {
    const cases: [string, string, unknown, string?][] = [
      ['POST', '/api/auth/reset-password', { token: 'abc\u0000def', newPassword: 'brand-new-pass-42' }],
      [
        'POST',
        '/api/contact',
        { name: 'Ada', email: 'ada@example.com', subject: 'general', message: 'hi\u0000there' },
      ],
      ['PATCH', '/api/profile/details', { learningGoals: 'algebra\u0000' }],
      ['PATCH', '/api/profile/details', { about: 'I teach\u0007 maths' }, 'tutor'],
      ['PATCH', '/api/profile', { displayName: 'Ada\u0000' }],
    ];
    for (const [method, path, payload, role] of cases) {
      const res = await t.request(path, {
        method,
        body: JSON.stringify(payload),
        headers: { cookie: (role === 'tutor' ? tutorJar : jar).header() },
      });
      expect(res.status, `${path} ${JSON.stringify(payload)}`).toBe(400);
      await expectWellFormed(res, path);
    }
  });

  it('keeps tabs and line breaks in text written over several lines', async () => {
    const res = await t.request('/api/profile/details', {
      method: 'PATCH',
      body: JSON.stringify({ learningGoals: 'Algebra:\n\t- equations\r\n\t- graphs' }),
      headers: { cookie: jar.header() },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).learningGoals).toBe('Algebra:\n\t- equations\r\n\t- graphs');
  });
});

describe('every JSON endpoint', () => {
  for (const endpoint of endpoints) {
    const who = typeof endpoint.signedIn === 'string' ? ` (as a ${endpoint.signedIn})` : '';
    it(`${endpoint.method} ${endpoint.path}${who} survives ${RUNS} arbitrary bodies`, async () => {
      await fc.assert(
        fc.asyncProperty(
          body(endpoint.keys),
          fc.option(fc.string({ maxLength: 300 })),
          async (payload, captcha) => {
            const headers: Record<string, string> = {};
            if (endpoint.signedIn) headers.cookie = jarFor(endpoint.signedIn).header();
            if (endpoint.captcha && captcha !== null) headers['x-captcha'] = captcha;
            const res = await t.request(endpoint.path, { method: endpoint.method, body: payload, headers });
            await expectWellFormed(res, `${endpoint.path} ${payload.slice(0, 200)}`);
          },
        ),
        { numRuns: RUNS },
      );
    }, 120_000);

    it(`${endpoint.method} ${endpoint.path}${who} answers a body over 100 KB with 413`, async () => {
      const res = await t.request(endpoint.path, {
        method: endpoint.method,
        body: JSON.stringify({ filler: 'x'.repeat(101 * 1024) }),
        headers: endpoint.signedIn
          ? { cookie: (endpoint.signedIn === 'tutor' ? tutorJar : jar).header() }
          : {},
      });
      expect(res.status).toBe(413);
      await expectWellFormed(res, endpoint.path);
    });
  }
});
