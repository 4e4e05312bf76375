/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface GoalMilestones {
  created_at: Generated<Timestamp>;
  created_by: string | null;
  done_at: Timestamp | null;
  done_by: string | null;
  goal_id: string;
  id: string;
  title: string;
}
