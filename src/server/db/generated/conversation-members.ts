/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface ConversationMembers {
  conversation_id: string;
  joined_at: Generated<Timestamp>;
  left_at: Timestamp | null;
  mailed: Generated<boolean>;
  read_id: Generated<number>;
  role: string;
  user_id: string;
}
