/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface IdempotentRequests {
  attempt: string;
  body_hash: string;
  content_type: string | null;
  created_at: Generated<Timestamp>;
  key: string;
  method: string;
  path: string;
  response_body: string | null;
  started_at: Generated<Timestamp>;
  state: string;
  status: number | null;
  user_id: string;
}
