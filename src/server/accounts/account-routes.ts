/**
 * The account API. Better Auth is mounted once at /api/auth/*, but only the endpoints the product
 * uses are reachable (everything else answers 404), with our rate limits in front, our messages on
 * its errors and no-store on every answer. Beside it: the session check the browser makes on every
 * page, and the landing of the verification link.
 */
import { type Context, Hono } from 'hono';
import { messages } from '../../shared/messages';
import { emailSchema } from '../../shared/schemas';
import type { Database } from '../db/database';
import { errorResponse, isDatabaseDown, serviceUnavailable } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import type { RequestLogger } from '../http/request-logger';
import {
  limitByClient,
  type RateLimiters,
  type RateLimitName,
  refusedByLimit,
} from '../rate-limit/rate-limits';
import { type Auth, CLIENT_ADDRESS_HEADER } from './auth';
import { inAuthContext } from './auth-context';
import { consumeVerificationToken } from './email-verification';
import { loadSession, publicUser, type SessionReader } from './session';

/** What reaches Better Auth; sign-in has its own route in front (sign-in.ts), so it is not here. */
export const exposedAuthEndpoints = new Set([
  'POST /sign-up/email',
  'POST /sign-out',
  'POST /send-verification-email',
  'POST /request-password-reset',
  'POST /reset-password',
]);

/** Per client address, before Better Auth sees the request (per email address: auth.ts). */
const clientLimits: Record<string, RateLimitName | undefined> = {
  '/sign-up/email': 'signUp',
  '/send-verification-email': 'accountMailByClient',
  '/request-password-reset': 'accountMailByClient',
};

/** Better Auth's codes, told in the product's words. */
const friendlyMessages: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: messages.invalidCredentials,
  USER_ALREADY_EXISTS: messages.emailInUse,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: messages.emailInUse,
  INVALID_TOKEN: messages.resetLinkInvalid,
  PASSWORD_TOO_SHORT: messages.passwordTooShort,
  PASSWORD_TOO_LONG: messages.passwordTooLong,
  INVALID_EMAIL: messages.invalidEmail,
};

interface AuthUserBody {
  user?: {
    id: string;
    email: string;
    name: string;
    role?: string;
    emailVerified: boolean;
    createdAt: string;
  };
}

/**
 * Puts Better Auth's answer in our shape: no-store always; on sign-up the public user only (the
 * session token stays in its HttpOnly cookie, never in a body scripts can read); on errors
 * { message, code } in the product's words.
 */
async function shapeAuthResponse(endpoint: string, res: Response, log: RequestLogger): Promise<Response> {
  const headers = new Headers(res.headers);
  headers.set('Cache-Control', 'no-store');
  headers.delete('Content-Length');
  if (res.status < 400) {
    if (endpoint !== '/sign-up/email') {
      return new Response(res.body, { status: res.status, headers });
    }
    const { user } = (await res.json()) as AuthUserBody;
    const body = user
      ? {
          user: {
            id: user.id,
            email: user.email,
            displayName: user.name,
            role: user.role === 'tutor' ? 'tutor' : 'student',
            emailVerified: user.emailVerified,
            createdAt: user.createdAt,
          },
        }
      : { user: null };
    return new Response(JSON.stringify(body), { status: res.status, headers });
  }
  let body: { message?: unknown; code?: unknown } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // An empty or non-JSON error body gets a message below.
  }
  const code = typeof body.code === 'string' ? body.code : undefined;
  let message = (code && friendlyMessages[code]) || (typeof body.message === 'string' ? body.message : '');
  if (res.status >= 500) {
    log.error({ status: res.status, code }, 'account endpoint failed');
    message = messages.unexpectedError;
  }
  headers.set('Content-Type', 'application/json');
  return new Response(
    JSON.stringify(
      code
        ? { message: message || messages.invalidRequest, code }
        : { message: message || messages.invalidRequest },
    ),
    {
      status: res.status,
      headers,
    },
  );
}

