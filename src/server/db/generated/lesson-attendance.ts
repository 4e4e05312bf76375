/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Timestamp } from "./columns";

export interface LessonAttendance {
  first_joined_at: Timestamp;
  last_joined_at: Timestamp;
  lesson_id: string;
  user_id: string;
}
