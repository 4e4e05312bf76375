/**
 * The signed-in user on the request context, and the guards that throw when a route needs more:
 * requireUser (401 when signed out), requireVerifiedUser (403 when the email is not verified).
 *
 * Every signed-in page asks who is signed in, so this is the hottest path of the server (issue
 * #6). It reads Better Auth's session cookie itself: the HMAC signature is checked with node:crypto,
 * then the session and its user come from one indexed join, kept for a few seconds in memory.
 * Whatever ends or changes a session in this process (sign-out, password reset, a profile or
 * verification change) forgets it at once; another server sharing the database may trust a
 * signed-out session for at most SESSION_CACHE_MS. When a session is due for Better Auth's
 * sliding renewal, Better Auth itself reads it, renews it and sets the cookie.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { Kysely } from 'kysely';
import type { Role } from '../../shared/constants';
import { messages } from '../../shared/messages';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import type { Auth } from './auth';
import { inAuthContext } from './auth-context';

export interface SessionUser {
  id: string;
  email: string;
  displayName: string;
  role: Role;
  emailVerified: boolean;
  createdAt: Date;
}

declare module '../http/app-env' {
  interface AppVariables {
    user: SessionUser | null;
  }
}

export const SESSION_COOKIE = 'tutorlane.session_token';
export const SESSION_EXPIRES_IN_SECONDS = 60 * 60 * 24 * 7;
export const SESSION_UPDATE_AGE_SECONDS = 60 * 60 * 24;
/** How long a looked-up session is trusted without asking the database again. */
export const SESSION_CACHE_MS = 5000;
const MAX_CACHED = 10_000;

interface CachedSession {
  user: SessionUser;
  userId: string;
  expiresAt: number;
  /** When Better Auth would renew it (updateAge after its last renewal). */
  renewAt: number;
  cachedAt: number;
}

/** Sessions looked up recently, by token; forgotten as soon as something changes them here. */
export class SessionCache {
  private readonly byToken = new Map<string, CachedSession>();

  get(token: string, now: number): CachedSession | undefined {
    const hit = this.byToken.get(token);
    if (!hit) return undefined;
    if (now - hit.cachedAt > SESSION_CACHE_MS || now >= hit.expiresAt || now >= hit.renewAt) {
      this.byToken.delete(token);
      return undefined;
    }
    return hit;
  }

  set(token: string, entry: CachedSession): void {
    if (this.byToken.size >= MAX_CACHED) {
      const oldest = this.byToken.keys().next().value;
      if (oldest !== undefined) this.byToken.delete(oldest);
    }
    this.byToken.set(token, entry);
  }

  forgetToken(token: string): void {
    this.byToken.delete(token);
  }

  forgetUser(userId: string): void {
    for (const [token, entry] of this.byToken) if (entry.userId === userId) this.byToken.delete(token);
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

export interface SessionReaderOptions {
  auth: Auth;
  db: Kysely<DB>;
  secret: string;
  secureCookie: boolean;
  cache: SessionCache;
}

export function createSessionReader(options: SessionReaderOptions) {
  const { auth, db, cache } = options;
  const cookieName = options.secureCookie ? `__Secure-${SESSION_COOKIE}` : SESSION_COOKIE;

  /** The session token of a request whose cookie carries a valid signature, else undefined. */
  function tokenOf(cookieHeader: string | undefined): string | undefined {
    const raw = cookieValue(cookieHeader, cookieName);
    if (!raw) return undefined;
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    const dot = value.lastIndexOf('.');
    if (dot < 1) return undefined;
    const token = value.slice(0, dot);
    const signature = Buffer.from(value.slice(dot + 1), 'base64');
    const expected = createHmac('sha256', options.secret).update(token).digest();
    return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : undefined;
  }

  async function lookUp(c: Context<AppEnv>, token: string): Promise<SessionUser | null> {
    const now = Date.now();
    const cached = cache.get(token, now);
    if (cached) return cached.user;
    const row = await db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select([
        's.expires_at',
        'u.id',
        'u.email',
        'u.display_name',
        'u.role',
        'u.email_verified',
        'u.created_at',
      ])
      .where('s.token', '=', token)
      .executeTakeFirst();
    if (!row) return null;
    const expiresAt = new Date(row.expires_at).getTime();
    if (expiresAt <= now) return null;
    const renewAt = expiresAt - SESSION_EXPIRES_IN_SECONDS * 1000 + SESSION_UPDATE_AGE_SECONDS * 1000;
    if (now >= renewAt) return renewWithBetterAuth(c);
    const user: SessionUser = {
      id: row.id,
      email: row.email,
      displayName: row.display_name,
      role: row.role === 'tutor' ? 'tutor' : 'student',
      emailVerified: row.email_verified,
      createdAt: new Date(row.created_at),
    };
    cache.set(token, { user, userId: row.id, expiresAt, renewAt, cachedAt: now });
    return user;
  }

  /** Better Auth renews the session (sliding expiry) and sends the renewed cookie. */
  async function renewWithBetterAuth(c: Context<AppEnv>): Promise<SessionUser | null> {
    const { headers, response } = await inAuthContext(() =>
      auth.api.getSession({ headers: c.req.raw.headers, returnHeaders: true }),
    );
    for (const cookie of headers?.getSetCookie() ?? []) c.header('Set-Cookie', cookie, { append: true });
    const user = response?.user;
    return user
      ? {
          id: user.id,
          email: user.email,
          displayName: user.name,
          role: user.role === 'tutor' ? 'tutor' : 'student',
          emailVerified: user.emailVerified,
          createdAt: new Date(user.createdAt),
        }
      : null;
  }

  /** Who is signed in on this request (null when nobody is). */
  async function currentUser(c: Context<AppEnv>): Promise<SessionUser | null> {
    const token = tokenOf(c.req.header('cookie'));
    return token ? lookUp(c, token) : null;
  }

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    c.set('user', await currentUser(c));
    await next();
  };

  return { middleware, currentUser, tokenOf, cache };
}

export type SessionReader = ReturnType<typeof createSessionReader>;

/** Loads the session once per request for the routes that need it. */
export function loadSession(sessions: SessionReader): MiddlewareHandler<AppEnv> {
  return sessions.middleware;
}

export function requireUser(c: Context<AppEnv>): SessionUser {
  const user = c.get('user');
  if (!user) throw new ApiError(401, messages.notSignedIn, 'UNAUTHORIZED');
  return user;
}

export function requireVerifiedUser(c: Context<AppEnv>): SessionUser {
  const user = requireUser(c);
  if (!user.emailVerified) throw new ApiError(403, messages.emailNotVerified, 'EMAIL_NOT_VERIFIED');
  return user;
}

/** The public shape of the signed-in user, as the browser sees it. */
export function publicUser(user: SessionUser) {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt.toISOString(),
  };
}
