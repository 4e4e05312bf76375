/**
 * What Tutorlane checks around Better Auth's own routes (./auth.ts mounts them as its hooks): the
 * product's sign-up checks in the order its messages are given and the captcha, before any
 * account exists; account mails, failed sign-ins and wrong two-factor codes counted by our rate
 * limits (per account and client address); each authenticator code taken once per account; and
 * every other session ended when the account's security changes (two-factor on or off, new
 * backup codes, a password reset).
 */
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { expireCookie } from 'better-auth/cookies';
import type { Kysely } from 'kysely';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../shared/constants';
import * as messages from '../../shared/messages';
import { displayNameSchema, emailSchema, linkTokenSchema, roleSchema } from '../../shared/schemas';
import { firstSignUpProblem } from '../../shared/sign-up-checks';
import type { CaptchaVerifier } from '../captcha/captcha';
import type { DB } from '../db/schema';
import type { RateLimiters } from '../rate-limit/rate-limits';
import { isCommonPassword } from './password-policy';

/** Carries the client address from our HTTP layer to Better Auth (sessions record it). */
export const CLIENT_ADDRESS_HEADER = 'x-tutorlane-client-address';
/** The captcha solution travels in a header, so the JSON body stays Better Auth's. */
export const CAPTCHA_HEADER = 'x-captcha';

const badRequest = (message: string, code = 'VALIDATION_ERROR') =>
  new APIError('BAD_REQUEST', { message, code });

const asString = (value: unknown) => (typeof value === 'string' ? value : '');

const tooManyRequests = (wait: number) =>
  new APIError(
    'TOO_MANY_REQUESTS',
    { message: messages.tooManyRequests, code: 'TOO_MANY_REQUESTS' },
    { 'Retry-After': String(wait) },
  );

/** The plugin's routes that check a code, and the refusals that mean the code was wrong. */
export const TWO_FACTOR_CODE_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);
const WRONG_CODE = new Set(['INVALID_CODE', 'INVALID_BACKUP_CODE']);
/** The plugin's routes that check the signed-in user's password again. */
const TWO_FACTOR_PASSWORD_PATHS = new Set([
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/generate-backup-codes',
  '/two-factor/get-totp-uri',
]);
/** The plugin's cookie naming a sign-in that waits for its code (better-auth's TWO_FACTOR_COOKIE_NAME). */
const TWO_FACTOR_COOKIE = 'two_factor';
/**
 * How long an accepted authenticator code is remembered. A code is accepted from the period before
 * its own to the period after (30 seconds each), so it cannot come back within 90 seconds of its
 * first use; a little more covers clocks that differ between servers.
 */
const USED_CODE_MEMORY_SECONDS = 120;
/**
 * A two-factor code being checked: whose, whether it is the first code of a setup (signed in,
 * two-factor not on yet), and the authenticator code claimed for it.
 */
interface CodeCheck {
  userId: string;
  turningOn: boolean;
  claimed?: string;
}

/** The plugin's routes that end every other session of the account once they succeed. */
const SESSION_ENDING_PATHS = new Set(['/two-factor/disable', '/two-factor/generate-backup-codes']);

