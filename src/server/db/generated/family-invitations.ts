/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface FamilyInvitations {
  created_at: Generated<Timestamp>;
  email: string;
  expires_at: Timestamp;
  kind: string;
  parent_id: string | null;
  student_id: string;
  token_hash: string;
  used_at: Timestamp | null;
}
