/**
 * POST /api/auth/sign-in/email, on our own short path (issue #6: sign-in throughput is bounded by
 * the password hash, so nothing else may cost much). It keeps Better Auth's formats exactly: the
 * session row Better Auth reads, renews and deletes, and its signed session cookie. One join finds
 * the account, argon2id verifies off the main thread, one insert creates the session.
 * An unknown email is verified against a dummy hash, so it costs the same time as a wrong password
 * and gets the same answer. See docs/decisions/0005-performance-paths.md.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import { MAX_PASSWORD_LENGTH } from '../../shared/constants';
import { messages } from '../../shared/messages';
import { emailSchema } from '../../shared/schemas';
import type { DB } from '../db/schema';
import { errorResponse } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { hashPassword, verifyPassword } from './password-hashing';
import { SESSION_COOKIE, SESSION_EXPIRES_IN_SECONDS } from './session';

export interface SignInOptions {
  db: Kysely<DB>;
  secret: string;
  secureCookie: boolean;
}

export function createSignIn(options: SignInOptions) {
  const { db } = options;
  const cookieName = options.secureCookie ? `__Secure-${SESSION_COOKIE}` : SESSION_COOKIE;
  // Made once, in the background: what an unknown email is checked against.
  const dummyHash = hashPassword(randomBytes(16).toString('hex'));

  function sessionCookie(token: string): string {
    const signature = createHmac('sha256', options.secret).update(token).digest('base64');
    const secure = options.secureCookie ? '; Secure' : '';
    return `${cookieName}=${encodeURIComponent(`${token}.${signature}`)}; Max-Age=${SESSION_EXPIRES_IN_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure}`;
  }

  return async (c: Context<AppEnv>) => {
    c.header('Cache-Control', 'no-store');
    const body = (await c.req.json().catch(() => null)) as { email?: unknown; password?: unknown } | null;
    const rawEmail = typeof body?.email === 'string' ? body.email : '';
    const password = typeof body?.password === 'string' ? body.password : '';
    if (!rawEmail.trim() || !password)
      return errorResponse(c, 400, messages.fillAllFields, 'VALIDATION_ERROR');
    if (password.length > MAX_PASSWORD_LENGTH)
      return errorResponse(c, 400, messages.passwordTooLong, 'PASSWORD_TOO_LONG');
    const email = emailSchema.safeParse(rawEmail);
    if (!email.success) return errorResponse(c, 400, messages.invalidEmail, 'INVALID_EMAIL');

    const account = await db
      .selectFrom('users as u')
      .innerJoin('accounts as a', (join) =>
        join.onRef('a.user_id', '=', 'u.id').on('a.provider_id', '=', 'credential'),
      )
      .select([
        'u.id',
        'u.email',
        'u.display_name',
        'u.role',
        'u.email_verified',
        'u.created_at',
        'a.password',
      ])
      .where('u.email', '=', email.data)
      .executeTakeFirst();
    const valid = await verifyPassword({ hash: account?.password ?? (await dummyHash), password });
    const log = c.get('logger');
    if (!account || !valid) {
      log.info({ event: 'sign-in', outcome: 'failure', status: 401 }, 'sign-in');
      return errorResponse(c, 401, messages.invalidCredentials, 'INVALID_EMAIL_OR_PASSWORD');
    }

    const now = new Date();
    const token = randomBytes(24).toString('base64url');
    await db
      .insertInto('sessions')
      .values({
        id: randomBytes(24).toString('base64url'),
        user_id: account.id,
        token,
        expires_at: new Date(now.getTime() + SESSION_EXPIRES_IN_SECONDS * 1000),
        ip_address: c.get('clientAddress'),
        user_agent: (c.req.header('user-agent') ?? '').slice(0, 500),
        created_at: now,
        updated_at: now,
      })
      .execute();
    log.info({ event: 'sign-in', outcome: 'success', status: 200 }, 'sign-in');
    c.header('Set-Cookie', sessionCookie(token));
    return c.json({
      user: {
        id: account.id,
        email: account.email,
        displayName: account.display_name,
        role: account.role === 'tutor' ? 'tutor' : 'student',
        emailVerified: account.email_verified,
        createdAt: new Date(account.created_at).toISOString(),
      },
    });
  };
}
