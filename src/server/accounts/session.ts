/**
 * Who is signed in, read through Better Auth's public API. The guards a route puts after
 * `loadSession` (signedInOnly, verifiedOnly, adminOnly…) serve every feature, so they are in
 * ../platform/session-guards.ts.
 *
 * Two ways to ask, by what the answer unlocks (docs/security.md, "Sessions"):
 * - `loadSession` asks the database, through `auth.api.getSession`, on every request that reads
 *   or changes data: a session ended by a sign-out or a password reset is refused at once.
 * - `signedInUser` only tells a page who is signed in (the session check, the user in the page's
 *   HTML). It reads Better Auth's signed cookie cache (`getCookieCache`), so it costs no query,
 *   and asks the database when there is no valid cache or the cache says the email is not yet
 *   verified (that is the one change a user waits for). A copy of the cookies taken before a
 *   sign-out can thus still show a name in the navigation bar for up to SESSION_CACHE_SECONDS,
 *   and nothing else; after a deletion of the account, not even that (./ended-accounts.ts).
 * A read from the database writes the cache again only when what it shows has changed, so a
 * request that read the session just before a change cannot put the old copy back.
 */
import { isDeepStrictEqual } from 'node:util';
import { getCookieCache, getCookies, getSessionCookie } from 'better-auth/cookies';
import type { Context, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { ROLES } from '../../shared/constants';
import { LANGUAGE_CODES } from '../../shared/languages';
import type { SessionUser } from '../../shared/session-user';
import type { Config } from '../config/config';
import type { AppEnv } from '../http/app-env';
import type { SessionReader } from '../platform/session-guards';
import type { Auth } from './auth';

export type { SessionUser };

export const SESSION_COOKIE_PREFIX = 'tutorlane';
export const SESSION_EXPIRES_IN_SECONDS = 60 * 60 * 24 * 7;
export const SESSION_UPDATE_AGE_SECONDS = 60 * 60 * 24;
/** How long Better Auth's signed cookie cache is trusted without asking the database. */
export const SESSION_CACHE_SECONDS = 5 * 60;

/** A user as Better Auth hands it over (its field names), read into ours in this one place. */
const authUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES).catch('student'),
  emailVerified: z.boolean(),
  isAdmin: z.boolean().catch(false),
  twoFactorEnabled: z.boolean().nullish().catch(false),
  suspendedAt: z.union([z.string(), z.date()]).nullish().catch(null),
  createdAt: z.union([z.string(), z.date()]),
  timeZone: z.string().nullish().catch(null),
  language: z.enum(LANGUAGE_CODES).nullish().catch(null),
  welcomedSessionId: z.string().nullish().catch(null),
});

export const toSessionUser = (user: unknown): SessionUser => sessionUserOf(authUserSchema.parse(user));

function sessionUserOf(parsed: z.infer<typeof authUserSchema>): SessionUser {
  return {
    id: parsed.id,
    email: parsed.email,
    displayName: parsed.name,
    role: parsed.role,
    emailVerified: parsed.emailVerified,
    isAdmin: parsed.isAdmin,
    twoFactorEnabled: parsed.twoFactorEnabled ?? false,
    createdAt: new Date(parsed.createdAt).toISOString(),
    timeZone: parsed.timeZone ?? null,
    language: parsed.language ?? null,
  };
}

/**
 * Made once: zod compiles a schema's checks into a function on its first parse, so a schema made
 * per call would be compiled again on every signed-in request.
 */
const secondFactorSchema = z.object({ twoFactorVerified: z.boolean() });

/** Whether Better Auth's session proved a second factor (./auth.ts sets it). */
const provedSecondFactor = (session: unknown) =>
  secondFactorSchema.safeParse(session).data?.twoFactorVerified === true;

