/**
 * Builds the Hono application from its dependencies: one pipeline for everything the server
 * answers (health, the JSON API, pages and assets). Nothing here listens on a port or reads the
 * environment, so tests call the same app in-process with their own database and config.
 *
 * The API is one chain of routes, and its type, `AppType`, is the contract the browser calls
 * through `hc<AppType>()` (src/client/lib/api.ts): request and response types are written once.
 */
import { join } from 'node:path';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import * as messages from '../shared/messages';
import { isKnownPagePath } from '../shared/routes';
import { tutorIdSchema } from '../shared/tutor-schemas';
import { accountDataRoutes } from './account-data/account-data-routes';
import { accountRoutes } from './accounts/account-routes';
import { type Auth, createAuth, credentialMaker } from './accounts/auth';
import { createEndedAccounts, type EndedAccounts } from './accounts/ended-accounts';
import { verifyPassword } from './accounts/password-hashing';
import { createSessionReader, SESSION_COOKIE_PREFIX } from './accounts/session';
import { adminRoutes } from './admin/admin-routes';
import { type Backups, createBackups } from './backup/backups';
import {
  type AltchaTuning,
  type CaptchaVerifier,
  createAltchaVerifier,
  createRecaptchaVerifier,
} from './captcha/captcha';
import { captchaRoutes } from './captcha/captcha-routes';
import { CLASS_MAIL_TEMPLATE, classMailTemplate } from './classes/class-mail-template';
import { classRoutes } from './classes/class-routes';
import type { Config } from './config/config';
import { contactRoutes } from './contact/contact-routes';
import { dashboardRoutes } from './dashboard/dashboard-routes';
import type { Database } from './db/database';
import { familyRoutes } from './family/family-routes';
import { createHealthMonitor, type HealthMonitor, healthRoutes } from './health/health-routes';
import {
  ApiError,
  type ErrorStatus,
  errorResponse,
  isDatabaseUnavailable,
  serviceUnavailable,
} from './http/api-error';
import type { AppEnv } from './http/app-env';
import { requestLanguage } from './http/language';
import { sameOriginOnly } from './http/origin-check';
import { requestLogger } from './http/request-logger';
import { securityHeaders } from './http/security-headers';
import { mountStaticSite } from './http/static-site';
import { LESSON_MAIL_TEMPLATE, lessonMailTemplate } from './lessons/lesson-mail-template';
import { lessonRoutes } from './lessons/lesson-routes';
import { roomRoutes } from './lessons/room-routes';
import { bookableTutor } from './lessons/slots';
import type { Logger } from './logging/logger';
import { createMailer, type Mailer } from './mail/mailer';
import { createLiveHub, type LiveHub } from './messages/live';
import { messageRoutes } from './messages/message-routes';
import { lessonLine } from './messages/messages';
import { createMetrics, METRICS_PATH, type Metrics } from './metrics/metrics';
import { packageRoutes } from './money/package-routes';
import { stripeCardPayments } from './money/stripe';
import { type CardPayments, walletRoutes } from './money/wallet-routes';
import type { SessionReader } from './platform/session-guards';
import type { Listing } from './platform/tutor-listing';
import { PHOTO_PATH, profileDetailsRoutes } from './profile/profile-details-routes';
import { profileRoutes } from './profile/profile-routes';
import { verificationRoutes } from './profile/verification-routes';
import { progressRoutes } from './progress/progress-routes';
import {
  type PublicPayments,
  publicConfigOf,
  publicConfigRoutes,
} from './public-config/public-config-routes';
import type { ConcurrencyLimit } from './rate-limit/concurrency-limit';
import { createRateLimiters, type RateLimiters } from './rate-limit/rate-limits';
import { reviewRoutes } from './reviews/review-routes';
import { scheduleRoutes } from './schedule/schedule-routes';
import { cachedFor, readSchoolFigures, SCHOOL_FIGURES_MAX_AGE_MS } from './settings/school-figures';
import { createSettingsSnapshot, type SettingsSnapshot } from './settings/settings-snapshot';
import { readSiteSettings } from './settings/site-settings';
import { tutorRoutes } from './tutors/tutor-routes';
import { findListedTutor } from './tutors/tutor-search';

