/**
 * A parent's dashboard (docs/api.md, "Families"): for each child linked to them, the next lessons,
 * the tutors' latest notes, goals and achievements; and what the family spent this month.
 */
import { type Kysely, sql } from 'kysely';
import type { Achievement } from '../../shared/progress/progress-rules';
import type { DB } from '../db/schema';
import { plannedAt } from '../lessons/lifecycle/lesson-states-sql';
import { monthAround, spentThisMonth } from '../money/family-payer';
import { hasLogin } from '../platform/family-links';
import { achievementsOf } from '../progress/achievements';
import { type GoalView, goalsOfStudents } from '../progress/goals';
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
 * A parent's dashboard, for all their children at once in a fixed number of statements (each one
 * reads every child's rows; ranks keep the newest few per child), whatever the number of children
 * or lessons.
 */
export async function parentDashboard(
  db: Kysely<DB>,
  userId: string,
  timeZone: string,
  now: number,
  payments: DashboardPayments,
): Promise<ParentDashboard> {
  const month = monthAround(now, timeZone);
  const [children, spent] = await Promise.all([
    db
      .selectFrom('family_links as f')
      .innerJoin('users as u', 'u.id', 'f.student_id')
      .select(['u.id', 'u.display_name'])
      .select(hasLogin('u.id').as('has_login'))
      .where('f.parent_id', '=', userId)
      .where('u.deleted_at', 'is', null)
      .orderBy('f.created_at')
      .orderBy('u.id')
      .execute(),
    spentThisMonth(db, userId, null, month.from, month.to),
  ]);
  const ids = children.map((child) => child.id);
  const spentThisMonthView = { amountCents: spent, currency: payments.currency };
  if (ids.length === 0) return { role: 'parent', timeZone, children: [], spentThisMonth: spentThisMonthView };
  const [upcoming, notes, goals, achievements] = await Promise.all([
    db
      .selectFrom(
        lessonsOf(db, ids, 'student')
          .select(
            sql<string>`row_number() over (partition by l.student_id order by l.starts_at, l.id)`.as('rank'),
          )
          .where('l.ends_at', '>', new Date(now))
          .where(plannedAt(now, 'l'))
          .as('x'),
      )
      .selectAll()
      .where('x.rank', '<=', String(UPCOMING_LIMIT))
      .orderBy('x.starts_at')
      .orderBy('x.id')
      .execute(),
    db
      .selectFrom((eb) =>
        eb
          .selectFrom('lesson_notes as n')
          .innerJoin('lessons as l', 'l.id', 'n.lesson_id')
          .innerJoin('users as t', 't.id', 'l.tutor_id')
          .select([
            'l.id',
            'l.student_id',
            'l.subject',
            'l.starts_at',
            't.id as tutor_id',
            't.display_name as tutor_name',
            'n.covered',
            'n.homework',
            'n.updated_at',
            sql<string>`row_number() over (partition by l.student_id order by l.starts_at desc, l.id)`.as(
              'rank',
            ),
          ])
          .where('l.student_id', 'in', ids)
          .as('x'),
      )
      .selectAll()
      .where('x.rank', '<=', String(NOTES_LIMIT))
      .orderBy('x.starts_at', 'desc')
      .orderBy('x.id')
      .execute(),
    goalsOfStudents(db, ids),
    achievementsOf(db, ids, now, timeZone),
  ]);
  return {
    role: 'parent',
    timeZone,
    children: children.map((child) => ({
      id: child.id,
      firstName: child.display_name,
      hasLogin: Boolean(child.has_login),
      upcoming: upcoming.filter((row) => row.student_id === child.id).map((row) => toLesson(row, now)),
      notes: notes
        .filter((row) => row.student_id === child.id)
        .map((row) => ({
          lessonId: row.id,
          subject: row.subject,
          start: row.starts_at.toISOString(),
          tutor: { id: row.tutor_id, displayName: row.tutor_name },
          covered: row.covered,
          homework: row.homework,
          updatedAt: row.updated_at.toISOString(),
        })),
      goals: goals.get(child.id) ?? [],
      achievements: achievements.get(child.id) ?? [],
    })),
    spentThisMonth: spentThisMonthView,
  };
}
