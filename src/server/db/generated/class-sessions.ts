/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface ClassSessions {
  blocked_until: Timestamp;
  class_id: string;
  ends_at: Timestamp;
  id: string;
  starts_at: Timestamp;
  status: Generated<string>;
  tutor_id: string;
}