export interface AppDependencies {
  config: Config;
  database: Database;
  logger: Logger;
  /** The built browser app (dist/client); omitted in API tests. */
  clientDir?: string | undefined;
  mailer?: Mailer;
  captcha?: CaptchaVerifier;
  /** ALTCHA difficulty; tests make it trivial. */
  altchaTuning?: AltchaTuning;
  limiters?: RateLimiters;
  /** Photo decoding slots; by default the process-wide ones. */
  photoDecodes?: ConcurrencyLimit;
  /** False for a person reading a terminal: requests are logged only when they need attention. */
  logEveryRequest?: boolean;
  /** How old the settings held may grow before they are read again (another server's change); tests shorten it. */
  settingsMaxAgeMs?: number;
  /** How old the school's counts and typical rate may grow before they are read again; tests shorten it. */
  schoolFiguresMaxAgeMs?: number;
  /** Card payments; by default Stripe's, when configured. */
  cards?: CardPayments;
}

export interface AppServices {
  health: HealthMonitor;
  mailer: Mailer;
  captcha: CaptchaVerifier;
  limiters: RateLimiters;
  /** The live channel's sockets, and the other servers' through PostgreSQL. */
  live: LiveHub;
  /** Accounts deleted lately, whose cached sessions are refused (on every server, through `live`). */
  endedAccounts: EndedAccounts;
  /** The site settings in effect (figures, support details, subjects), as pages carry them. */
  settings: SettingsSnapshot;
  /** Card top-ups through Stripe, when both of its keys are set. */
  cards: CardPayments | undefined;
  /** GET /metrics and what it counts. */
  metrics: Metrics;
  /** The embedded store's backups: the admin download and the schedule. */
  backups: Backups;
}

export const MAX_BODY_BYTES = 100 * 1024;

export function createServices(deps: AppDependencies): AppServices {
  const { config, database, logger } = deps;
  const settingsDefaults = {
    supportEmail: config.supportEmail,
    supportPhone: config.supportPhone,
    paymentInstructions: config.payments.instructions,
    currency: config.payments.currency,
    language: config.defaultLanguage,
  };
  const endedAccounts = createEndedAccounts({ db: database.db, ready: database.ready, logger });
  const schoolFigures = cachedFor(deps.schoolFiguresMaxAgeMs ?? SCHOOL_FIGURES_MAX_AGE_MS, () =>
    readSchoolFigures(database.db, listingOf(config)),
  );
  const live = createLiveHub({
    db: database.db,
    pool: database.pool,
    listenUrl: config.databaseListenUrl,
    logger,
    endedAccounts,
  });
  const metrics = createMetrics({
    token: config.metricsToken,
    db: database.db,
    liveConnections: () => live.connections,
    logger,
  });
  const backups = createBackups({
    database,
    dataDir: config.dataDir,
    config: config.backups,
    logger,
    observer: metrics.backups,
  });
  const lastBackup = backups.status().lastScheduledAt;
  metrics.backupKnown(lastBackup ? new Date(lastBackup) : null);
  const settings = createSettingsSnapshot({
    read: () => readSiteSettings(database.db, settingsDefaults, schoolFigures),
    ready: database.ready,
    defaults: settingsDefaults,
    logger,
    maxAgeMs: deps.settingsMaxAgeMs,
  });
  const mailSettings = {
    appUrl: config.appUrl,
    mailFrom: config.mailFrom,
    defaultLanguage: () => settings.peek()?.defaultLanguage ?? config.defaultLanguage,
  };
  return {
    health: createHealthMonitor(database, logger),
    mailer:
      deps.mailer ??
      createMailer({
        database,
        logger,
        from: config.mailFrom,
        smtpUrl: config.smtpUrl,
        mailDir: join(config.dataDir, 'mail'),
        // A lesson's and a class's mails are queued as their facts and written here, at delivery.
        templates: {
          [LESSON_MAIL_TEMPLATE]: lessonMailTemplate(mailSettings),
          [CLASS_MAIL_TEMPLATE]: classMailTemplate(mailSettings),
        },
      }),
    captcha:
      deps.captcha ??
      (config.recaptcha
        ? createRecaptchaVerifier({ ...config.recaptcha, hostname: new URL(config.appUrl).hostname, logger })
        : createAltchaVerifier({ db: database.db, secret: config.authSecret, tuning: deps.altchaTuning })),
    limiters: deps.limiters ?? createRateLimiters({ database }),
    live,
    endedAccounts,
    settings,
    cards:
      deps.cards ??
      (config.payments.on && config.payments.stripe
        ? stripeCardPayments(config.payments.stripe, config.appUrl)
        : undefined),
    metrics,
    backups,
  };
}

