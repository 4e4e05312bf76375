/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface TutorVerifications {
  admin_name: string | null;
  created_at: Generated<Timestamp>;
  event: string;
  hourly_rate: number | null;
  id: Generated<number>;
  note: Generated<string>;
  subjects: Generated<string[]>;
  tutor_id: string;
}
