/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated } from "./columns";

export interface LedgerEntries {
  account_id: string;
  account_kind: string;
  account_seq: number;
  amount_cents: number;
  balance_after_cents: number;
  id: Generated<number>;
  transaction_id: number;
}
