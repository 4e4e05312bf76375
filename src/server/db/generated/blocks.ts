/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface Blocks {
  blocked_id: string;
  blocker_id: string;
  created_at: Generated<Timestamp>;
}
