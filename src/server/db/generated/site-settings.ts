/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface SiteSettings {
  default_language: string | null;
  expert_tutors: string | null;
  hourly_rate_max: number | null;
  hourly_rate_min: number | null;
  id: Generated<number>;
  lessons_completed: string | null;
  payment_instructions: string | null;
  students_helped: string | null;
  support_email: string | null;
  support_hours: string | null;
  support_phone: string | null;
  support_reply_hours: number | null;
  updated_at: Generated<Timestamp>;
}
