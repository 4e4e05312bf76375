/**
 * Better Auth, configured for Tutorlane: email and password accounts on our own Kysely database
 * (snake_case tables: one users row is account and profile), argon2id hashes, our own
 * single-use verification links, the product's sign-up checks in the order its messages are
 * given, the captcha checked by the server before any account exists, and failed sign-ins
 * counted per account and client address. Two-factor sign-in is Better Auth's own plugin, its
 * wrong codes counted per account by our rate limits, each authenticator code taken once per
 * account, and each session marked when it proved a second factor. Sessions carry Better Auth's
 * signed cookie cache (./session.ts says where it is trusted), refused for an account deleted since
 * it was made (./ended-accounts.ts).
 */

import { createHash } from 'node:crypto';
import { type BetterAuthPlugin, betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { expireCookie } from 'better-auth/cookies';
import { twoFactor } from 'better-auth/plugins';
import type { Kysely } from 'kysely';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  PASSWORD_RESET_TTL_SECONDS,
  PRODUCT_NAME,
} from '../../shared/constants';
import * as messages from '../../shared/messages';
import { paths } from '../../shared/routes';
import { displayNameSchema, emailSchema, linkTokenSchema, roleSchema } from '../../shared/schemas';
import { firstSignUpProblem } from '../../shared/sign-up-checks';
import type { CaptchaVerifier } from '../captcha/captcha';
import type { Config } from '../config/config';
import type { DB } from '../db/schema';
import { rotateCalendarFeed } from '../lessons/calendar-feed';
import type { Logger } from '../logging/logger';
import { passwordResetMail, verificationMail } from '../mail/mail-templates';
import type { Mailer } from '../mail/mailer';
import type { RateLimiters } from '../rate-limit/rate-limits';
import { issueVerificationToken } from './email-verification';
import type { EndedAccounts } from './ended-accounts';
import { hashPassword, verifyPassword } from './password-hashing';
import { isCommonPassword } from './password-policy';
import {
  SESSION_CACHE_SECONDS,
  SESSION_COOKIE_PREFIX,
  SESSION_EXPIRES_IN_SECONDS,
  SESSION_UPDATE_AGE_SECONDS,
} from './session';

/** Carries the client address from our HTTP layer to Better Auth (sessions record it). */
export const CLIENT_ADDRESS_HEADER = 'x-tutorlane-client-address';
/** The captcha solution travels in a header, so the JSON body stays Better Auth's. */
export const CAPTCHA_HEADER = 'x-captcha';

export interface AuthDependencies {
  config: Config;
  db: Kysely<DB>;
  mailer: Mailer;
  captcha: CaptchaVerifier;
  limiters: RateLimiters;
  logger: Logger;
  /** Told of every session Better Auth deletes (a sign-out), so what holds it open can close. */
  onSessionEnded?: (sessionToken: string) => Promise<void>;
  /** The support address in effect (Site settings), named to a suspended user; else SUPPORT_EMAIL. */
  supportEmail?: () => string;
  /** Accounts deleted lately: a cached copy of one of their sessions is not believed. */
  endedAccounts: Pick<EndedAccounts, 'cacheVersion'>;
}

const badRequest = (message: string, code = 'VALIDATION_ERROR') =>
  new APIError('BAD_REQUEST', { message, code });

/** What a suspended user is told when they try to sign in. */
export function suspendedMessage(reason: string | null, supportEmail: string): string {
  return `Your account has been suspended${reason ? `: ${reason}` : '.'} If you think this is a mistake, write to ${supportEmail}.`;
}

/** A user as Better Auth's adapter reads it: suspended or not, and why. */
function suspensionOf(user: unknown): { suspended: boolean; reason: string | null } {
  const fields = (user ?? {}) as { suspendedAt?: unknown; suspensionReason?: unknown };
  return {
    suspended: Boolean(fields.suspendedAt),
    reason: typeof fields.suspensionReason === 'string' ? fields.suspensionReason : null,
  };
}

const asString = (value: unknown) => (typeof value === 'string' ? value : '');

const tooManyRequests = (wait: number) =>
  new APIError(
    'TOO_MANY_REQUESTS',
    { message: messages.tooManyRequests, code: 'TOO_MANY_REQUESTS' },
    { 'Retry-After': String(wait) },
  );

/** How long "Trust this device" spares a browser the code. */
export const TRUST_DEVICE_SECONDS = 30 * 24 * 60 * 60;

/** The plugin's routes that check a code, and the refusals that mean the code was wrong. */
const TWO_FACTOR_CODE_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);
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

