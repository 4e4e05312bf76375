/**
 * Better Auth, configured for Tutorlane: email and password accounts on our own Kysely database
 * (snake_case tables: one users row is account and profile), argon2id hashes, our own
 * single-use verification links, the product's sign-up checks in the order its messages are
 * given, the captcha checked by the server before any account exists, and failed sign-ins
 * counted per account and client address. Two-factor sign-in is Better Auth's own plugin, its
 * wrong codes counted per account by our rate limits. Sessions carry Better Auth's signed cookie
 * cache (./session.ts says where it is trusted), refused for an account deleted since it was made
 * (./ended-accounts.ts).
 */

import { betterAuth } from 'better-auth';
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
   * The account a two-factor code is for: the signed-in one (setting it up, turning it off), else
   * the one whose sign-in waits for its code, named by the plugin's signed cookie.
   */
  async function twoFactorAccount(ctx: Parameters<typeof getSessionFromCtx>[0]): Promise<string | null> {
    const session = await getSessionFromCtx(ctx).catch(() => null);
    if (session) return session.user.id;
    const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
    const pending = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
    if (!pending) return null;
    const challenge = await ctx.context.internalAdapter.findVerificationValue(pending);
    return challenge?.value ?? null;
  }
  /** Whose code each request checks, from its before hook to its after hook. */
  const codeAccounts = new WeakMap<object, string>();
  /** The sign-in failure count a password check of the two-factor routes spends, likewise. */
  const passwordChecks = new WeakMap<object, string>();

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
      storeIdentifier: 'hashed',
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
            codeAccounts.set(ctx.context, account);
            const wait = await limiters.consume('twoFactorCodes', account);
            if (wait !== null) throw tooManyRequests(wait);
            return;
          }
          case '/two-factor/enable':
          case '/two-factor/disable':
          case '/two-factor/generate-backup-codes':
          case '/two-factor/get-totp-uri': {
            // A session someone else got hold of must not become a way to guess its password: a
            // wrong one here counts as a failed sign-in of the account from this address.
            const session = await getSessionFromCtx(ctx).catch(() => null);
            if (!session) return;
            const key = signInFailureKey(session.user.email, ctx.headers?.get(CLIENT_ADDRESS_HEADER) ?? '');
            passwordChecks.set(ctx.context, key);
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
        const passwordKey = TWO_FACTOR_PASSWORD_PATHS.has(ctx.path)
          ? passwordChecks.get(ctx.context)
          : undefined;
        if (passwordKey) {
          if (!failed) await limiters.reset('signInFailures', passwordKey);
          else if (returned.body?.code !== 'INVALID_PASSWORD')
            await limiters.refund('signInFailures', passwordKey);
        }
        const codeAccount = TWO_FACTOR_CODE_PATHS.has(ctx.path) ? codeAccounts.get(ctx.context) : undefined;
        if (codeAccount) {
          const wrongCode = failed && WRONG_CODE.has(String(returned.body?.code));
          if (!failed) await limiters.reset('twoFactorCodes', codeAccount);
          else if (!wrongCode) await limiters.refund('twoFactorCodes', codeAccount);
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
