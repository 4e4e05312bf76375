/**
 * The account API. Better Auth serves every /api/auth/* endpoint through `auth.handler`; the ones
 * the product uses are listed here, each with its rate limit in front, its body's shape checked
 * and its answer put in our words and shape (the session token stays in its HttpOnly cookie,
 * never in a body scripts can read). Everything else under /api/auth answers 404. Beside them:
 * the session check the browser makes, and the landing of the verification link.
 */

import { type Context, Hono } from 'hono';
import type { ClientErrorStatusCode, ServerErrorStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import * as messages from '../../shared/messages';
import {
  emailBodySchema,
  emailSchema,
  resetPasswordBodySchema,
  signInBodySchema,
  signUpBodySchema,
  twoFactorPasswordAndCodeBodySchema,
  twoFactorPasswordBodySchema,
  verifyBackupCodeBodySchema,
  verifyEmailBodySchema,
  verifyTotpBodySchema,
} from '../../shared/schemas';
import type { Database } from '../db/database';
import { errorResponse, isDatabaseDown, serviceUnavailable } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { languageOf } from '../http/language';
import { validate } from '../http/validation';
import { translate } from '../i18n/translations';
import type { SessionReader } from '../platform/session-guards';
import { OneAtATime } from '../rate-limit/one-at-a-time';
import { limitByClient, type RateLimiters } from '../rate-limit/rate-limits';
import type { Auth } from './auth';
import { CAPTCHA_HEADER, CLIENT_ADDRESS_HEADER } from './auth-checks';
import { consumeVerificationToken } from './email-verification';
import { forwardCookies, toSessionUser } from './session';

/** Better Auth's codes, told in the product's words. */
const friendlyMessages: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: messages.invalidCredentials,
  USER_ALREADY_EXISTS: messages.emailInUse,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: messages.emailInUse,
  INVALID_TOKEN: messages.resetLinkInvalid,
  PASSWORD_TOO_SHORT: messages.passwordTooShort,
  PASSWORD_TOO_LONG: messages.passwordTooLong,
  INVALID_EMAIL: messages.invalidEmail,
  INVALID_PASSWORD: messages.twoFactorWrongPassword,
  INVALID_CODE: messages.twoFactorWrongCode,
  INVALID_BACKUP_CODE: messages.twoFactorWrongBackupCode,
  INVALID_TWO_FACTOR_COOKIE: messages.twoFactorSignInExpired,
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: messages.twoFactorSignInExpired,
  TOTP_ALREADY_ENABLED: messages.twoFactorAlreadyOn,
  TOTP_NOT_ENABLED: messages.twoFactorNotOn,
  TWO_FACTOR_NOT_ENABLED: messages.twoFactorNotOn,
  BACKUP_CODES_NOT_ENABLED: messages.twoFactorNotOn,
  UNAUTHORIZED: messages.notSignedIn,
};

const authErrorSchema = z.object({
  message: z.string().optional(),
  code: z.string().optional(),
  /** A suspended person's refusal, its reason and address in place (./auth.ts). */
  suspension: z
    .object({ text: z.string(), values: z.record(z.string(), z.string()) })
    .optional()
    .catch(undefined),
});
const signedInSchema = z.object({ user: z.unknown() });
/** A password that was right for an account with two-factor on: no session yet, a code to ask for. */
const twoFactorPendingSchema = z.object({
  twoFactorRedirect: z.literal(true),
  twoFactorMethods: z.array(z.string()).catch([]),
});
const totpSetupSchema = z.object({ totpURI: z.string(), backupCodes: z.array(z.string()) });
const totpUriSchema = z.object({ totpURI: z.string() });
const backupCodesSchema = z.object({ backupCodes: z.array(z.string()) });

/** The secret inside an authenticator app's otpauth:// address, for people who type it in. */
const secretOf = (totpURI: string) => new URL(totpURI).searchParams.get('secret') ?? '';
/** An authenticator code is six digits; anything else offered to turn two-factor off is a backup code. */
const isAuthenticatorCode = (code: string) => /^\d{6}$/.test(code);

/**
 * The request Better Auth gets: the checked body, and our notion of the client's address; at
 * `path` under /api/auth when it is not the route's own.
 */
