import type { SessionUser } from '../../shared/session-user';
import type { RequestLogger } from './request-logger';

/** What every request carries on its Hono context. */
export interface AppVariables {
  logger: RequestLogger;
  requestId: string;
  clientAddress: string;
  /** Who is signed in, once a route's session middleware has run (null when nobody is). */
  user: SessionUser | null;
}

export interface AppEnv {
  Variables: AppVariables;
}
