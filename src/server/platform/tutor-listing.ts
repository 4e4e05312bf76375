/**
 * Who is listed: the one rule for which tutors the marketplace shows, and so which ones students
 * find, open, book, message and review. A tutor is listed when their profile is published and,
 * where the school requires approval (REQUIRE_TUTOR_APPROVAL), an admin approved them.
 *
 * Published is worked out here too, in one UPDATE from the profile and the account, together with
 * the full-text document the search reads (name, subjects and their categories, headline, about).
 * Call refreshTutorListing after anything that feeds them changes. A suspended tutor is never
 * published, so never listed.
 */
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/schema';

const publishedNow = sql<boolean>`(u.email_verified
  and u.suspended_at is null
  and (tp.has_photo or tp.headline <> '')
  and cardinality(tp.subjects) > 0
  and tp.hourly_rate is not null
  and tp.about <> '')`;

/** Whether only tutors an admin approved are listed (REQUIRE_TUTOR_APPROVAL), or every published one. */
export interface Listing {
  approvedOnly: boolean;
}

/**
 * The listing rule as a condition on `tutor_profiles as tp`, for every query that finds a tutor
 * for students: the search, the featured tutor, a tutor's page, photo, reviews and slots, booking,
 * reviewing and starting a conversation. A tutor it leaves out does not exist for those routes
 * (404), rather than being hidden from the search yet reachable by address.
 *
 * It is written out, not bound: the partial indexes of tutor_profiles (`where published`, and the
 * featured tutor's `where published and has_photo`) serve a query only when the planner can prove
 * their condition from the query's own text.
 */
export function listedTutor(listing: Listing): Expression<SqlBool> {
  return listing.approvedOnly
    ? sql<SqlBool>`(tp.published and tp.verification_status = 'approved')`
    : sql<SqlBool>`tp.published`;
}

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
