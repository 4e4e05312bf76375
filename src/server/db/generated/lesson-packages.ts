/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface LessonPackages {
  bought_at: Generated<Timestamp>;
  currency: string;
  discount_percent: number;
  ended_at: Timestamp | null;
  id: string;
  lessons: number;
  minutes: number;
  payer_id: string | null;
  per_lesson_cents: number;
  status: Generated<string>;
  student_id: string;
  tutor_id: string;
}