/**
 * Better Auth answers FAILED_TO_CREATE_USER whenever inserting the user fails: a sign-up that lost
 * the race for its email to a concurrent one (after Better Auth's own "already exists" check), but
 * also a row the database refused for any other reason. Only an email that is now taken may read
 * "in use"; anything else is a temporary failure, worth trying again.
 */
async function answerFailedUserCreation(c: Context<AppEnv>, db: Database['db'], signUp: Request) {
  c.header('Cache-Control', 'no-store');
  try {
    const body = (await signUp.json()) as { email?: unknown };
    const email = emailSchema.safeParse(body.email);
    const taken =
      email.success &&
      (await db.selectFrom('users').select('id').where('email', '=', email.data).executeTakeFirst());
    if (taken) return errorResponse(c, 422, messages.emailInUse, 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL');
  } catch {
    // Unreadable, or the database is away: a temporary failure either way.
  }
  c.get('logger').error({ code: 'FAILED_TO_CREATE_USER' }, 'sign-up could not create the user');
  return serviceUnavailable(c);
}

export function accountRoutes(deps: {
  auth: Auth;
  sessions: SessionReader;
  database: Database;
  limiters: RateLimiters;
  signIn: (c: Context<AppEnv>) => Promise<Response>;
}) {
  const { auth, sessions, database, limiters } = deps;
  const db = database.db;
  const app = new Hono<AppEnv>();

  // Sign-in takes its own short path (sign-in.ts); every other account endpoint is Better Auth's.
  app.post('/auth/sign-in/email', limitByClient(limiters, 'signIn'), (c) => deps.signIn(c));

  app.on(['GET', 'POST'], '/auth/*', async (c) => {
    const endpoint = c.req.path.slice('/api/auth'.length);
    if (!exposedAuthEndpoints.has(`${c.req.method} ${endpoint}`)) {
      return errorResponse(c, 404, messages.notFound, 'NOT_FOUND');
    }
    const limit = clientLimits[endpoint];
    const refused = limit && (await refusedByLimit(c, limiters, limit, c.get('clientAddress')));
    if (refused) return refused;
    if (endpoint === '/sign-out') {
      const token = sessions.tokenOf(c.req.header('cookie'));
      if (token) sessions.cache.forgetToken(token);
    }
    // Our notion of the client address replaces anything the client sent under that name.
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_ADDRESS_HEADER, c.get('clientAddress'));
    const request = new Request(c.req.raw, { headers });
    const signUpCopy = endpoint === '/sign-up/email' ? request.clone() : null;
    const res = await inAuthContext(() => auth.handler(request));
    if (res.status >= 500 && (await isDatabaseDown(database))) return serviceUnavailable(c);
    if (signUpCopy && res.status >= 400) {
      const { code } = (await res
        .clone()
        .json()
        .catch(() => ({}))) as { code?: unknown };
      if (code === 'FAILED_TO_CREATE_USER') return answerFailedUserCreation(c, db, signUpCopy);
    }
    return shapeAuthResponse(endpoint, res, c.get('logger'));
  });

  app.get('/session', loadSession(sessions), (c) => {
    c.header('Cache-Control', 'no-store');
    const user = c.get('user');
    return c.json({ user: user ? publicUser(user) : null });
  });

  // The link in the verification mail opens the /verify-email page, which posts its token here:
  // a GET never changes anything, so mail scanners that fetch links cannot spend it. Whoever is
  // signed in as that account in this browser goes on to the dashboard, anyone else to sign in.
  app.post('/account/verify-email', loadSession(sessions), async (c) => {
    c.header('Cache-Control', 'no-store');
    const body = (await c.req.json().catch(() => null)) as { token?: unknown } | null;
    const token = typeof body?.token === 'string' ? body.token : '';
    const userId = await consumeVerificationToken(db, token);
    if (!userId) return errorResponse(c, 400, messages.verificationLinkInvalid, 'INVALID_TOKEN');
    sessions.cache.forgetUser(userId);
    return c.json({ verified: true, signedIn: c.get('user')?.id === userId });
  });

  return app;
}
