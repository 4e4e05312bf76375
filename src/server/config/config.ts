/**
 * The one place that reads the environment. Every setting of PRODUCT.md's configuration table is
 * parsed and checked here, once, at start-up; a wrong value stops the server with one line that
 * names the variable.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { isKnownCurrency } from '../../shared/amounts';
import { LANGUAGE_CODES, type Language } from '../../shared/languages';
import { readIfExists } from '../files/read-if-exists';

/** Sessions are signed with at least this many characters of secret. */
const MIN_SECRET_LENGTH = 32;

const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema.optional());

/** A mailbox such as support@localhost: an @ with something on each side, no spaces. */
const mailbox = z
  .string()
  .regex(/^[^\s@<>]+@[^\s@<>]+$/, 'must be an email address such as support@example.com');

/** One STUN or TURN server, as RTCPeerConnection takes it. */
const iceServerSchema = z.strictObject({
  urls: z.union(
    [
      z.string().regex(/^(stun|stuns|turn|turns):/),
      z.array(z.string().regex(/^(stun|stuns|turn|turns):/)).min(1),
    ],
    {
      error: 'each server needs urls starting with stun:, stuns:, turn: or turns:',
    },
  ),
  username: z.string().optional(),
  credential: z.string().optional(),
});

const envSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z.enum(['development', 'production', 'test']).default('development'),
  ),
  PORT: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 65535')
      .max(65535, 'must be between 0 and 65535')
      .default(3000),
  ),
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  APP_URL: optional(
    z.url({ protocol: /^https?$/, error: 'must be an http or https URL such as https://tutorlane.example' }),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: optional(
    z.url({
      protocol: /^postgres(ql)?$/,
      error: 'must be a PostgreSQL URL such as postgres://user@host:5432/db',
    }),
  ),
  DATABASE_LISTEN_URL: optional(
    z.url({
      protocol: /^postgres(ql)?$/,
      error: 'must be a PostgreSQL URL such as postgres://user@host:5432/db',
    }),
  ),
  SMTP_URL: optional(
    z.url({ protocol: /^smtps?$/, error: 'must be an SMTP URL such as smtp://user:pass@host:587' }),
  ),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Tutorlane <no-reply@localhost>')),
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, mailbox.default('support@localhost')),
  SUPPORT_PHONE: z.preprocess(
    emptyToUndefined,
    z.string().max(40, 'must be at most 40 characters').default('+1 (555) 010-0142'),
  ),
  AUTH_SECRET: optional(
    z.string().min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters long`),
  ),
  RECAPTCHA_SITE_KEY: optional(z.string()),
  RECAPTCHA_SECRET_KEY: optional(z.string()),
  TRUST_PROXY: optional(
    z.coerce
      .number({ error: 'must be a number of proxies such as 1' })
      .int('must be a whole number')
      .min(0, 'must be 0 or more')
      .max(10, 'must be at most 10'),
  ),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  REQUIRE_TUTOR_APPROVAL: z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
      .transform((value) => value === 'true' || value === '1')
      .default(false),
  ),
  ICE_SERVERS: z.preprocess(
    (value) => {
      if (typeof value !== 'string' || value.trim() === '') return undefined;
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    },
    z
      .array(iceServerSchema, {
        error: 'must be a JSON list such as [{"urls":"stun:stun.example.org:3478"}]',
      })
      .max(10, 'must list at most 10 servers')
      .default([]),
  ),
  CURRENCY: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim().toUpperCase() : undefined),
    z.string().refine(isKnownCurrency, 'must be an ISO 4217 currency code such as USD or EUR').default('USD'),
  ),
  COMMISSION_PERCENT: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number of percent')
      .min(0, 'must be between 0 and 50')
      .max(50, 'must be between 0 and 50')
      .default(15),
  ),
  PAYMENTS: z.preprocess(
    emptyToUndefined,
    z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  ),
  PAYMENT_INSTRUCTIONS: optional(z.string().max(2000, 'must be at most 2000 characters')),
  ADMIN_TWO_FACTOR: z.preprocess(
    emptyToUndefined,
    z.enum(['required', 'optional'], { error: 'must be required or optional' }).default('required'),
  ),
  DEFAULT_LANGUAGE: z.preprocess(
    emptyToUndefined,
    z.enum(LANGUAGE_CODES, { error: `must be one of ${LANGUAGE_CODES.join(', ')}` }).default('en'),
  ),
  PSEUDO_LANGUAGE: z.preprocess(
    emptyToUndefined,
    z.enum(['on', 'off'], { error: 'must be on or off' }).default('off'),
  ),
  STRIPE_SECRET_KEY: optional(z.string()),
  STRIPE_WEBHOOK_SECRET: optional(z.string()),
  STRIPE_API_URL: optional(
    z.url({ protocol: /^https?$/, error: 'must be an http or https URL such as http://127.0.0.1:12111' }),
  ),
  BACKUP_DIR: optional(z.string()),
  BACKUP_EVERY_HOURS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number of hours such as 24, or 0 for no scheduled backups' })
      .min(0, 'must be 0 (off) or more')
      .max(24 * 365, 'must be at most 8760 (a year)')
      .default(24),
  ),
  BACKUP_KEEP: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(1000, 'must be at most 1000')
      .default(7),
  ),
  METRICS_TOKEN: optional(z.string().min(16, 'must be at least 16 characters long')),
});

/** How students pay for lessons, and how the school takes its share. */
export interface PaymentsConfig {
  /** False: lessons are booked without money through Tutorlane (the school settles it elsewhere). */
  on: boolean;
  /** ISO 4217; every amount is an integer in its minor unit. */
  currency: string;
  /** The school's share of each lesson, 0 to 50. */
  commissionPercent: number;
  /**
   * What a bank-transfer top-up says to do until an admin writes it in Site settings: never read
   * directly, but as the settings in effect (src/server/settings/site-settings.ts).
   */
  instructions: string;
  /** Card top-ups through Stripe Checkout, when both keys are set. */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | undefined;
}

/** The embedded store's scheduled backups (PostgreSQL is backed up with its own tools). */
export interface BackupConfig {
  /** Where scheduled backups are written: BACKUP_DIR, by default DATA_DIR/backups. */
  dir: string;
  /** Hours between scheduled backups; 0 turns them off. */
  everyHours: number;
  /** How many scheduled backups are kept; older ones are removed. */
  keep: number;
}

/**
 * What a manual top-up says when the school has written no instructions: it knows no bank
 * details, so it says how to get them. The wallet shows it under the top-up's reference, beside
 * a link to a support conversation.
 */
export const DEFAULT_PAYMENT_INSTRUCTIONS =
  'The school has not put its bank details here yet. Message support to ask for them, quoting this reference, and put the reference on your transfer so the school can match it to your wallet. Your balance goes up once the school confirms the money arrived.';

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  appUrl: string;
  /** True when APP_URL is https: cookies get Secure and responses HSTS. */
  secure: boolean;
  /** Origins whose requests may change state: APP_URL's, and 127.0.0.1 beside localhost when APP_URL is the default. */
  trustedOrigins: string[];
  dataDir: string;
  databaseUrl: string | undefined;
  /** Where the live channel's listener connects, when not through DATABASE_URL (docs/scaling.md). */
  databaseListenUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  supportPhone: string;
  authSecret: string;
  recaptcha: { siteKey: string; secretKey: string } | undefined;
  trustProxy: number;
  logLevel: string;
  /** Whether only tutors an admin approved are listed; off, so a small school is never blocked. */
  requireTutorApproval: boolean;
  /** STUN and TURN servers for the lesson room; none means host candidates only (one network). */
  iceServers: { urls: string | string[]; username?: string | undefined; credential?: string | undefined }[];
  payments: PaymentsConfig;
  backups: BackupConfig;
  /** The bearer token GET /metrics asks for; unset, /metrics does not exist (404). */
  metricsToken: string | undefined;
  /**
   * Whether an admin must have two-factor sign-in on before the console lets them in: `required`
   * by default, since one stolen admin password otherwise opens every account and the school's money.
   */
  adminTwoFactor: 'required' | 'optional';
  /** The school's language until an admin picks one in Site settings (then that one). */
  defaultLanguage: Language;
  /** Whether the test pseudo-language may be chosen (the `lang=pseudo` cookie): for tests only. */
  pseudoLanguage: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/**
 * Parses the environment. Throws ConfigError with one line naming the first bad variable.
 * `generateSecret: false` is for commands that sign nothing (restore): they must not create
 * DATA_DIR and a new secret in it; their `authSecret` is AUTH_SECRET or empty.
 */
export function loadConfig(env: Env = process.env, options: { generateSecret?: boolean } = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    const raw = env[name];
    const shown =
      raw === undefined
        ? ''
        : ` (got "${name.includes('SECRET') || name.includes('TOKEN') || name.endsWith('_URL') || name === 'ICE_SERVERS' ? '…' : raw}")`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is not valid'}${shown}`);
  }
  const e = parsed.data;

  if (Boolean(e.RECAPTCHA_SITE_KEY) !== Boolean(e.RECAPTCHA_SECRET_KEY)) {
    const missing = e.RECAPTCHA_SITE_KEY ? 'RECAPTCHA_SECRET_KEY' : 'RECAPTCHA_SITE_KEY';
    throw new ConfigError(
      `Invalid configuration: ${missing} must be set too (reCAPTCHA needs both keys, or neither for the built-in captcha)`,
    );
  }
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    const missing = e.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY';
    throw new ConfigError(
      `Invalid configuration: ${missing} must be set too (card top-ups need both Stripe keys, or neither)`,
    );
  }
  if (e.DATABASE_LISTEN_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_LISTEN_URL is for PostgreSQL: set DATABASE_URL too, or neither',
    );
  }
  if (e.NODE_ENV === 'production' && e.DATABASE_URL && !e.AUTH_SECRET) {
    throw new ConfigError(
      'Invalid configuration: AUTH_SECRET is required when NODE_ENV=production and DATABASE_URL is set (every server must sign sessions with the same secret)',
    );
  }

  const dataDir = resolve(e.DATA_DIR);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    appUrl,
    secure: appUrl.startsWith('https:'),
    trustedOrigins: e.APP_URL
      ? [new URL(appUrl).origin]
      : [`http://localhost:${e.PORT}`, `http://127.0.0.1:${e.PORT}`],
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseListenUrl: e.DATABASE_LISTEN_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    supportPhone: e.SUPPORT_PHONE,
    authSecret: e.AUTH_SECRET ?? (options.generateSecret === false ? '' : readOrCreateSecret(dataDir)),
    recaptcha:
      e.RECAPTCHA_SITE_KEY && e.RECAPTCHA_SECRET_KEY
        ? { siteKey: e.RECAPTCHA_SITE_KEY, secretKey: e.RECAPTCHA_SECRET_KEY }
        : undefined,
    trustProxy: e.TRUST_PROXY ?? 0,
    logLevel: e.LOG_LEVEL,
    requireTutorApproval: e.REQUIRE_TUTOR_APPROVAL,
    iceServers: e.ICE_SERVERS,
    payments: {
      on: e.PAYMENTS === 'on',
      currency: e.CURRENCY,
      commissionPercent: e.COMMISSION_PERCENT,
      instructions: e.PAYMENT_INSTRUCTIONS?.trim() || DEFAULT_PAYMENT_INSTRUCTIONS,
      stripe:
        e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
          ? {
              secretKey: e.STRIPE_SECRET_KEY,
              webhookSecret: e.STRIPE_WEBHOOK_SECRET,
              apiUrl: e.STRIPE_API_URL,
            }
          : undefined,
    },
    backups: {
      dir: e.BACKUP_DIR ? resolve(e.BACKUP_DIR) : join(dataDir, 'backups'),
      everyHours: e.BACKUP_EVERY_HOURS,
      keep: e.BACKUP_KEEP,
    },
    metricsToken: e.METRICS_TOKEN,
    adminTwoFactor: e.ADMIN_TWO_FACTOR,
    defaultLanguage: e.DEFAULT_LANGUAGE,
    pseudoLanguage: e.PSEUDO_LANGUAGE === 'on',
  };
}

/**
 * A secret generated on first start and kept in the data folder, readable only by its owner. A
 * problem with the folder or the file stops start-up with one line, like a bad variable.
 */
function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'auth-secret');
  let secret: string;
  try {
    secret = (readIfExists(file) ?? createSecretFile(dataDir, file)).trim();
  } catch (error) {
    throw new ConfigError(`Invalid configuration: DATA_DIR ${dataDir} ${whyUnusable(error)}`);
  }
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      `Invalid configuration: the session secret in ${file} is shorter than ${MIN_SECRET_LENGTH} characters (a first start cut short?); delete the file to generate a new one, or set AUTH_SECRET`,
    );
  }
  return secret;
}

function createSecretFile(dataDir: string, file: string): string {
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  // Written whole and flushed under a draft name, then linked into place. link fails when the file
  // exists, so of two servers starting together the first wins and both sign with its secret, and
  // nobody ever reads a file that is created but not yet written.
  const draft = `${file}.${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    writeFileSync(draft, `${secret}\n`, { mode: 0o600, flush: true });
    linkSync(draft, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8');
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

function whyUnusable(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'is a file, not a folder';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return 'cannot be written by this user (the generated session secret lives there)';
  }
  return `cannot hold the generated session secret: ${message}`;
}
