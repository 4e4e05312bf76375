/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface TopUps {
  amount_cents: number;
  created_at: Generated<Timestamp>;
  currency: string;
  id: string;
  method: string;
  note: string | null;
  reference: string;
  settled_at: Timestamp | null;
  settled_by: string | null;
  status: Generated<string>;
  stripe_session_id: string | null;
  student_id: string;
}
