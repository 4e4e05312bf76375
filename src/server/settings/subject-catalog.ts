/**
 * The subject catalogue in effect, as the database holds it (table `subjects`): read, and checked
 * when a profile, a search or a goal names a subject. Adding and retiring are site settings
 * (./site-settings.ts).
 */
import type { Kysely, Transaction } from 'kysely';
import { SUBJECT_CATEGORIES } from '../../shared/constants';
import type { SubjectCatalog, SubjectCategory } from '../../shared/tutor-catalog';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';

type Db = Kysely<DB> | Transaction<DB>;

export interface CatalogSubject {
  name: string;
  category: SubjectCategory;
  retired: boolean;
}

/** Every subject, retired ones too, in the catalogue's order. */
export async function readSubjects(db: Db): Promise<CatalogSubject[]> {
  const rows = await db
    .selectFrom('subjects')
    .select(['name', 'category', 'retired_at'])
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    name: row.name,
    category: row.category as SubjectCategory,
    retired: row.retired_at !== null,
  }));
}

/** The subjects grouped by the four categories, as pages and GET /api/config show them. */
export function groupCatalog(subjects: readonly CatalogSubject[]): SubjectCatalog {
  return SUBJECT_CATEGORIES.map((category) => {
    const inCategory = subjects.filter((subject) => subject.category === category);
    return {
      category,
      offered: inCategory.filter((subject) => !subject.retired).map((subject) => subject.name),
      retired: inCategory.filter((subject) => subject.retired).map((subject) => subject.name),
    };
  });
}

const PROFILE_SUBJECTS_REFUSED = /*i18n*/ 'Please choose subjects from the list';

/**
 * The categories of the subjects a tutor lists, after checking them: each must be in the
 * catalogue, and a retired one only if the profile already had it (`kept`), so a retirement
 * never takes a subject away from anyone but stops new tutors choosing it.
 */
export async function categoriesOfChosenSubjects(
  db: Db,
  chosen: readonly string[],
  kept: readonly string[],
): Promise<string[]> {
  if (chosen.length === 0) return [];
  const rows = await db
    .selectFrom('subjects')
    .select(['name', 'category', 'retired_at'])
    .where('name', 'in', [...chosen])
    .execute();
  const known = new Map(rows.map((row) => [row.name, row]));
  for (const name of chosen) {
    const row = known.get(name);
    if (!row) throw new ApiError(400, PROFILE_SUBJECTS_REFUSED, 'VALIDATION_ERROR');
    if (row.retired_at !== null && !kept.includes(name))
      throw new ApiError(
        400,
        {
          text: /*i18n*/ '{name} is no longer offered: please choose subjects from the list',
          values: { name },
        },
        'VALIDATION_ERROR',
      );
  }
  return [...new Set(chosen.map((name) => known.get(name)?.category ?? ''))].filter(Boolean);
}

/**
 * Refuses a subject the catalogue does not have, with `message`. Retired subjects pass: they are
 * still taught by the tutors who kept them, so a student may set a goal in one or search for it.
 */
export async function requireCatalogSubject(db: Db, subject: string, message: string): Promise<void> {
  const row = await db.selectFrom('subjects').select('id').where('name', '=', subject).executeTakeFirst();
  if (!row) throw new ApiError(400, message, 'VALIDATION_ERROR');
}
