/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface Lessons {
  blocked_until: Timestamp;
  cancel_fee_cents: number | null;
  cancel_reason: string | null;
  cancel_window_hours: Generated<number>;
  cancelled_by: string | null;
  cancelled_late: Generated<boolean>;
  class_session_id: string | null;
  commission_percent: number | null;
  created_at: Generated<Timestamp>;
  currency: Generated<string>;
  ends_at: Timestamp;
  expires_at: Timestamp | null;
  id: string;
  idempotency_key: string | null;
  late_fee_percent: Generated<number>;
  minutes: number;
  note: Generated<string>;
  package_id: string | null;
  payer_id: string | null;
  payment_status: Generated<string>;
  price_cents: number;
  proposal_note: string | null;
  proposed_at: Timestamp | null;
  proposed_end: Timestamp | null;
  proposed_start: Timestamp | null;
  sequence: Generated<number>;
  series_id: string | null;
  starts_at: Timestamp;
  status: string;
  student_id: string;
  subject: string;
  trial: Generated<boolean>;
  tutor_id: string;
  updated_at: Generated<Timestamp>;
}
