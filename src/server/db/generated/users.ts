/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface Users {
  birth_year: number | null;
  created_at: Generated<Timestamp>;
  deleted_at: Timestamp | null;
  display_name: string;
  email: string;
  email_verified: Generated<boolean>;
  id: string;
  image: string | null;
  is_admin: Generated<boolean>;
  language: string | null;
  learning_goals: Generated<string>;
  message_mails: Generated<boolean>;
  reminder_day_before: Generated<boolean>;
  reminder_hour_before: Generated<boolean>;
  role: Generated<string>;
  suspended_at: Timestamp | null;
  suspension_reason: string | null;
  time_zone: string | null;
  two_factor_enabled: Generated<boolean>;
  updated_at: Generated<Timestamp>;
  welcomed_session_id: string | null;
}
