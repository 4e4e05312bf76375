/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated } from "./columns";

export interface RateLimits {
  expire: number | null;
  key: string;
  points: Generated<number>;
}
