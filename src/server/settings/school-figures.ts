/**
 * What the school's own data says of it, where the pages used to repeat the first description's
 * sample figures: how many students took a lesson, how many tutors an admin verified, how many
 * lessons took place (the home page's figures until an admin sets them), and what most listed
 * tutors charge an hour (the FAQ, the home page and the rate field's hint).
 *
 * These are counts over whole tables, so they are read at most once a minute (`cachedFor`), not
 * every time the settings snapshot is: a figure a minute behind harms nobody, a count of every
 * lesson every few seconds would cost every request something on a busy school.
 */
import { type Kysely, sql } from 'kysely';
import { TYPICAL_RATE_MIN_TUTORS, type TypicalHourlyRate } from '../../shared/tutor-catalog';
import type { DB } from '../db/schema';
import { tookPlace } from '../lessons/lesson-records';
import { type Listing, listedTutor } from '../platform/tutor-listing';

/** The real counts behind the home page's three figures, in their order. */
export interface SchoolCounts {
  /** Students who took at least one lesson. */
  studentsHelped: number;
  /** Listed tutors an admin verified (the "Verified tutor" badge). */
  expertTutors: number;
  /** Lessons that took place. */
  lessonsCompleted: number;
}

export interface SchoolFigures {
  counts: SchoolCounts;
  /** Null until TYPICAL_RATE_MIN_TUTORS tutors are listed. */
  typicalHourlyRate: TypicalHourlyRate | null;
}

/** How long figures read are served before they are read again. */
export const SCHOOL_FIGURES_MAX_AGE_MS = 60_000;

export async function readSchoolFigures(
  db: Kysely<DB>,
  listing: Listing,
  now = Date.now(),
): Promise<SchoolFigures> {
  const [lessons, tutors, rates] = await Promise.all([
    sql<{ students: number; lessons: number }>`
      select count(distinct student_id)::int as students, count(*)::int as lessons
      from lessons l where ${tookPlace(now, 'l')}`.execute(db),
    sql<{ verified: number }>`
      select count(*)::int as verified from tutor_profiles tp
      where tp.published and tp.verification_status = 'approved'`.execute(db),
    // The listed tutors' rates in order; the cheapest and the dearest tenth (rounded down, so none
    // of five to nine) are left out, and the lowest and highest of the rest make the range.
    sql<{ listed: number | null; low: number | null; high: number | null }>`
      select max(total)::int as listed, min(rate)::int as low, max(rate)::int as high
      from (
        select tp.hourly_rate as rate,
          row_number() over (order by tp.hourly_rate) as position,
          count(*) over () as total
        from tutor_profiles tp
        where ${listedTutor(listing)} and tp.hourly_rate is not null
      ) ranked
      where position > total / 10 and position <= total - total / 10`.execute(db),
  ]);
  const rate = rates.rows[0];
  return {
    counts: {
      studentsHelped: lessons.rows[0]?.students ?? 0,
      expertTutors: tutors.rows[0]?.verified ?? 0,
      lessonsCompleted: lessons.rows[0]?.lessons ?? 0,
    },
    typicalHourlyRate:
      rate && (rate.listed ?? 0) >= TYPICAL_RATE_MIN_TUTORS && rate.low !== null && rate.high !== null
        ? { low: rate.low, high: rate.high }
        : null,
  };
}

/**
 * `read`, its answer kept for `maxAgeMs`; one read at a time. A read that fails is not kept: the
 * next call tries again.
 */
export function cachedFor<T>(maxAgeMs: number, read: () => Promise<T>): () => Promise<T> {
  let kept: { value: Promise<T>; at: number } | undefined;
  return () => {
    const now = Date.now();
    if (!kept || now - kept.at > maxAgeMs) {
      const value = read();
      const entry = { value, at: now };
      kept = entry;
      value.catch(() => {
        if (kept === entry) kept = undefined;
      });
    }
    return kept.value;
  };
}
