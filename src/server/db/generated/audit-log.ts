/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface AuditLog {
  action: string;
  actor: string;
  actor_id: string | null;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  reason: Generated<string>;
  target: Generated<string>;
  target_id: string | null;
}
