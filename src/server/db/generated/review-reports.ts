/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface ReviewReports {
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  reason: string;
  reporter_id: string;
  resolution: string | null;
  resolved_at: Timestamp | null;
  resolved_by: string | null;
  review_id: string;
  review_text: string;
}
