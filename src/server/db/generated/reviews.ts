/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface Reviews {
  answer: string | null;
  answered_at: Timestamp | null;
  body: string;
  created_at: Generated<Timestamp>;
  edited_at: Timestamp | null;
  hidden_at: Timestamp | null;
  id: string;
  rating: number;
  student_id: string;
  tutor_id: string;
}
