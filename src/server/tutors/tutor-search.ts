/**
 * Finds published tutors: PostgreSQL full-text search (prefix-matching every word, so "calc"
 * finds Calculus) over name, subjects, headline and about, with filters for category, subject,
 * language and price, four sorts, and pages with a total count. Only public fields leave here.
 */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { DEFAULT_PAGE_SIZE, type TutorSort } from '../../shared/tutor-catalog';
import type {
  TutorCard,
  TutorPublicProfile,
  TutorSearchParams,
  TutorSearchResult,
} from '../../shared/tutor-schemas';
import type { DB } from '../db/schema';

/** "Calc  tutor!" → "calc:* & tutor:*". Only letters and digits reach to_tsquery. */
export function prefixQuery(text: string): string | null {
  const words =
    text
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, 8) ?? [];
  return words.length ? words.map((word) => `${word}:*`).join(' & ') : null;
}

type Query = SelectQueryBuilder<DB & { tp: DB['tutor_profiles']; u: DB['users'] }, 'tp' | 'u', object>;

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
] as const;

function toCard(row: {
  id: string;
  displayName: string;
  headline: string;
  subjects: string[];
  languages: string[];
  hourlyRate: number | null;
  yearsExperience: number | null;
  hasPhoto: boolean;
  photoVersion: string | null;
}): TutorCard {
  return { ...row, hourlyRate: row.hourlyRate ?? 0, photoVersion: row.hasPhoto ? row.photoVersion : null };
}

export async function searchTutors(db: Kysely<DB>, params: TutorSearchParams): Promise<TutorSearchResult> {
  const page = params.page ?? 1;
  const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
  const text = params.q ? prefixQuery(params.q) : null;
  const tsQuery = text ? sql`to_tsquery('english', ${text})` : null;

  let filtered = db
    .selectFrom('tutor_profiles as tp')
    .innerJoin('users as u', 'u.id', 'tp.user_id')
    .where('tp.published', '=', true) as unknown as Query;
  if (tsQuery) filtered = filtered.where(sql<boolean>`tp.search_document @@ ${tsQuery}`);
  if (params.category)
    filtered = filtered.where(sql<boolean>`tp.categories @> array[${params.category}]::text[]`);
  if (params.subject)
    filtered = filtered.where(sql<boolean>`tp.subjects @> array[${params.subject}]::text[]`);
  if (params.language)
    filtered = filtered.where(sql<boolean>`tp.languages @> array[${params.language}]::text[]`);
  if (params.minPrice !== undefined) filtered = filtered.where('tp.hourly_rate', '>=', params.minPrice);
  if (params.maxPrice !== undefined) filtered = filtered.where('tp.hourly_rate', '<=', params.maxPrice);

  const sort: TutorSort = params.sort ?? (tsQuery ? 'relevance' : 'newest');
  const counted = filtered.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
  let rows = filtered.leftJoin('profile_photos as pp', 'pp.user_id', 'tp.user_id').select(cardColumns);
  if (sort === 'relevance' && tsQuery)
    rows = rows.orderBy(sql`ts_rank(tp.search_document, ${tsQuery})`, 'desc');
  if (sort === 'price_asc') rows = rows.orderBy('tp.hourly_rate', 'asc');
  if (sort === 'price_desc') rows = rows.orderBy('tp.hourly_rate', 'desc');
  rows = rows.orderBy('tp.published_at', 'desc').orderBy('tp.user_id', 'asc');
  const [{ total }, found] = await Promise.all([
    counted,
    rows
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
  ]);
  return { total: Number(total), page, pageSize, tutors: found.map(toCard) };
}

export async function findPublishedTutor(db: Kysely<DB>, id: string): Promise<TutorPublicProfile | null> {
  const row = await db
    .selectFrom('tutor_profiles as tp')
    .innerJoin('users as u', 'u.id', 'tp.user_id')
    .leftJoin('profile_photos as pp', 'pp.user_id', 'tp.user_id')
    .where('tp.user_id', '=', id)
    .where('tp.published', '=', true)
    .select([...cardColumns, 'tp.about', 'u.time_zone as timeZone', 'u.created_at as createdAt'])
    .executeTakeFirst();
  if (!row) return null;
  const { about, timeZone, createdAt, ...card } = row;
  return { ...toCard(card), about, timeZone, memberSince: new Date(createdAt).toISOString() };
}
