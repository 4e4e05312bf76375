import type { Logger } from '../logging/logger';

/** What every request carries on its Hono context. Features extend it through module augmentation. */
export interface AppVariables {
  logger: Logger;
  requestId: string;
  clientAddress: string;
}

export interface AppEnv {
  Variables: AppVariables;
}
