/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface ProfilePhotos {
  content_type: string;
  image: Buffer;
  updated_at: Generated<Timestamp>;
  user_id: string;
  version: string;
}
