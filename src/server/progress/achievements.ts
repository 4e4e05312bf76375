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

/**
 * What the achievements of the student whose id is `studentColumn` (a column of the query these
 * are selected in) are worked out from: the ends of their lessons that took place, and the first
 * day one of their goals was completed.
 */
export function achievementInputs(db: Kysely<DB>, studentColumn: string, now: number) {
  const student = sql.ref<string>(studentColumn);
  return [
    db
      .selectFrom('lessons as l')
      .select(endsList.as('ends'))
      .where('l.student_id', '=', student)
      .where(tookPlace(now, 'l'))
      .as('lesson_ends'),
    db
      .selectFrom('goals as g')
      .select((eb) => eb.fn.min('g.first_completed_at').as('first'))
      .where('g.student_id', '=', student)
      .as('first_goal_completed'),
  ] as const;
}

/** The achievements from a row of `achievementInputs`; its time is a string when read as JSON. */
export const achievementsOfRow = (
  row: { lesson_ends: string | null; first_goal_completed: Date | string | null },
  timeZone: string,
): Achievement[] =>
  achievementsFrom({
    lessonEnds: row.lesson_ends ? row.lesson_ends.split(',').map(Number) : [],
    goalsCompleted: row.first_goal_completed ? [new Date(row.first_goal_completed).getTime()] : [],
    timeZone,
  });

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
    .select(achievementInputs(db, 'u.id', now))
    .where('u.id', 'in', studentIds)
    .execute();
  return new Map(rows.map((row) => [row.id, achievementsOfRow(row, timeZone)]));
}