/** Better Auth's cookies on the way out, onto this response (but those `skip` says to leave out). */
export function forwardCookies(
  c: Context,
  headers: Headers | null | undefined,
  skip: (cookie: string) => boolean = () => false,
): void {
  for (const cookie of headers?.getSetCookie() ?? []) {
    if (!skip(cookie)) c.header('Set-Cookie', cookie, { append: true });
  }
}

export function createSessionReader(
  auth: Auth,
  config: Pick<Config, 'authSecret' | 'secure'>,
): SessionReader {
  const cacheOptions = {
    cookiePrefix: SESSION_COOKIE_PREFIX,
    secret: config.authSecret,
    isSecure: config.secure,
    // The version Better Auth checks on its own reads: a deleted account's cache is refused here too.
    version: auth.options.session.cookieCache.version,
  };
  // The cookie cache's name, as Better Auth writes it (a long one is split into `name.0`, `name.1`…).
  const cacheName = getCookies(auth.options).sessionData.name;
  const writesCache = (cookie: string) =>
    cookie.startsWith(`${cacheName}=`) || cookie.startsWith(`${cacheName}.`);

  /**
   * The session from the database (renewed when due), its cookies sent with this response; null
   * when nobody is signed in. The cookie cache is written again only when it would change what
   * the request's own cache shows.
   */
  async function fromDatabase<E extends AppEnv>(c: Context<E>): Promise<SessionUser | null> {
    const { headers, response } = await auth.api.getSession({
      headers: c.req.raw.headers,
      query: { disableCookieCache: true },
      returnHeaders: true,
    });
    // Suspension deletes the user's sessions; one made by a sign-in racing the suspension is
    // refused here, so it never reaches anything.
    const found = response ? authUserSchema.parse(response.user) : null;
    if (!response || !found || found.suspendedAt) {
      forwardCookies(c, headers);
      c.set('sessionToken', null);
      c.set('secondFactorProved', false);
      c.set('welcome', null);
      return null;
    }
    const user = sessionUserOf(found);
    const proved = provedSecondFactor(response.session);
    // A browser sends several requests at once. One that read the session before another changed
    // it (a new language saved on the profile) answers after it: its copy of the cache, were it
    // sent, would replace the new one with the old, and the next page would show the old. So a
    // copy that shows the same as the request's own cache is not sent: only a change is, and a
    // change is what the database holds now.
    // Read only for a signed-in answer: nobody's cache needs comparing.
    const carried = await getCookieCache(c.req.raw.headers, cacheOptions);
    const unchanged =
      carried !== null &&
      carried.session.id === response.session.id &&
      provedSecondFactor(carried.session) === proved &&
      isDeepStrictEqual(toSessionUser(carried.user), user);
    forwardCookies(c, headers, unchanged ? writesCache : undefined);
    // The session Better Auth found, as its row names it. A request may carry several session
    // cookies (a `__Secure-` one beside a plain one, or one name twice); reading the header again
    // could pick another one than Better Auth did.
    c.set('sessionToken', response.session.token);
    c.set('secondFactorProved', proved);
    c.set('welcome', {
      sessionId: response.session.id,
      welcomedSessionId: found.welcomedSessionId ?? null,
    });
    return user;
  }

  /** Who is signed in, for showing it: from the signed cookie cache when it holds a verified user. */
  async function signedInUser(c: Context<AppEnv>): Promise<SessionUser | null> {
    // A visitor without a session cookie is nobody; Better Auth need not be asked.
    if (!getSessionCookie(c.req.raw.headers, { cookiePrefix: SESSION_COOKIE_PREFIX })) return null;
    const cached = await getCookieCache(c.req.raw.headers, cacheOptions);
    if (cached?.user.emailVerified) return toSessionUser(cached.user);
    return fromDatabase(c);
  }

  /** Puts the signed-in user (or null) on the context, asking the database. */
  const loadSession: MiddlewareHandler<AppEnv> = async (c, next) => {
    c.set('user', await fromDatabase(c));
    await next();
  };

  return { loadSession, signedInUser, fromDatabase };
}