/** What the browser may know of the payments' configuration (never a key). */
const publicPayments = (
  config: Config,
  services: Pick<AppServices, 'cards'>,
): Omit<PublicPayments, 'instructions'> => ({
  on: config.payments.on,
  currency: config.payments.currency,
  stripe: config.payments.on && services.cards !== undefined,
});

/** Which tutors are listed (src/server/platform/tutor-listing.ts), as this server is configured. */
const listingOf = (config: Config): Listing => ({ approvedOnly: config.requireTutorApproval });

/** Every route under /api, in one chain. */
function createApi(deps: AppDependencies, services: AppServices, auth: Auth, sessions: SessionReader) {
  const { config, database } = deps;
  const { db } = database;
  const { mailer, captcha, limiters, health, live, settings } = services;
  const configOf = publicConfigOf(captcha, publicPayments(config, services), config.adminTwoFactor);
  const listing = listingOf(config);
  // Mails are in each recipient's language, else in the school's default in effect.
  const defaultLanguage = () => settings.peek()?.defaultLanguage ?? config.defaultLanguage;
  const lessonDeps = {
    db,
    mailer,
    conversations: { lessonLine },
    live,
    mail: { appUrl: config.appUrl, mailFrom: config.mailFrom, defaultLanguage },
    listing,
    payments: config.payments,
  };
  return new Hono<AppEnv>()
    .route('/', healthRoutes(database, health))
    .route(
      '/',
      publicConfigRoutes(async () => configOf(await settings.get())),
    )
    .route('/', captchaRoutes(captcha))
    .route('/', accountRoutes({ auth, sessions, database, limiters }))
    .route('/', profileRoutes({ auth, sessions, db, limiters }))
    .route(
      '/',
      accountDataRoutes({
        db,
        auth,
        sessions,
        limiters,
        live,
        verifyPassword,
        lessons: lessonDeps,
        adminTwoFactor: config.adminTwoFactor,
      }),
    )
    .route(
      '/',
      profileDetailsRoutes({
        sessions,
        db,
        limiters,
        photoDecodes: deps.photoDecodes,
        hourlyRates: async () => ({
          range: (await services.settings.get()).hourlyRateRange,
          currency: config.payments.currency,
        }),
      }),
    )
    .route('/', tutorRoutes({ db, listing, sessions, payments: config.payments }))
    .route('/', reviewRoutes({ db, sessions, limiters, listing }))
    .route('/', lessonRoutes({ ...lessonDeps, limiters, sessions }))
    .route('/', roomRoutes({ db, sessions, limiters, live, iceServers: config.iceServers }))
    .route('/', classRoutes({ ...lessonDeps, limiters, sessions, live, config }))
    .route('/', progressRoutes({ db, sessions, limiters }))
    .route('/', dashboardRoutes({ db, sessions, listing, payments: config.payments }))
    .route('/', scheduleRoutes({ db, sessions, listing }))
    .route(
      '/',
      messageRoutes({
        db,
        sessions,
        limiters,
        live,
        trustedOrigins: config.trustedOrigins,
        listing,
        adminTwoFactor: config.adminTwoFactor,
      }),
    )
    .route('/', contactRoutes({ db, mailer, limiters, sessions, settings }))
    .route('/', verificationRoutes({ db, sessions, limiters }))
    .route(
      '/',
      walletRoutes({
        db,
        sessions,
        limiters,
        payments: config.payments,
        settings,
        cards: services.cards,
        observer: services.metrics.payments,
      }),
    )
    .route('/', packageRoutes({ db, sessions, limiters, payments: config.payments, listing, bookableTutor }))
    .route('/', familyRoutes({ ...lessonDeps, sessions, limiters, createLogin: credentialMaker(auth) }))
    .route(
      '/admin',
      adminRoutes({
        db,
        sessions,
        mailer,
        live,
        appUrl: config.appUrl,
        mailFrom: config.mailFrom,
        defaultLanguage,
        settings,
        requireTutorApproval: config.requireTutorApproval,
        payments: config.payments,
        backups: services.backups,
        adminTwoFactor: config.adminTwoFactor,
      }),
    );
}

/** The API's type: what the browser's client is built from. */
export type AppType = ReturnType<typeof createApi>;

/**
 * While the database opens (a first start takes seconds), the pages and assets that need no
 * database are served; everything else waits until it is open. A signed-in visitor's page
 * carries who is signed in, and whether a tutor's page exists is in the database.
 */
