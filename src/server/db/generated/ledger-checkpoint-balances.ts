/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
export interface LedgerCheckpointBalances {
  account_id: string;
  account_kind: string;
  balance_cents: number;
  through_entry_id: number;
  user_id: string | null;
}
