/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface ClassSessionChat {
  body: string;
  created_at: Generated<Timestamp>;
  id: Generated<number>;
  sender_id: string;
  session_id: string;
}
