/**
 * Written by `npm run db:types` (kysely-codegen) from a database migrated by ../migrations: do
 * not edit. One table's rows (./index.ts names every table).
 */
import type { Generated, Timestamp } from "./columns";

export interface TutorProfiles {
  about: Generated<string>;
  approved_at: Timestamp | null;
  approved_rate: number | null;
  approved_subjects: string[] | null;
  categories: Generated<string[]>;
  created_at: Generated<Timestamp>;
  has_photo: Generated<boolean>;
  headline: Generated<string>;
  hourly_rate: number | null;
  languages: Generated<string[]>;
  published: Generated<boolean>;
  published_at: Timestamp | null;
  rating_count: Generated<number>;
  rating_sum: Generated<number>;
  search_document: Generated<string>;
  subjects: Generated<string[]>;
  updated_at: Generated<Timestamp>;
  user_id: string;
  verification_requested_at: Timestamp | null;
  verification_status: Generated<string>;
  years_experience: number | null;
}
