/**
 * The guards a route puts after the session middleware: what each refuses, and that a handler
 * behind one reads the signed-in user as present while a handler without one cannot.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/http/api-error';
import type { AppEnv } from '../../src/server/http/app-env';
import {
  adminOnly,
  signedInOnly,
  signedInWithRole,
  verifiedOnly,
  verifiedWithRole,
} from '../../src/server/platform/session-guards';
import type { SessionUser } from '../../src/shared/session-user';

const someone: SessionUser = {
  id: 'u1',
  email: 'sam@example.com',
  displayName: 'Sam',
  role: 'student',
  emailVerified: true,
  timeZone: null,
  isAdmin: false,
  twoFactorEnabled: false,
  language: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};

/**
 * An app whose session middleware puts `user` on the context, and whether the session proved a
 * second factor, then one route behind `guard`.
 */
function appWith(user: SessionUser | null, guard: typeof signedInOnly, secondFactorProved = false) {
  return new Hono<AppEnv>()
    .use('*', async (c, next) => {
      c.set('user', user);
      c.set('secondFactorProved', secondFactorProved);
      await next();
    })
    .get('/guarded', guard, (c) => c.json({ id: c.var.user.id }))
    .onError((error, c) =>
      error instanceof ApiError ? c.json({ code: error.code }, error.status) : c.json({}, 500),
    );
}

async function answer(user: SessionUser | null, guard: typeof signedInOnly, secondFactorProved = false) {
  const res = await appWith(user, guard, secondFactorProved).request('/guarded');
  return { status: res.status, body: await res.json() };
}

describe('session guards', () => {
  it('refuse a visitor with 401, whichever the guard', async () => {
    for (const guard of [
      signedInOnly,
      verifiedOnly,
      adminOnly(true),
      verifiedWithRole('tutor', 'Tutors only'),
    ])
      expect(await answer(null, guard)).toEqual({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });

  it('let the signed-in user through to a handler that reads them', async () => {
    expect(await answer(someone, signedInOnly)).toEqual({ status: 200, body: { id: 'u1' } });
    expect(await answer(someone, verifiedWithRole('student', 'Students only'))).toEqual({
      status: 200,
      body: { id: 'u1' },
    });
  });

  it('refuse an unverified email, a non-admin and the other role with 403', async () => {
    const unverified = { ...someone, emailVerified: false };
    expect(await answer(unverified, verifiedOnly)).toEqual({
      status: 403,
      body: { code: 'EMAIL_NOT_VERIFIED' },
    });
    expect(await answer(unverified, signedInOnly)).toMatchObject({ status: 200 });
    expect(await answer(someone, adminOnly(false))).toEqual({ status: 403, body: { code: 'FORBIDDEN' } });
    expect(await answer({ ...someone, isAdmin: true }, adminOnly(false))).toMatchObject({ status: 200 });
    expect(await answer(someone, verifiedWithRole('tutor', 'Tutors only'))).toEqual({
      status: 403,
      body: { code: 'FORBIDDEN' },
    });
    expect(await answer(unverified, signedInWithRole('student', 'Students only'))).toMatchObject({
      status: 200,
    });
  });

  it('refuse an admin without two-factor sign-in when it is required, and let them in once it is on, in a session that proved it', async () => {
    const admin = { ...someone, isAdmin: true };
    expect(await answer(someone, adminOnly(true), true)).toEqual({
      status: 403,
      body: { code: 'FORBIDDEN' },
    });
    expect(await answer(admin, adminOnly(true))).toEqual({
      status: 403,
      body: { code: 'TWO_FACTOR_REQUIRED' },
    });
    // On, but this session was made with the password alone.
    expect(await answer({ ...admin, twoFactorEnabled: true }, adminOnly(true))).toEqual({
      status: 403,
      body: { code: 'TWO_FACTOR_REQUIRED' },
    });
    expect(await answer({ ...admin, twoFactorEnabled: true }, adminOnly(true), true)).toMatchObject({
      status: 200,
    });
    // Where it is optional, the password alone is enough.
    expect(await answer(admin, adminOnly(false))).toMatchObject({ status: 200 });
  });

  it('cannot be left out: a handler without one does not type-check, and would fail on a visitor', async () => {
    const unguarded = new Hono<AppEnv>()
      .use('*', async (c, next) => {
        c.set('user', null);
        await next();
      })
      // @ts-expect-error: without a guard `user` may be null; `npm run typecheck` fails if this compiles.
      .get('/unguarded', (c) => c.json({ id: c.var.user.id }));
    expect((await unguarded.request('/unguarded')).status).toBe(500);
  });
});
