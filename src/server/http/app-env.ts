import type { RequestLogger } from './request-logger';

/** What every request carries on its Hono context. Features extend it through module augmentation. */
export interface AppVariables {
  logger: RequestLogger;
  requestId: string;
  clientAddress: string;
}

export interface AppEnv {
  Variables: AppVariables;
}
