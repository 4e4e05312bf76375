/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface Goals {
  completed_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  first_completed_at: Timestamp | null;
  id: string;
  student_id: string;
  subject: string;
  target_date: Timestamp | null;
  title: string;
  updated_at: Generated<Timestamp>;
}
