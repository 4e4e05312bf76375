/**
 * Builds the Hono application from its dependencies. Nothing here listens on a port or reads the
 * environment, so tests call the same app in-process with their own database and config.
 */
import { join } from 'node:path';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { messages } from '../shared/messages';
import { isKnownPagePath } from '../shared/routes';
import { accountRoutes } from './accounts/account-routes';
import { createAuth } from './accounts/auth';
import { hashThreads } from './accounts/password-hashing';
import { createSessionReader, publicUser, SessionCache } from './accounts/session';
import { createSignIn } from './accounts/sign-in';
import {
  type AltchaTuning,
  type CaptchaVerifier,
  createAltchaVerifier,
  createRecaptchaVerifier,
} from './captcha/captcha';
import { captchaRoutes } from './captcha/captcha-routes';
import type { Config } from './config/config';
import { contactRoutes } from './contact/contact-routes';
import { dashboardRoutes } from './dashboard/dashboard-routes';
import type { Database } from './db/database';
import { createHealthMonitor, type HealthMonitor, healthRoutes } from './health/health-routes';
import { ApiError, errorResponse, isDatabaseDown, serviceUnavailable } from './http/api-error';
import type { AppEnv } from './http/app-env';
import { limitBody } from './http/body-limit';
import { sameOriginOnly } from './http/origin-check';
import { createSiteBase } from './http/page-site';
import { mountStaticSite } from './http/static-site';
import type { Logger } from './logging/logger';
import { createMailer, type Mailer } from './mail/mailer';
import { PHOTO_PATH, profileDetailsRoutes } from './profile/profile-details-routes';
import { profileRoutes } from './profile/profile-routes';
import { publicConfig, publicConfigRoutes } from './public-config/public-config-routes';
import type { ConcurrencyLimit } from './rate-limit/concurrency-limit';
import { createRateLimiters, type RateLimiters } from './rate-limit/rate-limits';
import { scheduleRoutes } from './schedule/schedule-routes';
import { tutorRoutes } from './tutors/tutor-routes';
import { findPublishedTutor } from './tutors/tutor-search';

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
}

export interface AppServices {
  health: HealthMonitor;
  mailer: Mailer;
  captcha: CaptchaVerifier;
  limiters: RateLimiters;
}

export const MAX_BODY_BYTES = 100 * 1024;

export function createServices(deps: AppDependencies): AppServices {
  const { config, database, logger } = deps;
  return {
    health: createHealthMonitor(database, logger),
    mailer:
      deps.mailer ??
      createMailer({
        db: database.db,
        logger,
        from: config.mailFrom,
        smtpUrl: config.smtpUrl,
        mailDir: join(config.dataDir, 'mail'),
      }),
    captcha:
      deps.captcha ??
      (config.recaptcha
        ? createRecaptchaVerifier({ ...config.recaptcha, hostname: new URL(config.appUrl).hostname, logger })
        : createAltchaVerifier({ db: database.db, secret: config.authSecret, tuning: deps.altchaTuning })),
    limiters: deps.limiters ?? createRateLimiters({ database }),
  };
}

export function createApp(deps: AppDependencies, services: AppServices = createServices(deps)) {
  const { config, database, logger } = deps;
  const { mailer, captcha, limiters, health } = services;
  const db = database.db;
  const sessionCache = new SessionCache();
  hashThreads.onThreadLost = (error) =>
    logger.error({ err: error }, 'a password hash thread stopped; the next hash starts a new one');
  const auth = createAuth({ config, db, mailer, captcha, limiters, logger, sessionCache });
  const sessions = createSessionReader({
    auth,
    db,
    secret: config.authSecret,
    secureCookie: config.secure,
    cache: sessionCache,
  });
  const app = createSiteBase(config, logger);

  const smallBodies = limitBody(MAX_BODY_BYTES, messages.bodyTooLarge);
  // Every API body is small, but a profile photo (up to 5 MB, limited by its own route).
  app.use('/api/*', (c, next) => (c.req.path === PHOTO_PATH ? next() : smallBodies(c, next)));
  app.use('/api/*', sameOriginOnly(config.trustedOrigins));

  const shownConfig = publicConfig(config, captcha);
  const api = new Hono<AppEnv>()
    .route('/', healthRoutes(database, health))
    .route('/', publicConfigRoutes(shownConfig))
    .route('/', captchaRoutes(captcha))
    .route(
      '/',
      accountRoutes({
        auth,
        sessions,
        database,
        limiters,
        signIn: createSignIn({ db, secret: config.authSecret, secureCookie: config.secure }),
      }),
    )
    .route('/', profileRoutes({ sessions, db, limiters }))
    .route('/', profileDetailsRoutes({ sessions, db, limiters, photoDecodes: deps.photoDecodes }))
    .route('/', tutorRoutes({ db }))
    .route('/', dashboardRoutes(sessions))
    .route('/', scheduleRoutes(sessions))
    .route('/', contactRoutes({ db, mailer, limiters, sessions, supportEmail: config.supportEmail }));
  app.route('/api', api);
  app.all('/api/*', (c) => errorResponse(c, 404, messages.notFound, 'NOT_FOUND'));

  if (deps.clientDir) {
    // A tutor's page exists only while the tutor is published: crawlers and links get a true 404.
    mountStaticSite(app, deps.clientDir, {
      publicConfig: shownConfig,
      pageExists: async (path) => {
        const tutorId = /^\/tutors\/([\w-]{1,64})\/?$/.exec(path)?.[1];
        if (!tutorId) return isKnownPagePath(path);
        return (await findPublishedTutor(db, tutorId)) !== null;
      },
      currentUser: async (c) => {
        const user = await sessions.currentUser(c);
        return user ? publicUser(user) : null;
      },
    });
  }

  app.onError(async (error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error.status, error.message, error.code);
    if (error instanceof HTTPException && error.status < 500) {
      return errorResponse(c, error.status, error.message || messages.invalidRequest);
    }
    if (await isDatabaseDown(database)) return serviceUnavailable(c);
    c.get('logger')?.error({ err: error }, 'unhandled error');
    return errorResponse(c, 500, messages.unexpectedError, 'INTERNAL');
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
