/**
 * A parent's dashboard (docs/api.md, "Families"): for each child linked to them, the next lessons,
 * the tutors' latest notes, goals and achievements; and what the family spent this month.
 */
import { type Kysely, sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Achievement } from '../../shared/progress/progress-rules';
import type { DB } from '../db/schema';
import { plannedAt } from '../lessons/lifecycle/lesson-states-sql';
import { monthAround, spentOf, spentSums } from '../money/family-payer';
import { hasLogin } from '../platform/family-links';
import { achievementInputs, achievementsOfRow } from '../progress/achievements';
import { type GoalView, goalRows, toGoalView } from '../progress/goals';
import {
  type DashboardLesson,
  type DashboardPayments,
  lessonsOf,
  NOTES_LIMIT,
  toLesson,
  UPCOMING_LIMIT,
} from './dashboard-data';

/** A tutor's notes on a child's lesson, as the parent's dashboard shows the latest. */
export interface DashboardNotes {
  lessonId: string;
  subject: string;
  /** ISO 8601 UTC: the lesson's start. */
  start: string;
  tutor: { id: string; displayName: string };
  covered: string;
  homework: string;
  updatedAt: string;
}

export interface ParentDashboard {
  role: 'parent';
  timeZone: string;
  /** Each child linked to the parent, in the order they were added. */
  children: {
    id: string;
    firstName: string;
    /** Whether the child signs in themselves (and joins their lessons' rooms); else the parent does. */
    hasLogin: boolean;
    upcoming: DashboardLesson[];
    notes: DashboardNotes[];
    goals: GoalView[];
    achievements: Achievement[];
  }[];
  /**
   * What the children's bookings and packages paid by the parent hold or spent of their balance,
   * for those made this calendar month (the dashboard's zone), less what came back.
   */
  spentThisMonth: { amountCents: number; currency: string };
}

/**
 * Each child of the parent, in the order they were added, with the few rows the dashboard shows of
 * them as JSON arrays (the next lessons, the latest notes, the goals) and what their achievements
 * are worked out from.
 */
function childrenOf(db: Kysely<DB>, parentId: string, now: number) {
  const child = sql.ref<string>('child.id');
  return db
    .selectFrom('family_links as f')
    .innerJoin('users as child', 'child.id', 'f.student_id')
    .select(['child.id', 'child.display_name'])
    .select(hasLogin('child.id').as('has_login'))
    .select(achievementInputs(db, 'child.id', now))
    .select([
      jsonArrayFrom(
        lessonsOf(db, child, 'student')
          .where('l.ends_at', '>', new Date(now))
          .where(plannedAt(now, 'l'))
          .orderBy('l.starts_at')
          .orderBy('l.id')
          .limit(UPCOMING_LIMIT),
      ).as('upcoming'),
      jsonArrayFrom(
        db
          .selectFrom('lesson_notes as n')
          .innerJoin('lessons as l', 'l.id', 'n.lesson_id')
          .innerJoin('users as t', 't.id', 'l.tutor_id')
          .select([
            'l.id',
            'l.subject',
            'l.starts_at',
            't.id as tutor_id',
            't.display_name as tutor_name',
            'n.covered',
            'n.homework',
            'n.updated_at',
          ])
          .where('l.student_id', '=', child)
          .orderBy('l.starts_at', 'desc')
          .orderBy('l.id')
          .limit(NOTES_LIMIT),
      ).as('notes'),
      jsonArrayFrom(goalRows(db).where('g.student_id', '=', child)).as('goals'),
    ])
    .where('f.parent_id', '=', parentId)
    .where('child.deleted_at', 'is', null)
    .orderBy('f.created_at')
    .orderBy('child.id');
}

/**
 * A parent's dashboard, for all their children at once in one statement (each child's lists as
 * JSON arrays, beside the month's spending), whatever the number of children or lessons: on the
 * embedded store every statement is a round trip to the database's thread, which costs more than
 * the rows themselves.
 */
export async function parentDashboard(
  db: Kysely<DB>,
  userId: string,
  timeZone: string,
  now: number,
  payments: DashboardPayments,
): Promise<ParentDashboard> {
  const month = monthAround(now, timeZone);
  const row = await db
    .selectNoFrom([
      ...spentSums(db, userId, null, month.from, month.to),
      jsonArrayFrom(childrenOf(db, userId, now)).as('children'),
    ])
    .executeTakeFirstOrThrow();
  return {
    role: 'parent',
    timeZone,
    children: row.children.map((child) => ({
      id: child.id,
      firstName: child.display_name,
      hasLogin: Boolean(child.has_login),
      upcoming: child.upcoming.map((lesson) => toLesson(lesson, now)),
      notes: child.notes.map((note) => ({
        lessonId: note.id,
        subject: note.subject,
        start: new Date(note.starts_at).toISOString(),
        tutor: { id: note.tutor_id, displayName: note.tutor_name },
        covered: note.covered,
        homework: note.homework,
        updatedAt: new Date(note.updated_at).toISOString(),
      })),
      goals: child.goals.map(toGoalView),
      achievements: achievementsOfRow(child, timeZone),
    })),
    spentThisMonth: { amountCents: spentOf(row), currency: payments.currency },
  };
}
