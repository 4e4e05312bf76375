/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface Classes {
  cancel_reason: string | null;
  cancelled_at: Timestamp | null;
  cancelled_by: string | null;
  created_at: Generated<Timestamp>;
  currency: string;
  decided_at: Timestamp | null;
  description: Generated<string>;
  id: string;
  language: string;
  min_students: number;
  minutes: number;
  price_cents: number;
  seats: number;
  seats_taken: Generated<number>;
  status: Generated<string>;
  subject: string;
  title: string;
  tutor_id: string;
  updated_at: Generated<Timestamp>;
}
