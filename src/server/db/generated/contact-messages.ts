/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface ContactMessages {
  client_address: string | null;
  created_at: Generated<Timestamp>;
  email: string;
  id: Generated<number>;
  message: string;
  name: string;
  subject: string;
  user_id: string | null;
}
