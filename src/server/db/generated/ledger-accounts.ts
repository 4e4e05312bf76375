/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface LedgerAccounts {
  created_at: Generated<Timestamp>;
  currency: string;
  id: string;
  kind: string;
  lesson_id: string | null;
  user_id: string | null;
}
