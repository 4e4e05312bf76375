/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface ClassEnrolments {
  class_id: string;
  created_at: Generated<Timestamp>;
  enrolled_at: Timestamp | null;
  idempotency_key: string | null;
  position: number | null;
  status: string;
  student_id: string;
  updated_at: Generated<Timestamp>;
}