/**
 * A password sign-in that the plugin let through without a code, the account having two-factor
 * on, came from a trusted device (a code was given there within 30 days): its session proved the
 * second factor. Runs after the plugin's own hook on the sign-in, which is what decides: listed
 * after `twoFactor()`, and when the plugin asked for a code it has deleted the session and left
 * `newSession` empty.
 */
const trustedDeviceSessions = {
  id: 'tutorlane-trusted-device-sessions',
  hooks: {
    after: [
      {
        matcher: (ctx) => ctx.path === '/sign-in/email',
        handler: createAuthMiddleware(async (ctx) => {
          // The plugin's field on the user is not in the session's type.
          const made = ctx.context.newSession as {
            session: { token: string };
            user: { twoFactorEnabled?: unknown };
          } | null;
          if (made?.user.twoFactorEnabled !== true || isAPIError(ctx.context.returned)) return;
          await ctx.context.internalAdapter.updateSession(made.session.token, { twoFactorVerified: true });
        }),
      },
    ],
  },
} satisfies BetterAuthPlugin;

/** A verification identifier kept as its SHA-256, after `kind` (which says what it is, nothing more). */
const hashedAs = (kind: string) => ({
  hash: async (identifier: string) => `${kind}${createHash('sha256').update(identifier).digest('base64url')}`,
});

/** A Better Auth log line cut to this length: some carry what a client sent. */
const MAX_LOGGED_MESSAGE = 300;

