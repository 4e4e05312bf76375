/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface LedgerTransactions {
  actor_id: string | null;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  idempotency_key: string;
  kind: string;
  lesson_id: string | null;
  memo: Generated<string>;
}
