/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface TwoFactors {
  backup_codes: string;
  created_at: Generated<Timestamp>;
  failed_verification_count: Generated<number>;
  id: string;
  locked_until: Timestamp | null;
  secret: string;
  user_id: string;
  verified: Generated<boolean>;
}