export function createAuth(deps: AuthDependencies) {
  const { config, db, mailer, captcha, limiters, logger } = deps;

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

  return betterAuth({
    appName: PRODUCT_NAME,
    baseURL: config.appUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    database: { db, type: 'postgres', transaction: true },
    trustedOrigins: config.trustedOrigins,
    telemetry: { enabled: false },
    databaseHooks: {
      session: {
        // A suspended user's password may be right, but no session is made for them: they are
        // told why, and where to write, after the password was checked (so the answer tells a
        // stranger nothing about an account).
        create: {
          before: async (session, context) => {
            // Through Better Auth's adapter, which joins the sign-up's transaction when there is
            // one: a query of our own would wait for that transaction's connection.
            const user = context ? await context.context.internalAdapter.findUserById(session.userId) : null;
            const suspension = suspensionOf(user);
            if (suspension.suspended) {
              throw new APIError('FORBIDDEN', {
                message: suspendedMessage(suspension.reason, deps.supportEmail?.() ?? config.supportEmail),
                code: 'ACCOUNT_SUSPENDED',
              });
            }
            // A session made by a right code (finishing a sign-in, or turning two-factor on)
            // proved the second factor; any other starts without it, whatever a session it
            // replaces said. (A trusted device's sign-in is marked by trustedDeviceSessions.)
            return {
              data: { ...session, twoFactorVerified: TWO_FACTOR_CODE_PATHS.has(context?.path ?? '') },
            };
          },
        },
        delete: {
          after: async (session) => {
            await deps.onSessionEnded?.(session.token);
          },
        },
      },
    },
    onAPIError: {
      // A refusal of what the client sent (a common password, a wrong code) is answered with its
      // 4xx and logged with the request's own line; only the server's failures are errors. Left to
      // itself, Better Auth logs some refusals as errors, guessing from their words (a message
      // containing "table" reads to it as a database problem).
      onError: (error) => {
        if (isAPIError(error) && error.statusCode < 500)
          logger.debug({ source: 'better-auth', status: error.statusCode }, error.message);
        else logger.error({ source: 'better-auth', err: error }, 'authentication failed on the server');
      },
    },
    logger: {
      log: (level, message) => {
        // Better Auth reports a request it refuses for what the client sent (an origin or a callback
        // URL it does not trust) as an error, with the client's text in it: a warning here, cut short.
        const refusal = message.startsWith('Invalid ');
        const method = refusal || level === 'warn' ? 'warn' : level === 'error' ? 'error' : 'debug';
        const text =
          message.length > MAX_LOGGED_MESSAGE ? `${message.slice(0, MAX_LOGGED_MESSAGE)}…` : message;
        // Its own messages can name an email address; they stay at debug unless warnings or errors.
        logger[method]({ source: 'better-auth' }, text);
      },
    },
    user: {
      modelName: 'users',
      fields: {
        name: 'display_name',
        emailVerified: 'email_verified',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
      additionalFields: {
        role: {
          type: ['student', 'tutor'],
          required: false,
          defaultValue: 'student',
          input: true,
          validator: { input: roleSchema },
        },
        // Never from a request: the command line grants it (src/server/admin/admins.ts).
        isAdmin: {
          type: 'boolean',
          fieldName: 'is_admin',
          required: false,
          defaultValue: false,
          input: false,
        },
        // Read with the session so the browser knows whether a zone is saved; written only by the
        // profile's routes (src/server/profile/profile-details-routes.ts), never through sign-up.
        timeZone: {
          type: 'string',
          fieldName: 'time_zone',
          required: false,
          input: false,
        },
        suspendedAt: {
          type: 'date',
          fieldName: 'suspended_at',
          required: false,
          input: false,
        },
        suspensionReason: {
          type: 'string',
          fieldName: 'suspension_reason',
          required: false,
          input: false,
          returned: false,
        },
      },
    },
    session: {
      modelName: 'sessions',
      fields: {
        userId: 'user_id',
        expiresAt: 'expires_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
      expiresIn: SESSION_EXPIRES_IN_SECONDS,
      updateAge: SESSION_UPDATE_AGE_SECONDS,
      cookieCache: {
        enabled: true,
        maxAge: SESSION_CACHE_SECONDS,
        // Checked on every read of a cache, ours (./session.ts) and Better Auth's own: the cache of
        // a deleted account is refused at once, not when it expires.
        version: (_session, user) => deps.endedAccounts.cacheVersion(user),
      },
      additionalFields: {
        // Whether this session proved a second factor: set by the hooks here, never by a request.
        // Where admins must use two-factor, only such a session opens the console (../platform/session-guards.ts).
        twoFactorVerified: {
          type: 'boolean',
          fieldName: 'two_factor_verified',
          required: false,
          defaultValue: false,
          input: false,
        },
      },
    },
    account: {
      modelName: 'accounts',
      fields: {
        userId: 'user_id',
        accountId: 'account_id',
        providerId: 'provider_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
    },
    verification: {
      modelName: 'verifications',
      fields: { expiresAt: 'expires_at', createdAt: 'created_at', updatedAt: 'updated_at' },
      // Reset tokens are kept as hashes: a copy of the database cannot reset anyone's password.
      // The two-factor plugin's trusted devices and pending sign-ins are hashed too, under their
      // kind's name, so turning two-factor off or resetting it can find an account's and forget
      // them (their rows name the account in `value`).
      storeIdentifier: {
        default: 'hashed',
        overrides: { 'trust-device-': hashedAs('trust-device-'), '2fa-': hashedAs('2fa-') },
      },
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      requireEmailVerification: false,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: PASSWORD_RESET_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      // The calendar address is a key that needs no session: whoever held the account before the
      // reset loses it too. (Run after the new password is saved; the owner finds the new address
      // in their settings.)
      async onPasswordReset({ user }) {
        await rotateCalendarFeed(db, user.id);
      },
      async sendResetPassword({ user, token }) {
        // A new link voids the older ones of the same account.
        const current = await db
          .selectFrom('verifications')
          .select('id')
          .where('value', '=', user.id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .executeTakeFirst();
        if (current) {
          await db
            .deleteFrom('verifications')
            .where('value', '=', user.id)
            .where('id', '!=', current.id)
            .execute();
        }
        const link = `${config.appUrl}${paths.resetPassword}?token=${encodeURIComponent(token)}`;
        await mailer.sendMail({ to: user.email, ...passwordResetMail({ displayName: user.name, link }) });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // Better Auth's stateless link is replaced by ours (random, stored hashed, single use).
      async sendVerificationEmail({ user }) {
        const token = await issueVerificationToken(db, user.id);
        const link = `${config.appUrl}${paths.verifyEmail}?token=${token}`;
        await mailer.sendMail({ to: user.email, ...verificationMail({ displayName: user.name, link }) });
      },
    },
    plugins: [
      twoFactor({
        issuer: PRODUCT_NAME,
        trustDeviceMaxAge: TRUST_DEVICE_SECONDS,
        // Wrong codes are counted by our rate limits instead (twoFactorCodes), on every route that
        // checks one, setup and turning it off included: one count, one 429, one place to change it.
        accountLockout: { enabled: false },
        schema: {
          user: { fields: { twoFactorEnabled: 'two_factor_enabled' } },
          twoFactor: {
            modelName: 'two_factors',
            fields: {
              userId: 'user_id',
              backupCodes: 'backup_codes',
              failedVerificationCount: 'failed_verification_count',
              lockedUntil: 'locked_until',
            },
          },
        },
      }),
      // After twoFactor(): its hook on the sign-in runs first.
      trustedDeviceSessions,
    ],
    rateLimit: { enabled: false },
    disabledPaths: ['/verify-email'],
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: config.secure,
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    hooks: {
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
              throw badRequest('Role must be student or tutor');
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
            const wait = await limiters.consume(
              'signInFailures',
              signInFailureKey(email.data, clientAddress),
            );
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
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
