/**
 * Keeps a tutor's search entry true to the profile: the full-text document (name, subjects and
 * their categories, headline, about) and the publication rule, computed in one UPDATE
 * from the profile and the account. Call it after anything that feeds them changes. A suspended
 * tutor is never published: not in search, not on a page, not bookable.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema';

const publishedNow = sql<boolean>`(u.email_verified
  and u.suspended_at is null
  and (tp.has_photo or tp.headline <> '')
  and cardinality(tp.subjects) > 0
  and tp.hourly_rate is not null
  and tp.about <> '')`;

export async function refreshTutorListing(db: Kysely<DB>, userId: string): Promise<void> {
  await refreshListings(db, sql`tp.user_id = ${userId}`);
}

/** The same for many tutors at once (demo data): `where` selects the tutor_profiles rows (alias tp). */
export async function refreshListings(db: Kysely<DB>, where: ReturnType<typeof sql>): Promise<void> {
  await sql`
    update tutor_profiles tp set
      search_document =
        setweight(to_tsvector('english', u.display_name), 'A')
        || setweight(to_tsvector('english', array_to_string(tp.subjects || tp.categories, ' ')), 'A')
        || setweight(to_tsvector('english', tp.headline), 'B')
        || setweight(to_tsvector('english', tp.about), 'C'),
      published = ${publishedNow},
      published_at = case when ${publishedNow} and tp.published_at is null then now() else tp.published_at end
    from users u
    where u.id = tp.user_id and ${where}`.execute(db);
}
