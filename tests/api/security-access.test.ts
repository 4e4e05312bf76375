/**
 * Who may call what (issue #5, items 8-10 and 13): a route matrix for every API route and every
 * kind of visitor, no mass assignment, no cross-site writes, no GET that writes, no CORS, and the
 * security headers on every response.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exposedAuthEndpoints } from '../../src/server/accounts/account-routes';
import { type CookieJar, get, signUp, verifiedUser } from '../support/accounts';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { createTestApp, type TestApp } from '../support/test-app';

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
}

let tinyPng: Uint8Array;

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
  { method: 'GET', path: '/api/tutors/no-such-tutor', pattern: '/api/tutors/:id', expected: 404 },
  { method: 'GET', path: '/api/tutors/no-such-tutor/photo', pattern: '/api/tutors/:id/photo', expected: 404 },
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
    for (const endpoint of exposedAuthEndpoints) {
      const [method, path] = endpoint.split(' ');
      registered.add(`${method} /api/auth${path}`);
    }
    expect(registered.size).toBeGreaterThanOrEqual(matrix.length);
    expect([...registered].filter((route) => !inMatrix.has(route))).toEqual([]);
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

  it('never returns another user’s data', async () => {
    const others = (visitor: Visitor) =>
      (Object.keys(visitors) as Visitor[])
        .filter((other) => other !== visitor && visitors[other].email)
        .map((other) => visitors[other].email as string);
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
    const snapshot = async () => {
      const db = t.database.db;
      const count = async (
        table:
          | 'users'
          | 'accounts'
          | 'sessions'
          | 'contact_messages'
          | 'mail_outbox'
          | 'email_verification_tokens',
      ) =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const users = await db
        .selectFrom('users')
        .select(['id', 'display_name', 'role', 'email_verified', 'updated_at'])
        .orderBy('id')
        .execute();
      return JSON.stringify({
        users,
        accounts: await count('accounts'),
        sessions: await count('sessions'),
        contact: await count('contact_messages'),
        mail: await count('mail_outbox'),
        tokens: await count('email_verification_tokens'),
      });
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
    expect(await snapshot()).toBe(before);
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
  const check = (res: Response, label: string) => {
    const csp = res.headers.get('content-security-policy') ?? '';
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc, label).toContain("'self'");
    expect(scriptSrc, label).not.toContain('unsafe-inline');
    expect(scriptSrc, label).not.toContain('unsafe-eval');
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
      check(await t.request(path), path);
    }
    check(await t.request('/api/contact', { method: 'POST', body: 'not json' }), 'POST error');
  });

  it('send no Referer from the pages whose URL carries a token', async () => {
    for (const path of ['/reset-password?token=abc', '/verify-email?token=abc']) {
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
