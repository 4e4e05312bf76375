/**
 * The guards a route puts after the session middleware when it needs someone: signedInOnly (401
 * when signed out), verifiedOnly (403 when the email is not verified), adminOnly(…) and the role
 * guards. Behind a guard the handler reads `c.var.user`, typed as present: Hono carries each
 * middleware's variables into the handlers after it, so a route that forgot its guard reads
 * `SessionUser | null` and does not type-check.
 *
 * Every feature's routes use them, so they live here, beside the shape of the session reader the
 * routes are handed; the reader itself, built on Better Auth, is accounts/session.ts.
 */
import type { Context, MiddlewareHandler } from 'hono';
import * as messages from '../../shared/messages';
import type { SessionUser } from '../../shared/session-user';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';

export type { SessionUser };

/** Who is signed in, as app.ts hands it to each route group (built in accounts/session.ts). */
export interface SessionReader {
  /** Middleware: puts the signed-in user (or null) on the context, asking the database. */
  loadSession: MiddlewareHandler<AppEnv>;
  /** Who is signed in, for showing it: from the signed cookie cache when it holds a verified user. */
  signedInUser(c: Context<AppEnv>): Promise<SessionUser | null>;
  /** The session from the database, its cookies sent with this response; null when nobody is signed in. */
  fromDatabase<E extends AppEnv>(c: Context<E>): Promise<SessionUser | null>;
}

/** What a route knows behind one of the guards below: who is signed in, never null. */
export interface SignedInEnv {
  Variables: { user: SessionUser; secondFactorProved: boolean };
}

/** A guard: 401 when nobody is signed in, then whatever `check` refuses. */
function guard(
  check: (user: SessionUser, secondFactorProved: boolean) => void = () => {},
): MiddlewareHandler<SignedInEnv> {
  return async (c, next) => {
    // Read as the session middleware left it: null when nobody is signed in.
    const user: SessionUser | null = c.get('user');
    if (!user) throw new ApiError(401, messages.notSignedIn, 'UNAUTHORIZED');
    check(user, c.get('secondFactorProved') === true);
    await next();
  };
}

const mustBeVerified = (user: SessionUser) => {
  if (!user.emailVerified) throw new ApiError(403, messages.emailNotVerified, 'EMAIL_NOT_VERIFIED');
};

/** After loadSession: a route for signed-in users (401 otherwise), checked before the input is. */
export const signedInOnly = guard();

/** After loadSession: a route for signed-in users with a verified email (401, then 403, otherwise). */
export const verifiedOnly = guard(mustBeVerified);

/**
 * After loadSession: a route for operators (401 signed out, 403 anyone else); the flag is read from
 * the database with the session. With `requireTwoFactor` (ADMIN_TWO_FACTOR=required), an operator
 * without two-factor sign-in is refused too (403 TWO_FACTOR_REQUIRED) until they turn it on, and
 * so is a session of theirs that did not prove it (one made with the password alone).
 */
export function adminOnly(requireTwoFactor: boolean) {
  return guard((user, secondFactorProved) => {
    if (!user.isAdmin) throw new ApiError(403, messages.adminsOnly, 'FORBIDDEN');
    if (!requireTwoFactor) return;
    if (!user.twoFactorEnabled)
      throw new ApiError(403, messages.adminTwoFactorRequired, 'TWO_FACTOR_REQUIRED');
    if (!secondFactorProved)
      throw new ApiError(403, messages.adminTwoFactorSignInAgain, 'TWO_FACTOR_REQUIRED');
  });
}

/** After loadSession: a route for signed-in users of one role; `refusal` is the 403's message for the other. */
export function signedInWithRole(role: SessionUser['role'], refusal: string) {
  return guard((user) => {
    if (user.role !== role) throw new ApiError(403, refusal, 'FORBIDDEN');
  });
}

/**
 * After loadSession: a route for verified users of one role, or of any of several (a parent books
 * and pays as a student does): 401, 403 unverified, then 403 `refusal`.
 */
export function verifiedWithRole(role: SessionUser['role'] | SessionUser['role'][], refusal: string) {
  const roles: SessionUser['role'][] = Array.isArray(role) ? role : [role];
  return guard((user) => {
    mustBeVerified(user);
    if (!roles.includes(user.role)) throw new ApiError(403, refusal, 'FORBIDDEN');
  });
}
