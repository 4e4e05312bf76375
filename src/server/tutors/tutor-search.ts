/**
 * Finds listed tutors (../platform/tutor-listing.ts): PostgreSQL full-text search (prefix-matching every
 * word, so "calc" finds Calculus) over name, subjects, headline and about, with filters for
 * category, subject, language, price and rating, five sorts (best rated by a Bayesian average, see
 * src/shared/reviews/review-rules.ts), and pages with a total count. Only public fields leave here.
 */
import { type Kysely, sql } from 'kysely';
import { minorPerUnit } from '../../shared/amounts';
import { DEFAULT_CANCELLATION_POLICY } from '../../shared/lessons/cancellation-policy';
import { DEFAULT_BOOKING_SETTINGS } from '../../shared/lessons/lesson-schemas';
import { offerPrices } from '../../shared/lessons/packages';
import { trialPriceCents } from '../../shared/lessons/trials';
import { displayedAverage, PRIOR_MEAN, PRIOR_WEIGHT } from '../../shared/reviews/review-rules';
import { DEFAULT_PAGE_SIZE, effectiveSort } from '../../shared/tutor-catalog';
import type {
  TutorCard,
  TutorPublicProfile,
  TutorSearchParams,
  TutorSearchResult,
} from '../../shared/tutor-schemas';
import type { DB } from '../db/schema';
import { type Listing, listedTutor } from '../platform/tutor-listing';

/** "Calc  tutor!" → "calc:* & tutor:*". Only letters and digits reach to_tsquery. */
export function prefixQuery(text: string): string | null {
  const words =
    text
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 8) ?? [];
  return words.length ? words.map((word) => `${word}:*`).join(' & ') : null;
}

/**
 * The "Best rated" order, best first: the Bayesian average of review-rules (its prior of
 * PRIOR_WEIGHT reviews at PRIOR_MEAN added to the tutor's own), negated. The search sorts by it and
 * the featured tutor is its first; the prior is written into the SQL, not bound, so the featured
 * tutor's index (migration 0011), built on this very expression, answers that query.
 */
const bestRatedKey = sql<number>`-((${sql.lit(PRIOR_MEAN * PRIOR_WEIGHT)} + tp.rating_sum)::float8 / (${sql.lit(PRIOR_WEIGHT)} + tp.rating_count))`;

const cardColumns = [
  'tp.user_id as id',
  'u.display_name as displayName',
  'tp.headline',
  'tp.subjects',
  'tp.languages',
  'tp.hourly_rate as hourlyRate',
  'tp.years_experience as yearsExperience',
  'tp.has_photo as hasPhoto',
  'pp.version as photoVersion',
  'tp.rating_count as ratingCount',
  'tp.rating_sum as ratingSum',
  'tp.verification_status as verificationStatus',
  // Null for a tutor who never saved availability: they offer no trial.
  'a.trial_offered as trialOffered',
  'a.trial_price_cents as trialPriceCents',
] as const;

function toCard(
  row: {
    id: string;
    displayName: string;
    headline: string;
    subjects: string[];
    languages: string[];
    hourlyRate: number | null;
    yearsExperience: number | null;
    hasPhoto: boolean;
    photoVersion: string | null;
    ratingCount: number;
    ratingSum: number;
    verificationStatus: string;
    trialOffered: boolean | null;
    trialPriceCents: number | null;
  },
  currency: string,
): TutorCard {
  const { ratingCount, ratingSum, verificationStatus, trialOffered, trialPriceCents: price, ...card } = row;
  return {
    ...card,
    trial: trialOffered
      ? { priceCents: trialPriceCents({ offered: true, priceCents: price ?? 0 }, row.hourlyRate, currency) }
      : null,
    verified: verificationStatus === 'approved',
    hourlyRate: row.hourlyRate ?? 0,
    photoVersion: row.hasPhoto ? row.photoVersion : null,
    rating: { average: displayedAverage(ratingSum, ratingCount), count: ratingCount },
  };
}

/**
 * Whether the text still says something once PostgreSQL drops its stop words: "the" or "in" alone
 * become an empty query that matches nothing, and such a search should be read as no text at all.
 */
async function meaningfulQuery(db: Kysely<DB>, text: string): Promise<boolean> {
  const { rows } = await sql<{
    nodes: number;
  }>`select numnode(to_tsquery('english', ${text})) as nodes`.execute(db);
  return Number(rows[0]?.nodes ?? 0) > 0;
}

/**
 * One statement per search: the matching profiles are filtered and given their
 * sort key on tutor_profiles alone, then sorted and cut to the page with the total counted by a
 * window over those rows, and only the page's few rows are joined to their names and photos. Two
 * statements (a count and a page) read every match twice; joining users for every match cost as
 * much again.
 */