/** Better Auth's before and after hooks, with what they share: whose code or password each request checks. */
export function createAuthChecks(deps: { db: Kysely<DB>; captcha: CaptchaVerifier; limiters: RateLimiters }) {
  const { db, captcha, limiters } = deps;

  /** Verification and reset mails per email address: 429 once the hour's five are spent. */
  async function limitAccountMail(email: string) {
    const wait = await limiters.consume('accountMail', email);
    if (wait !== null) throw tooManyRequests(wait);
  }

  /**
   * The session a request carries, read from the database: never Better Auth's cookie cache, which
   * would still show a session ended on another device for a few minutes.
   */
  const currentSession = (ctx: Parameters<typeof getSessionFromCtx>[0]) =>
    getSessionFromCtx(ctx, { disableCookieCache: true }).catch(() => null);

  /**
   * The account a two-factor code is for: the signed-in one (setting it up, turning it off), else
   * the one whose sign-in waits for its code, named by the plugin's signed cookie.
   */
  async function twoFactorAccount(ctx: Parameters<typeof getSessionFromCtx>[0]): Promise<CodeCheck | null> {
    const session = await currentSession(ctx);
    if (session) return { userId: session.user.id, turningOn: session.user.twoFactorEnabled !== true };
    const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
    const pending = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
    if (!pending) return null;
    const challenge = await ctx.context.internalAdapter.findVerificationValue(pending);
    return challenge?.value ? { userId: challenge.value, turningOn: false } : null;
  }
  /** Whose code each request checks, from its before hook to its after hook. */
  const codeChecks = new WeakMap<object, CodeCheck>();

  /**
   * Takes an authenticator code for the account, once: false when it was taken within
   * USED_CODE_MEMORY_SECONDS. The primary key settles two requests with one code at the same
   * instant; a remembered code past its time is taken again in the same statement.
   */
  async function claimCode(userId: string, code: string): Promise<boolean> {
    const now = new Date();
    const claimed = await db
      .insertInto('used_two_factor_codes')
      .values({
        user_id: userId,
        code,
        expires_at: new Date(now.getTime() + USED_CODE_MEMORY_SECONDS * 1000),
      })
      .onConflict((conflict) =>
        conflict
          .columns(['user_id', 'code'])
          .doUpdateSet((eb) => ({ expires_at: eb.ref('excluded.expires_at') }))
          .where('used_two_factor_codes.expires_at', '<', now),
      )
      .returning('code')
      .executeTakeFirst();
    return claimed !== undefined;
  }
  /** A claimed code the plugin did not accept goes back: a wrong code, or a sign-in that failed. */
  const releaseCode = (userId: string, code: string) =>
    db.deleteFrom('used_two_factor_codes').where('user_id', '=', userId).where('code', '=', code).execute();

  /**
   * Ends every session of the account but `keep`: what the account's security just changed
   * (two-factor on or off, new backup codes) must not leave a session made before it. Through Better
   * Auth, so each ended session's live channel closes too (onSessionEnded).
   */
  async function endOtherSessions(
    ctx: Parameters<typeof getSessionFromCtx>[0],
    userId: string,
    keep: string | undefined,
  ) {
    const sessions = await ctx.context.internalAdapter.listSessions(userId);
    const others = sessions.map((session) => session.token).filter((token) => token !== keep);
    if (others.length) await ctx.context.internalAdapter.deleteSessions(others);
  }
  /**
   * The sign-in failure count a password check of the two-factor routes spends, and the session
   * it came with, likewise.
   */
  const passwordChecks = new WeakMap<object, { key: string; userId: string; token: string }>();

  /** Failed sign-ins are counted per account and client address. */
  const signInFailureKey = (email: string, clientAddress: string) => `${email} ${clientAddress}`;

  async function checkNewPassword(password: string) {
    if (password.length < MIN_PASSWORD_LENGTH)
      throw badRequest(messages.passwordTooShort, 'PASSWORD_TOO_SHORT');
    if (password.length > MAX_PASSWORD_LENGTH)
      throw badRequest(messages.passwordTooLong, 'PASSWORD_TOO_LONG');
    if (await isCommonPassword(password)) throw badRequest(messages.passwordTooCommon, 'PASSWORD_TOO_COMMON');
  }

  return {
    before: createAuthMiddleware(async (ctx) => {
      const body = (ctx.body ?? {}) as Record<string, unknown>;
      switch (ctx.path) {
        case '/sign-up/email': {
          // The product's order: captcha, passwords match, length, fields filled.
          const solution = ctx.headers?.get(CAPTCHA_HEADER) ?? undefined;
          const password = asString(body.password);
          const problem = firstSignUpProblem({
            captchaDone: Boolean(solution),
            fullName: asString(body.name),
            email: asString(body.email),
            password,
            confirmPassword: asString(body.confirmPassword),
          });
          if (problem) throw badRequest(problem);
          const email = emailSchema.safeParse(body.email);
          if (!email.success) throw badRequest(email.error.issues[0]?.message ?? messages.invalidEmail);
          if (body.role !== undefined && !roleSchema.safeParse(body.role).success) {
            throw badRequest(/*i18n*/ 'Role must be student, tutor or parent');
          }
          // The same rules as a later change of the name on /api/profile (length, no control characters).
          const name = displayNameSchema.safeParse(body.name);
          if (!name.success) throw badRequest(name.error.issues[0]?.message ?? messages.fillAllFields);
          await checkNewPassword(password);
          if (!(await captcha.verify(solution, ctx.headers?.get(CLIENT_ADDRESS_HEADER) ?? ''))) {
            throw badRequest(messages.captchaInvalid, 'CAPTCHA_INVALID');
          }
          // The mail sent at sign-up counts toward the address's hourly mails; it never blocks it.
          await limiters.consume('accountMail', email.data);
          return {
            context: {
              body: { ...body, email: email.data, name: name.data, image: undefined },
            },
          };
        }
        case '/send-verification-email':
        case '/request-password-reset': {
          const email = emailSchema.safeParse(body.email);
          if (!email.success) throw badRequest(email.error.issues[0]?.message ?? messages.invalidEmail);
          await limitAccountMail(email.data);
          return { context: { body: { ...body, email: email.data } } };
        }
        case '/sign-in/email': {
          const rawEmail = asString(body.email);
          const password = asString(body.password);
          if (!rawEmail.trim() || !password) throw badRequest(messages.fillAllFields);
          if (password.length > MAX_PASSWORD_LENGTH)
            throw badRequest(messages.passwordTooLong, 'PASSWORD_TOO_LONG');
          const email = emailSchema.safeParse(rawEmail);
          if (!email.success) throw badRequest(messages.invalidEmail, 'INVALID_EMAIL');
          // Every attempt takes a point before its password is checked, so a burst of guesses
          // sent at once is counted as it comes; the after hook gives the point back unless the
          // password was wrong.
          const clientAddress = ctx.headers?.get(CLIENT_ADDRESS_HEADER) ?? '';
          const wait = await limiters.consume('signInFailures', signInFailureKey(email.data, clientAddress));
          if (wait !== null) throw tooManyRequests(wait);
          return { context: { body: { ...body, email: email.data } } };
        }
        case '/two-factor/verify-totp':
        case '/two-factor/verify-backup-code': {
          // A point is taken before the code is checked, as for passwords; the after hook gives
          // it back unless the code was wrong, and forgets the count when it was right.
          const account = await twoFactorAccount(ctx);
          if (!account) return;
          const check: CodeCheck = { ...account };
          codeChecks.set(ctx.context, check);
          const wait = await limiters.consume('twoFactorCodes', account.userId);
          if (wait !== null) throw tooManyRequests(wait);
          if (ctx.path === '/two-factor/verify-totp') {
            // An authenticator code works once per account (RFC 6238, 5.2): one seen over a
            // shoulder, or sent by a second pending sign-in, is a wrong code. It is claimed
            // before the plugin checks it, so two requests at once cannot both pass.
            const code = asString(body.code);
            if (!(await claimCode(account.userId, code)))
              throw new APIError('UNAUTHORIZED', {
                message: messages.twoFactorWrongCode,
                code: 'INVALID_CODE',
              });
            check.claimed = code;
          }
          return;
        }
        case '/two-factor/enable':
        case '/two-factor/disable':
        case '/two-factor/generate-backup-codes':
        case '/two-factor/get-totp-uri': {
          // A session someone else got hold of must not become a way to guess its password: a
          // wrong one here counts as a failed sign-in of the account from this address. Read from
          // the database, the route's own session check then reuses it: a session ended
          // elsewhere is refused here at once, not after the cookie cache runs out.
          const session = await currentSession(ctx);
          if (!session) return;
          const key = signInFailureKey(session.user.email, ctx.headers?.get(CLIENT_ADDRESS_HEADER) ?? '');
          passwordChecks.set(ctx.context, { key, userId: session.user.id, token: session.session.token });
          const wait = await limiters.consume('signInFailures', key);
          if (wait !== null) throw tooManyRequests(wait);
          return;
        }
        case '/reset-password': {
          // Checked before the token reaches the database: a NUL in it, say, is no token of ours.
          if (!linkTokenSchema.safeParse(body.token).success) {
            throw badRequest(messages.resetLinkInvalid, 'INVALID_TOKEN');
          }
          const password = asString(body.newPassword);
          if (body.confirmPassword !== undefined && body.confirmPassword !== password) {
            throw badRequest(messages.passwordsDoNotMatch);
          }
          await checkNewPassword(password);
          return;
        }
        default:
          return;
      }
    }),
    after: createAuthMiddleware(async (ctx) => {
      const returned = ctx.context.returned;
      const failed = isAPIError(returned);
      if (ctx.path === '/sign-in/email') {
        const body = (ctx.body ?? {}) as Record<string, unknown>;
        const key = signInFailureKey(asString(body.email), ctx.headers?.get(CLIENT_ADDRESS_HEADER) ?? '');
        if (!failed) await limiters.reset('signInFailures', key);
        else if (returned.statusCode !== 401) await limiters.refund('signInFailures', key);
      }
      const passwordCheck = TWO_FACTOR_PASSWORD_PATHS.has(ctx.path)
        ? passwordChecks.get(ctx.context)
        : undefined;
      if (passwordCheck) {
        if (!failed) await limiters.reset('signInFailures', passwordCheck.key);
        else if (returned.body?.code !== 'INVALID_PASSWORD')
          await limiters.refund('signInFailures', passwordCheck.key);
      }
      const codeCheck = TWO_FACTOR_CODE_PATHS.has(ctx.path) ? codeChecks.get(ctx.context) : undefined;
      if (codeCheck) {
        // Two requests with one backup code at once: the plugin spends it for one and answers
        // the other CONFLICT. That one offered a used code, and counts as a wrong code does
        // (./account-routes.ts answers it as one).
        const lostRace =
          failed && ctx.path === '/two-factor/verify-backup-code' && returned.statusCode === 409;
        const wrongCode = failed && (lostRace || WRONG_CODE.has(String(returned.body?.code)));
        if (!failed) await limiters.reset('twoFactorCodes', codeCheck.userId);
        else if (!wrongCode) await limiters.refund('twoFactorCodes', codeCheck.userId);
        if (failed && codeCheck.claimed) await releaseCode(codeCheck.userId, codeCheck.claimed);
        // The first right code of a setup turned two-factor on, in a new session: no session
        // made before it (with the password alone) may go on.
        const turnedOn = !failed && codeCheck.turningOn ? ctx.context.newSession : null;
        if (turnedOn) await endOtherSessions(ctx, codeCheck.userId, turnedOn.session.token);
      }
      if (!failed && passwordCheck && SESSION_ENDING_PATHS.has(ctx.path)) {
        // Turning it off leaves this browser in a new session; new backup codes keep its own.
        const { userId } = passwordCheck;
        const keep =
          ctx.path === '/two-factor/disable' ? ctx.context.newSession?.session.token : passwordCheck.token;
        await endOtherSessions(ctx, userId, keep);
        // Devices trusted by other browsers are forgotten with it (the plugin forgets this one's).
        if (ctx.path === '/two-factor/disable') {
          await db
            .deleteFrom('verifications')
            .where('value', '=', userId)
            .where('identifier', 'like', 'trust-device-%')
            .execute();
        }
      }
      // Every session of the account has just ended. This browser's cached copy of its session
      // goes too, so the next look asks the database: signed out if it was this account's.
      if (ctx.path === '/reset-password' && !failed) {
        expireCookie(ctx, ctx.context.authCookies.sessionData);
      }
    }),
  };
}
