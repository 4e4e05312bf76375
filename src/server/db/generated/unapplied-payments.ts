/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface UnappliedPayments {
  amount_cents: number;
  currency: string;
  id: string;
  provider: string;
  provider_reference: string;
  reason: string;
  reported_at: Generated<Timestamp>;
  top_up_id: string;
}
