/**
 * The signed-in user on the request context, and the guards that throw when a route needs more:
 * requireUser (401 when signed out), requireVerifiedUser (403 when the email is not verified).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Role } from '../../shared/constants';
import { messages } from '../../shared/messages';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import type { Auth } from './auth';

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

/** Loads the session once per request for the routes that need it. */
export function loadSession(auth: Auth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const result = await auth.api.getSession({ headers: c.req.raw.headers });
    const user = result?.user;
    c.set(
      'user',
      user
        ? {
            id: user.id,
            email: user.email,
            displayName: user.name,
            role: user.role === 'tutor' ? 'tutor' : 'student',
            emailVerified: user.emailVerified,
            createdAt: new Date(user.createdAt),
          }
        : null,
    );
    await next();
  };
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
