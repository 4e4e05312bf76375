/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Json, Timestamp } from "./columns";

export interface TutorAvailability {
  booking_horizon_days: Generated<number>;
  buffer_minutes: Generated<number>;
  cancellation_window_hours: Generated<number>;
  instant_booking: Generated<boolean>;
  late_cancel_fee_percent: Generated<number>;
  lesson_minutes: Generated<number[]>;
  minimum_notice_hours: Generated<number>;
  overrides: Generated<Json>;
  packages: Generated<Json>;
  slot_step_minutes: Generated<number>;
  trial_offered: Generated<boolean>;
  trial_price_cents: Generated<number>;
  updated_at: Generated<Timestamp>;
  user_id: string;
  weekly: Generated<Json>;
}
