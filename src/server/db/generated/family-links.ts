/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface FamilyLinks {
  added_by_parent: boolean;
  created_at: Generated<Timestamp>;
  monthly_limit_cents: number | null;
  parent_id: string;
  student_id: string;
}
