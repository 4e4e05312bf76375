/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface MailOutbox {
  attempts: Generated<number>;
  calendar: string | null;
  calendar_method: string | null;
  claimed_until: Timestamp | null;
  created_at: Generated<Timestamp>;
  html_body: string;
  id: Generated<number>;
  last_error: string | null;
  next_attempt_at: Generated<Timestamp>;
  params: string | null;
  recipient: string;
  reply_to: string | null;
  sent_at: Timestamp | null;
  subject: string;
  template: string | null;
  text_body: string;
}