export async function searchTutors(
  db: Kysely<DB>,
  params: TutorSearchParams,
  listing: Listing,
  /** The school's currency: a trial never costs more than half an hour at the tutor's rate in it. */
  currency: string,
): Promise<TutorSearchResult> {
  const page = params.page ?? 1;
  const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
  const prefixed = params.q ? prefixQuery(params.q) : null;
  const text = prefixed && (await meaningfulQuery(db, prefixed)) ? prefixed : null;
  const tsQuery = text ? sql`to_tsquery('english', ${text})` : null;
  const sort = effectiveSort(params.sort, Boolean(tsQuery));

  let matches = db.selectFrom('tutor_profiles as tp').where(listedTutor(listing));
  if (tsQuery) matches = matches.where(sql<boolean>`tp.search_document @@ ${tsQuery}`);
  if (params.category)
    matches = matches.where(sql<boolean>`tp.categories @> array[${params.category}]::text[]`);
  if (params.subject) matches = matches.where(sql<boolean>`tp.subjects @> array[${params.subject}]::text[]`);
  if (params.language)
    matches = matches.where(sql<boolean>`tp.languages @> array[${params.language}]::text[]`);
  // Few tutors offer a trial: the partial index of those who do (migration 0016) answers this.
  if (params.trial)
    matches = matches.where(
      sql<boolean>`exists (select 1 from tutor_availability ta where ta.user_id = tp.user_id and ta.trial_offered)`,
    );
  if (params.minPrice !== undefined) matches = matches.where('tp.hourly_rate', '>=', params.minPrice);
  if (params.maxPrice !== undefined) matches = matches.where('tp.hourly_rate', '<=', params.maxPrice);
  // The filter reads the average as the cards show it, rounded to one decimal.
  if (params.minRating !== undefined)
    matches = matches
      .where('tp.rating_count', '>', 0)
      .where(sql<boolean>`round(tp.rating_sum::numeric / tp.rating_count, 1) >= ${params.minRating}`);

  // The sort key travels with each matching id, so the outer query orders the page the same way.
  const sortKey =
    sort === 'relevance' && tsQuery
      ? sql<number>`ts_rank(tp.search_document, ${tsQuery})`
      : sort === 'rating'
        ? bestRatedKey
        : sort === 'price_asc'
          ? sql<number>`tp.hourly_rate`
          : sort === 'price_desc'
            ? sql<number>`-tp.hourly_rate`
            : sql<number>`0`;
  const direction = sort === 'relevance' ? 'desc' : 'asc';

  const found = await db
    // Each match's sort key is worked out once, into narrow rows, before the total is counted over
    // them: counting over the scan itself carried every match's search document through the
    // window and ranked it above it, which took longer than the scan.
    .with(
      (cte) => cte('matching').materialized(),
      () => matches.select(['tp.user_id', 'tp.published_at', sortKey.as('sort_key')]),
    )
    .with('page_of_matches', (qb) =>
      qb
        .selectFrom('matching')
        .select((eb) => [
          'matching.user_id',
          'matching.published_at',
          'matching.sort_key',
          eb.fn.countAll<string>().over().as('total'),
        ])
        .orderBy('matching.sort_key', direction)
        .orderBy('matching.published_at', 'desc')
        .orderBy('matching.user_id', 'asc')
        .limit(pageSize)
        .offset((page - 1) * pageSize),
    )
    .selectFrom('page_of_matches as m')
    .innerJoin('tutor_profiles as tp', 'tp.user_id', 'm.user_id')
    .innerJoin('users as u', 'u.id', 'tp.user_id')
    .leftJoin('profile_photos as pp', 'pp.user_id', 'tp.user_id')
    .leftJoin('tutor_availability as a', 'a.user_id', 'tp.user_id')
    .select([...cardColumns, 'm.total'])
    .orderBy('m.sort_key', direction)
    .orderBy('m.published_at', 'desc')
    .orderBy('m.user_id', 'asc')
    .execute();

  // A page past the end has no row to carry the total: count once, only then.
  let total = Number(found[0]?.total ?? 0);
  if (found.length === 0 && page > 1) {
    const counted = await matches
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow();
    total = Number(counted.total);
  }
  return { total, page, pageSize, tutors: found.map(({ total: _total, ...card }) => toCard(card, currency)) };
}

/** The home page's featured tutor: who they are, what they teach first, and their rating. */
export interface FeaturedTutor {
  id: string;
  displayName: string;
  subject: string;
  photoVersion: string;
  rating: { average: number | null; count: number };
  verified: boolean;
}

