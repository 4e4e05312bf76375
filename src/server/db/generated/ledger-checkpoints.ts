/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface LedgerCheckpoints {
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  name: string;
  through_entry_id: number;
  total_cents: number;
}