function forBetterAuth(c: Context<AppEnv>, body: unknown, path?: string): Request {
  const headers = new Headers();
  headers.set('content-type', 'application/json');
  for (const name of ['cookie', 'origin', 'referer', 'user-agent', CAPTCHA_HEADER]) {
    const value = c.req.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  // Whatever the client sent under this name is replaced.
  headers.set(CLIENT_ADDRESS_HEADER, c.get('clientAddress'));
  const url = path ? new URL(`/api/auth${path}`, c.req.url) : c.req.url;
  return new Request(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

export function accountRoutes(deps: {
  auth: Auth;
  sessions: SessionReader;
  database: Database;
  limiters: RateLimiters;
}) {
  const { auth, sessions, database, limiters } = deps;
  /**
   * Sign-ins of one account from one address, one at a time: the failed sign-ins limit takes its
   * point before the password is checked, so right passwords sent at once would otherwise be
   * refused for the points their neighbours hold (./auth.ts counts; OneAtATime says why).
   */
  const signInTurns = new OneAtATime();

  /** Sends the body to Better Auth's endpoint; its cookies go out with our answer. */
  async function callBetterAuth(c: Context<AppEnv>, body: unknown, path?: string): Promise<Response> {
    const res = await auth.handler(forBetterAuth(c, body, path));
    forwardCookies(c, res.headers);
    return res;
  }

  /** Better Auth's refusal as { message, code } in our words; its failures as 503 or 500. */
  async function refusal(c: Context<AppEnv>, res: Response) {
    const parsed = authErrorSchema.safeParse(await res.json().catch(() => ({})));
    const { message, code, suspension } = parsed.success ? parsed.data : {};
    const retryAfter = res.headers.get('retry-after');
    if (retryAfter) c.header('Retry-After', retryAfter);
    if (res.status >= 500) {
      if (await isDatabaseDown(database)) return serviceUnavailable(c);
      c.get('logger').error({ status: res.status, code }, 'account endpoint failed');
      return errorResponse(c, 500, messages.unexpectedError, code ?? 'INTERNAL');
    }
    const status = res.status as ClientErrorStatusCode | ServerErrorStatusCode;
    return errorResponse(
      c,
      status,
      suspension ?? ((code && friendlyMessages[code]) || message || messages.invalidRequest),
      code,
    );
  }

  /**
   * A current code (from the app, or a backup code) for the signed-in account, checked through the
   * plugin's own verify routes (counted, and an app code taken once, as at sign-in): null when it
   * was right, else the refusal to answer. A password alone is what a thief of it has.
   */
  async function refusedCode(c: Context<AppEnv>, code: string) {
    const checked = isAuthenticatorCode(code)
      ? await callBetterAuth(c, { code }, '/two-factor/verify-totp')
      : await verifyBackupCode(c, { code });
    return checked.ok ? null : refusal(c, checked);
  }

  /**
   * The plugin's backup code check. Two requests with one code at once: it spends the code for one
   * and answers the other 409 CONFLICT; that one offered a used code, and is told so as for any
   * used or wrong code (401 INVALID_BACKUP_CODE).
   */
  async function verifyBackupCode(c: Context<AppEnv>, body: unknown): Promise<Response> {
    const res = await callBetterAuth(c, body, '/two-factor/verify-backup-code');
    if (res.status !== 409) return res;
    return Response.json({ code: 'INVALID_BACKUP_CODE' }, { status: 401 });
  }

  /**
   * 401 signed out, 400 `notOnCode` while two-factor is not on (a setup waiting for its first code
   * included: a code checked then would turn it on); null otherwise.
   */
  async function unlessTwoFactorOn(c: Context<AppEnv>, notOnCode: string) {
    const user = await sessions.fromDatabase(c);
    if (!user) return errorResponse(c, 401, messages.notSignedIn, 'UNAUTHORIZED');
    if (!user.twoFactorEnabled) return errorResponse(c, 400, messages.twoFactorNotOn, notOnCode);
    return null;
  }

  /**
   * Better Auth answers FAILED_TO_CREATE_USER whenever inserting the user fails: a sign-up that
   * lost the race for its email to a concurrent one (after Better Auth's own "already exists"
   * check), but also a row the database refused for any other reason. Only an email that is now
   * taken may read "in use"; anything else is a temporary failure, worth trying again.
   */
  async function failedUserCreation(c: Context<AppEnv>, rawEmail: string) {
    try {
      const email = emailSchema.safeParse(rawEmail);
      const taken =
        email.success &&
        (await database.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', email.data)
          .executeTakeFirst());
      if (taken) return errorResponse(c, 422, messages.emailInUse, 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL');
    } catch {
      // The database is away: a temporary failure either way.
    }
    c.get('logger').error({ code: 'FAILED_TO_CREATE_USER' }, 'sign-up could not create the user');
    return serviceUnavailable(c);
  }

  return (
    new Hono<AppEnv>()
      .post(
        '/auth/sign-up/email',
        limitByClient(limiters, 'signUp'),
        validate('json', signUpBodySchema),
        async (c) => {
          const body = c.req.valid('json');
          const res = await callBetterAuth(c, body);
          if (!res.ok) {
            const copy = res.clone();
            const { code } = authErrorSchema.catch({}).parse(await copy.json().catch(() => ({})));
            if (code === 'FAILED_TO_CREATE_USER') return failedUserCreation(c, body.email);
            return refusal(c, res);
          }
          const { user } = signedInSchema.parse(await res.json());
          return c.json({ user: toSessionUser(user) }, 200);
        },
      )
      .post(
        '/auth/sign-in/email',
        limitByClient(limiters, 'signIn'),
        validate('json', signInBodySchema),
        async (c) => {
          const body = c.req.valid('json');
          const email = emailSchema.safeParse(body.email);
          // Keyed as the failed sign-ins limit counts them; an address that is no email is refused
          // before any count.
          const res = email.success
            ? await signInTurns.run(`${email.data} ${c.get('clientAddress')}`, () => callBetterAuth(c, body))
            : await callBetterAuth(c, body);
          const outcome = res.ok ? 'success' : 'failure';
          c.get('logger').info({ event: 'sign-in', outcome, status: res.status }, 'sign-in');
          if (!res.ok) return refusal(c, res);
          const answer: unknown = await res.json();
          // The password was right and the account has two-factor on: no session until the code.
          const pending = twoFactorPendingSchema.safeParse(answer);
          if (pending.success) {
            return c.json(
              { twoFactorRedirect: true as const, twoFactorMethods: pending.data.twoFactorMethods },
              200,
            );
          }
          const { user } = signedInSchema.parse(answer);
          return c.json({ user: toSessionUser(user) }, 200);
        },
      )

      // Two-factor sign-in (Better Auth's plugin). Turning it on answers the authenticator secret
      // and the backup codes, once; the first right code (verify-totp) switches it on. The same
      // verify routes finish a sign-in that answered twoFactorRedirect. Wrong codes are limited
      // per account in ./auth.ts (five, then 429 for fifteen minutes). Turning it off, the key
      // again and new backup codes take the password and a current code; switching it on or off
      // and new backup codes end the account's other sessions (./auth.ts).
      .post('/auth/two-factor/enable', validate('json', twoFactorPasswordBodySchema), async (c) => {
        const res = await callBetterAuth(c, c.req.valid('json'));
        if (!res.ok) return refusal(c, res);
        const { totpURI, backupCodes } = totpSetupSchema.parse(await res.json());
        return c.json({ totpURI, secret: secretOf(totpURI), backupCodes }, 200);
      })
      .post('/auth/two-factor/verify-totp', validate('json', verifyTotpBodySchema), async (c) => {
        const res = await callBetterAuth(c, c.req.valid('json'));
        if (!res.ok) return refusal(c, res);
        const { user } = signedInSchema.parse(await res.json());
        // A right code leaves two-factor on (the first one turns it on): Better Auth answers with
        // the user as it was read before.
        return c.json({ user: { ...toSessionUser(user), twoFactorEnabled: true } }, 200);
      })
      .post(
        '/auth/two-factor/verify-backup-code',
        validate('json', verifyBackupCodeBodySchema),
        async (c) => {
          const res = await verifyBackupCode(c, c.req.valid('json'));
          if (!res.ok) return refusal(c, res);
          const { user } = signedInSchema.parse(await res.json());
          return c.json({ user: toSessionUser(user) }, 200);
        },
      )
      .post('/auth/two-factor/disable', validate('json', twoFactorPasswordAndCodeBodySchema), async (c) => {
        const { password, code } = c.req.valid('json');
        const wrongCode = await refusedCode(c, code);
        if (wrongCode) return wrongCode;
        const res = await callBetterAuth(c, { password });
        if (!res.ok) return refusal(c, res);
        return c.json({ status: true }, 200);
      })
      .post(
        '/auth/two-factor/generate-backup-codes',
        validate('json', twoFactorPasswordAndCodeBodySchema),
        async (c) => {
          const { password, code } = c.req.valid('json');
          const notOn = await unlessTwoFactorOn(c, 'TWO_FACTOR_NOT_ENABLED');
          if (notOn) return notOn;
          const wrongCode = await refusedCode(c, code);
          if (wrongCode) return wrongCode;
          const res = await callBetterAuth(c, { password });
          if (!res.ok) return refusal(c, res);
          return c.json(backupCodesSchema.parse(await res.json()), 200);
        },
      )
      .post(
        '/auth/two-factor/get-totp-uri',
        validate('json', twoFactorPasswordAndCodeBodySchema),
        async (c) => {
          const { password, code } = c.req.valid('json');
          const notOn = await unlessTwoFactorOn(c, 'TOTP_NOT_ENABLED');
          if (notOn) return notOn;
          const wrongCode = await refusedCode(c, code);
          if (wrongCode) return wrongCode;
          const res = await callBetterAuth(c, { password });
          if (!res.ok) return refusal(c, res);
          const { totpURI } = totpUriSchema.parse(await res.json());
          return c.json({ totpURI, secret: secretOf(totpURI) }, 200);
        },
      )
      .post('/auth/sign-out', async (c) => {
        const res = await callBetterAuth(c, {});
        if (!res.ok) return refusal(c, res);
        return c.json({ success: true }, 200);
      })
      .post(
        '/auth/send-verification-email',
        limitByClient(limiters, 'accountMailByClient'),
        validate('json', emailBodySchema),
        async (c) => {
          const res = await callBetterAuth(c, c.req.valid('json'));
          if (!res.ok) return refusal(c, res);
          return c.json({ status: true }, 200);
        },
      )
      .post(
        '/auth/request-password-reset',
        limitByClient(limiters, 'accountMailByClient'),
        validate('json', emailBodySchema),
        async (c) => {
          const res = await callBetterAuth(c, c.req.valid('json'));
          if (!res.ok) return refusal(c, res);
          return c.json({ status: true, message: translate(languageOf(c), messages.resetLinkSent) }, 200);
        },
      )
      .post('/auth/reset-password', validate('json', resetPasswordBodySchema), async (c) => {
        const res = await callBetterAuth(c, c.req.valid('json'));
        if (!res.ok) return refusal(c, res);
        return c.json({ status: true }, 200);
      })
      // Every other endpoint Better Auth has stays out of reach.
      .all('/auth/*', (c) => errorResponse(c, 404, messages.notFound, 'NOT_FOUND'))

      .get('/session', async (c) => c.json({ user: await sessions.signedInUser(c) }, 200))

      // The link in the verification mail opens the /verify-email page, which posts its token
      // here: a GET never changes anything, so mail scanners that fetch links cannot spend it.
      // Whoever is signed in as that account in this browser goes on to the dashboard (with the
      // session's cached copy refreshed), anyone else to sign in.
      // A link opened again (a second click, a mail scanner that got there first) says the email
      // is verified; an expired one says so, for the page to offer a new link.
      .post('/account/verify-email', validate('json', verifyEmailBodySchema), async (c) => {
        const spent = await consumeVerificationToken(database.db, c.req.valid('json').token);
        if (spent.outcome === 'expired') {
          return errorResponse(c, 400, messages.verificationLinkExpired, 'EXPIRED_TOKEN');
        }
        if (spent.outcome === 'unknown') {
          return errorResponse(c, 400, messages.verificationLinkInvalid, 'INVALID_TOKEN');
        }
        const user = await sessions.fromDatabase(c);
        const signedIn = user?.id === spent.userId;
        return spent.outcome === 'verified'
          ? c.json({ verified: true, signedIn }, 200)
          : c.json({ verified: true, signedIn, alreadyVerified: true }, 200);
      })
  );
}
