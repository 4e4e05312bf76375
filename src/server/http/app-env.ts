import type { PageLanguage } from '../../shared/languages';
import type { SessionUser } from '../../shared/session-user';
import type { RequestLogger } from './request-logger';

export interface SessionWelcome {
  sessionId: string;
  welcomedSessionId: string | null;
}

/** What every request carries on its Hono context. */
export interface AppVariables {
  logger: RequestLogger;
  requestId: string;
  clientAddress: string;
  /** Who is signed in, once a route's session middleware has run (null when nobody is). */
  user: SessionUser | null;
  /**
   * The token of the session the session middleware found in the database (null when nobody is
   * signed in): what closes with it is filed under this, never under a cookie read again.
   */
  sessionToken: string | null;
  /**
   * Whether that session proved a second factor: a code at its sign-in, a trusted device, or the
   * code that turned two-factor on (false when nobody is signed in). Where admins must use
   * two-factor, only such a session opens the console and Support.
   */
  secondFactorProved: boolean;
  /**
   * That session's id, and the id of the session the account was first welcomed in (null until
   * its first dashboard), both read with it: the dashboard's greeting (null when nobody is signed in).
   */
  welcome: SessionWelcome | null;
  /**
   * Set by the Idempotency-Key middleware on a request that carries a key: the same for every run
   * of that request, a retry's included, so a money function names what it creates after it and a
   * run again after a crash finds the first run's work (undefined without a key).
   */
  requestKey: string | undefined;
  /**
   * The language the request asks for (the `lang` cookie, Accept-Language, the school's default),
   * set first: `languageOf(c)` puts a signed-in person's saved language before it (./language.ts).
   */
  requestLanguage: PageLanguage;
}

export interface AppEnv {
  Variables: AppVariables;
}
