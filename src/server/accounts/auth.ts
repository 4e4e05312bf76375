/**
 * Better Auth, configured for Tutorlane: email and password accounts on our own Kysely database
 * (snake_case tables: one users row is account and profile), argon2id hashes, our own
 * single-use verification links, and two-factor sign-in by Better Auth's own plugin, each session
 * marked when it proved a second factor. What we check around its routes (the product's sign-up
 * checks and the captcha, failed sign-ins and wrong codes counted, each authenticator code taken
 * once) is in ./auth-checks.ts. Sessions carry Better Auth's signed cookie cache (./session.ts
 * says where it is trusted), refused for an account deleted since it was made
 * (./ended-accounts.ts).
 */

import { createHash } from 'node:crypto';
import { type BetterAuthPlugin, betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { twoFactor } from 'better-auth/plugins';
import type { Kysely } from 'kysely';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  PASSWORD_RESET_TTL_SECONDS,
  PRODUCT_NAME,
} from '../../shared/constants';
import { paths } from '../../shared/routes';
import { languageSchema, roleSchema } from '../../shared/schemas';
import type { CaptchaVerifier } from '../captcha/captcha';
import type { Config } from '../config/config';
import type { DB } from '../db/schema';
import { type ErrorText, sayError } from '../http/api-error';
import { rotateCalendarFeed } from '../lessons/calendar-feed';
import type { Logger } from '../logging/logger';
import { type DefaultLanguage, mailLanguage } from '../mail/mail-language';
import { passwordResetMail, verificationMail } from '../mail/mail-templates';
import type { Mailer } from '../mail/mailer';
import { isTwoFactorRow, TWO_FACTOR_KINDS } from '../platform/two-factor-rows';
import type { RateLimiters } from '../rate-limit/rate-limits';
import { CLIENT_ADDRESS_HEADER, createAuthChecks, TWO_FACTOR_CODE_PATHS } from './auth-checks';
import { issueVerificationToken } from './email-verification';
import type { EndedAccounts } from './ended-accounts';
import { hashPassword, verifyPassword } from './password-hashing';
import {
  SESSION_CACHE_SECONDS,
  SESSION_COOKIE_PREFIX,
  SESSION_EXPIRES_IN_SECONDS,
  SESSION_UPDATE_AGE_SECONDS,
} from './session';

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
  /** The school's default language (Site settings, else DEFAULT_LANGUAGE): mails to someone who never chose one. */
  defaultLanguage?: DefaultLanguage;
}

/** What a suspended user is told when they try to sign in. */
export function suspendedMessage(reason: string | null, supportEmail: string): ErrorText {
  return reason
    ? {
        text: /*i18n*/ 'Your account has been suspended: {reason} If you think this is a mistake, write to {email}.',
        values: { reason, email: supportEmail },
      }
    : {
        text: /*i18n*/ 'Your account has been suspended. If you think this is a mistake, write to {email}.',
        values: { email: supportEmail },
      };
}

/** The language a user saved (an additional field, not in Better Auth's user type); null if none. */
const languageOf = (user: unknown): string | null => {
  const saved = (user as { language?: unknown } | null)?.language;
  return typeof saved === 'string' ? saved : null;
};

/** A user as Better Auth's adapter reads it: suspended or not, and why. */
function suspensionOf(user: unknown): { suspended: boolean; reason: string | null } {
  const fields = (user ?? {}) as { suspendedAt?: unknown; suspensionReason?: unknown };
  return {
    suspended: Boolean(fields.suspendedAt),
    reason: typeof fields.suspensionReason === 'string' ? fields.suspensionReason : null,
  };
}

/** How long "Trust this device" spares a browser the code. */
export const TRUST_DEVICE_SECONDS = 30 * 24 * 60 * 60;

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
              const said = suspendedMessage(suspension.reason, deps.supportEmail?.() ?? config.supportEmail);
              // In English here; ./account-routes.ts says it again in the caller's language.
              throw new APIError('FORBIDDEN', {
                message: sayError('en', said),
                code: 'ACCOUNT_SUSPENDED',
                suspension: said,
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
        // Read with the session, so the dashboard's greeting needs no statement of its own: the
        // session the account was first welcomed in (../dashboard/dashboards.ts writes it).
        welcomedSessionId: {
          type: 'string',
          fieldName: 'welcomed_session_id',
          required: false,
          input: false,
        },
        // Saved by sign-up (the language of the sign-up page, so the verification mail is in it)
        // and by the profile's PATCH; read with the session for pages, errors and mails.
        language: {
          type: 'string',
          required: false,
          input: true,
          validator: { input: languageSchema.nullish() },
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
        overrides: Object.fromEntries(TWO_FACTOR_KINDS.map((kind) => [kind, hashedAs(kind)])),
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
        // A new link voids the older ones of the same account. The two-factor plugin's trusted
        // devices and pending sign-ins name the account in `value` too, and stay: anyone who
        // knows an address can ask for a reset.
        const resetLinks = db
          .selectFrom('verifications')
          .where('value', '=', user.id)
          .where((eb) => eb.not(isTwoFactorRow(eb)));
        const current = await resetLinks
          .select('id')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .executeTakeFirst();
        if (current) {
          await db
            .deleteFrom('verifications')
            .where('id', 'in', resetLinks.select('id'))
            .where('id', '!=', current.id)
            .execute();
        }
        const link = `${config.appUrl}${paths.resetPassword}?token=${encodeURIComponent(token)}`;
        const language = mailLanguage(
          languageOf(user),
          deps.defaultLanguage ?? (() => config.defaultLanguage),
        );
        await mailer.sendMail({
          to: user.email,
          ...passwordResetMail({ displayName: user.name, link, language }),
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // Better Auth's stateless link is replaced by ours (random, stored hashed, single use).
      async sendVerificationEmail({ user }) {
        const token = await issueVerificationToken(db, user.id);
        const link = `${config.appUrl}${paths.verifyEmail}?token=${token}`;
        // Right after sign-up, `user` is the new account: its language is the one sign-up saved.
        const language = mailLanguage(
          languageOf(user),
          deps.defaultLanguage ?? (() => config.defaultLanguage),
        );
        await mailer.sendMail({
          to: user.email,
          ...verificationMail({ displayName: user.name, link, language }),
        });
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
      // Every signed-in request reads its session: with joins the session and its user come in
      // one statement (the adapter's join) rather than two.
      database: { joins: true },
    },
    hooks: createAuthChecks({ db, captcha, limiters }),
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * Gives an account a password sign-in through Better Auth's own context: its hasher, and the
 * credential account row its sign-in reads (a child accepting their parent's invitation).
 */
export const credentialMaker = (auth: Auth) => async (userId: string, password: string) => {
  const context = await auth.$context;
  await context.internalAdapter.linkAccount({
    userId,
    providerId: 'credential',
    accountId: userId,
    password: await context.password.hash(password),
  });
};
