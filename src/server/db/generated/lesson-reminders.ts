/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface LessonReminders {
  kind: string;
  lesson_id: string;
  sent_at: Generated<Timestamp>;
  starts_at: Timestamp;
  user_id: string;
}
