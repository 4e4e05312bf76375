import type { SessionUser } from '../../shared/session-user';
import type { RequestLogger } from './request-logger';

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
}

export interface AppEnv {
  Variables: AppVariables;
}
