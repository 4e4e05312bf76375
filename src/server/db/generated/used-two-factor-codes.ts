/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Timestamp } from "./columns";

export interface UsedTwoFactorCodes {
  code: string;
  expires_at: Timestamp;
  user_id: string;
}
