/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Json, Timestamp } from "./columns";

export interface Messages {
  body: string;
  conversation_id: string;
  created_at: Generated<Timestamp>;
  erased_at: Timestamp | null;
  event: Json | null;
  hidden_at: Timestamp | null;
  id: Generated<number>;
  sender_id: string | null;
}
