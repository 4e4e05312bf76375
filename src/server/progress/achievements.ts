/**
 * The achievements of students, for their own dashboard and their parent's: the rules are
 * src/shared/progress/progress-rules.ts `achievementsFrom`; this reads what they need.
 */
import { type Kysely, sql } from 'kysely';
import { type Achievement, achievementsFrom } from '../../shared/progress/progress-rules';
import type { DB } from '../db/schema';
import { tookPlace } from '../lessons/lesson-records';

/**
 * Each student's achievements at `now`, in one statement whatever their number of lessons: the
 * database sends one row per student, the ends of the lessons that took place as one list (a week
 * runs Monday to Sunday in the reader's zone, which the rules know and the database need not) and
 * the first day a goal was completed. A few hundred lessons as rows cost the embedded database
 * far more than one list does.
 */
/** The lessons' ends as epoch milliseconds, whole as a JavaScript date holds them, in order. */
const endsList = sql<string | null>`string_agg(
  floor(extract(epoch from l.ends_at) * 1000)::bigint::text, ',' order by l.ends_at
)`;

export async function achievementsOf(
  db: Kysely<DB>,
  studentIds: readonly string[],
  now: number,
  timeZone: string,
): Promise<Map<string, Achievement[]>> {
  if (studentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users as u')
    .select('u.id')
    .select((eb) => [
      eb
        .selectFrom('lessons as l')
        .select(endsList.as('ends'))
        .whereRef('l.student_id', '=', 'u.id')
        .where(tookPlace(now, 'l'))
        .as('lesson_ends'),
      eb
        .selectFrom('goals as g')
        .select((inner) => inner.fn.min('g.first_completed_at').as('first'))
        .whereRef('g.student_id', '=', 'u.id')
        .as('first_goal_completed'),
    ])
    .where('u.id', 'in', studentIds)
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      achievementsFrom({
        lessonEnds: row.lesson_ends ? row.lesson_ends.split(',').map(Number) : [],
        goalsCompleted: row.first_goal_completed ? [new Date(row.first_goal_completed).getTime()] : [],
        timeZone,
      }),
    ]),
  );
}