function holdUntilOpen(database: Database): MiddlewareHandler<AppEnv> {
  let open = false;
  database.ready.then(
    () => {
      open = true;
    },
    () => {},
  );
  return async (c, next) => {
    if (!open) {
      const needsDatabase =
        (c.req.method !== 'GET' && c.req.method !== 'HEAD') ||
        c.req.path.startsWith('/api/') ||
        c.req.path.startsWith('/tutors/') ||
        (c.req.header('cookie') ?? '').includes(`${SESSION_COOKIE_PREFIX}.session_token`);
      if (needsDatabase) await database.ready;
    }
    await next();
  };
}

/** API answers are never stored by a cache, unless a route says otherwise. */
const noStoreByDefault: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
};

export function createApp(deps: AppDependencies, services: AppServices = createServices(deps)) {
  const { config, database, logger } = deps;
  const auth = createAuth({
    ...services,
    config,
    db: database.db,
    logger,
    onSessionEnded: (token) => services.live.sessionEnded(token),
    supportEmail: () => services.settings.peek()?.support.email ?? config.supportEmail,
    defaultLanguage: () => services.settings.peek()?.defaultLanguage ?? config.defaultLanguage,
  });
  const sessions = createSessionReader(auth, config);
  const smallBodies = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => errorResponse(c, 413, messages.bodyTooLarge, 'BODY_TOO_LARGE'),
  });

  const app = new Hono<AppEnv>()
    // First, so that the time counted is the whole request's.
    .use(services.metrics.httpMiddleware)
    .use(requestLogger(logger, config.trustProxy, { everyRequest: deps.logEveryRequest ?? true }))
    .use(securityHeaders({ https: config.secure, recaptcha: Boolean(config.recaptcha) }))
    .use(holdUntilOpen(database))
    .use(
      requestLanguage({
        defaultLanguage: () => services.settings.peek()?.defaultLanguage ?? config.defaultLanguage,
        pseudoLanguage: config.pseudoLanguage,
      }),
    )
    .use('/api/*', noStoreByDefault)
    // Every API body is small, but a profile photo's: its route limits it, once it knows who sends it.
    .on(['POST', 'PUT', 'PATCH', 'DELETE'], '/api/*', (c, next) =>
      c.req.path === PHOTO_PATH ? next() : smallBodies(c, next),
    )
    .use('/api/*', sameOriginOnly(config.trustedOrigins))
    .route('/api', createApi(deps, services, auth, sessions))
    .all('/api/*', (c) => errorResponse(c, 404, messages.notFound, 'NOT_FOUND'))
    .get(METRICS_PATH, services.metrics.route);

  if (deps.clientDir) {
    const configOf = publicConfigOf(
      services.captcha,
      publicPayments(config, services),
      config.adminTwoFactor,
    );
    mountStaticSite(app, deps.clientDir, {
      publicConfig: async () => {
        const settings = await services.settings.forPage();
        return settings && configOf(settings);
      },
      // A tutor's page exists only while the tutor is listed: crawlers and links get a true 404.
      pageExists: async (path) => {
        const tutorId = /^\/tutors\/([^/]+)\/?$/.exec(path)?.[1];
        if (tutorId === undefined) return isKnownPagePath(path);
        const id = tutorIdSchema.safeParse(tutorId);
        return id.success && (await findListedTutor(database.db, id.data, listingOf(config))) !== null;
      },
      currentUser: (c) => sessions.signedInUser(c),
    });
  }

  app.onError(async (error, c) => {
    if (c.req.raw.signal.aborted) {
      // The client went away mid-request (a dropped connection while its body arrived): nothing
      // failed on our side, and nobody is left to answer.
      c.get('logger')?.info({ reason: String(error) }, 'request aborted by the client');
      return errorResponse(c, 400, messages.requestAborted, 'ABORTED');
    }
    if (error instanceof ApiError)
      return errorResponse(c, error.status, error.text, error.code, error.details);
    if (error instanceof HTTPException && error.status >= 400 && error.status < 500) {
      return errorResponse(c, error.status as ErrorStatus, error.message || messages.invalidRequest);
    }
    if (await isDatabaseUnavailable(database, error)) {
      c.get('logger')?.warn({ err: (error as Error).message }, 'answered 503: no answer from the database');
      return serviceUnavailable(c);
    }
    c.get('logger')?.error({ err: error }, 'unhandled error');
    return errorResponse(c, 500, messages.unexpectedError, 'INTERNAL');
  });

  return app;
}
