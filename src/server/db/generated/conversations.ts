/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface Conversations {
  about_student_id: string | null;
  class_id: string | null;
  created_at: Generated<Timestamp>;
  id: string;
  last_activity_at: Generated<Timestamp>;
  last_message_id: Generated<number>;
  requester_id: string | null;
  requester_mailed: Generated<boolean>;
  requester_read_id: Generated<number>;
  student_id: string | null;
  student_mailed: Generated<boolean>;
  student_read_id: Generated<number>;
  support_mailed: Generated<boolean>;
  support_read_id: Generated<number>;
  tutor_id: string | null;
  tutor_mailed: Generated<boolean>;
  tutor_read_id: Generated<number>;
}