/**
 * The featured tutor: the best rated of the listed tutors with a photo, by the same Bayesian
 * average as the search's "Best rated" sort, then more reviews, then the most recently published;
 * null when no listed tutor has a photo. The constants are written into the SQL (not bound), so
 * the expression matches the partial index of migration 0011 and one index entry answers.
 */
export async function findFeaturedTutor(db: Kysely<DB>, listing: Listing): Promise<FeaturedTutor | null> {
  const row = await db
    .selectFrom('tutor_profiles as tp')
    .innerJoin('users as u', 'u.id', 'tp.user_id')
    .innerJoin('profile_photos as pp', 'pp.user_id', 'tp.user_id')
    .leftJoin('tutor_availability as a', 'a.user_id', 'tp.user_id')
    .select([...cardColumns])
    // Written out, not bound, like the score: the index's condition must be provable from the query.
    .where(listedTutor(listing))
    .where(sql<boolean>`tp.has_photo`)
    .orderBy(bestRatedKey)
    .orderBy('tp.rating_count', 'desc')
    .orderBy('tp.published_at', 'desc')
    .orderBy('tp.user_id')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  // A featured tutor's card says no price: the currency does not matter here.
  const card = toCard(row, 'USD');
  return {
    id: card.id,
    displayName: card.displayName,
    subject: card.subjects[0] ?? '',
    photoVersion: row.photoVersion ?? '',
    rating: card.rating,
    verified: card.verified,
  };
}

/**
 * A listed tutor's public page, or null for any other id. `mayTakeTrial` says whether the one
 * asking may book the trial, when the tutor offers one (a signed-in student who had a lesson with
 * the tutor may not).
 */
export async function findListedTutor(
  db: Kysely<DB>,
  id: string,
  listing: Listing,
  mayTakeTrial: () => Promise<boolean> = async () => true,
  /** The school's payments: packages are sold only while they are on, in the currency's minor unit. */
  payments: { on: boolean; currency: string } = { on: false, currency: 'USD' },
): Promise<TutorPublicProfile | null> {
  const row = await db
    .selectFrom('tutor_profiles as tp')
    .innerJoin('users as u', 'u.id', 'tp.user_id')
    .leftJoin('profile_photos as pp', 'pp.user_id', 'tp.user_id')
    .leftJoin('tutor_availability as a', 'a.user_id', 'tp.user_id')
    .where('tp.user_id', '=', id)
    .where(listedTutor(listing))
    .select([
      ...cardColumns,
      'tp.about',
      'u.time_zone as timeZone',
      'u.created_at as createdAt',
      'a.lesson_minutes as lessonMinutes',
      'a.instant_booking as instantBooking',
      'a.weekly as weekly',
      'a.overrides as overrides',
      'a.cancellation_window_hours as cancellationWindowHours',
      'a.late_cancel_fee_percent as lateCancelFeePercent',
      'a.packages as packages',
    ])
    .executeTakeFirst();
  if (!row) return null;
  const {
    about,
    timeZone,
    createdAt,
    lessonMinutes,
    instantBooking,
    weekly,
    overrides,
    cancellationWindowHours,
    lateCancelFeePercent,
    packages,
    ...card
  } = row;
  const tutorCard = toCard(card, payments.currency);
  return {
    ...tutorCard,
    about,
    timeZone,
    memberSince: new Date(createdAt).toISOString(),
    booking: {
      lessonMinutes: lessonMinutes ?? [...DEFAULT_BOOKING_SETTINGS.lessonMinutes],
      instantBooking: instantBooking ?? DEFAULT_BOOKING_SETTINGS.instantBooking,
      // Whether any time is open at all, so the page need not send anyone looking week after week.
      hasHours:
        (weekly?.length ?? 0) > 0 || (overrides ?? []).some((override) => override.windows.length > 0),
      trialAvailable: tutorCard.trial !== null && (await mayTakeTrial()),
      // The policy a lesson booked now would keep.
      cancellationPolicy: {
        cancellationWindowHours:
          cancellationWindowHours ?? DEFAULT_CANCELLATION_POLICY.cancellationWindowHours,
        lateCancelFeePercent: lateCancelFeePercent ?? DEFAULT_CANCELLATION_POLICY.lateCancelFeePercent,
      },
      packages: payments.on
        ? (packages ?? []).map((offer) => ({
            ...offer,
            ...offerPrices(offer, card.hourlyRate ?? 0, minorPerUnit(payments.currency)),
          }))
        : [],
    },
  };
}
