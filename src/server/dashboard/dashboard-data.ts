/**
 * The dashboards, built from the user's lessons as they stand now, for the day and month of the
 * user's own time zone (their saved one, else the browser's, else UTC):
 * - a tutor's: today's lessons and class sessions (each session once), earnings this month and last (confirmed and completed lessons,
 *   by start), completed sessions, active students, requests waiting for an answer, and whether
 *   students can book at all yet;
 * - a student's: the next lessons, lessons completed per subject, their goals with milestones,
 *   and the achievements earned from lessons and goals, each with its date;
 * - a parent's: ./parent-dashboard.ts. Which one a user gets, and the greeting: ./dashboards.ts.
 */
import { type Expression, type Kysely, sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Role } from '../../shared/constants';
import type { LessonStatus } from '../../shared/lessons/lesson-schemas';
import type { Achievement } from '../../shared/progress/progress-rules';
import { displayedAverage } from '../../shared/reviews/review-rules';
import type { DB } from '../db/schema';
import { statusAt, tookPlace } from '../lessons/lesson-records';
import { plannedAt } from '../lessons/lifecycle/lesson-states-sql';
import { SEAT_STATUSES, type TaughtSession, taughtSessions } from '../lessons/taught-sessions';
import { earningsBetween } from '../money/finance-csv';
import { pendingEarnings } from '../money/wallet';
import type { Listing } from '../platform/tutor-listing';
import { achievementsOf } from '../progress/achievements';
import { type GoalView, goalsOf } from '../progress/goals';
import { tutorsToReview } from '../reviews/reviews';

const DAY = 24 * 60 * 60 * 1000;
/** A student counts as active with a lesson in the last 30 days or any ahead. */
const ACTIVE_STUDENT_DAYS = 30;
export const UPCOMING_LIMIT = 5;
/** How many of each child's latest lesson notes a parent's dashboard shows. */
export const NOTES_LIMIT = 3;
/** How many students the tutor's dashboard lists, the most recent first. */
const STUDENTS_LIMIT = 50;

export interface DashboardLesson {
  id: string;
  start: string;
  end: string;
  minutes: number;
  subject: string;
  status: LessonStatus;
  /** The other participant; null for a class session the tutor teaches (its students are many). */
  with: { id: string; displayName: string } | null;
  /**
   * The group class this is a session of, or null for a one-to-one lesson: a student's seat, or
   * (for its tutor) the session itself, shown once whatever number of students hold a seat.
   */
  classSession: { classId: string; sessionId: string; title: string; students: number; seats: number } | null;
}

export interface TutorDashboard {
  role: 'tutor';
  timeZone: string;
  today: DashboardLesson[];
  /**
   * With payments on, what the ledger settled to them in each month (by the time of settlement),
   * less refunds of their lessons in it, and what their upcoming lessons hold for them. With
   * payments off, the price of the lessons that took place in each month, and of those ahead.
   */
  earnings: { thisMonthCents: number; lastMonthCents: number; pendingCents: number; currency: string };
  totalSessions: number;
  activeStudents: number;
  pendingRequests: number;
  /** False until the tutor has saved at least one window: then nobody can book. */
  hasAvailability: boolean;
  /** The tutor's reviews: the average shown (null before the first) and how many. */
  rating: { average: number | null; count: number };
  /** The students taught (a confirmed or completed lesson), the latest lesson first. */
  students: { id: string; displayName: string; lessons: number; lastLessonAt: string }[];
}

export interface StudentDashboard {
  role: 'student';
  timeZone: string;
  upcoming: DashboardLesson[];
  completedBySubject: { subject: string; lessons: number }[];
  /** Tutors with a completed lesson the student has not reviewed yet. */
  toReview: { tutorId: string; displayName: string }[];
  goals: GoalView[];
  achievements: Achievement[];
}

/** [start, end) of the local day and month around `now` in a zone, and the month before. */
function calendarRanges(now: number, timeZone: string) {
  const here = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(timeZone);
  const today = here.toPlainDate();
  const month = today.toPlainYearMonth();
  const startOf = (date: Temporal.PlainDate) => date.toZonedDateTime({ timeZone }).epochMilliseconds;
  return {
    day: [startOf(today), startOf(today.add({ days: 1 }))] as const,
    month: [
      startOf(month.toPlainDate({ day: 1 })),
      startOf(month.add({ months: 1 }).toPlainDate({ day: 1 })),
    ] as const,
    lastMonth: [
      startOf(month.subtract({ months: 1 }).toPlainDate({ day: 1 })),
      startOf(month.toPlainDate({ day: 1 })),
    ] as const,
  };
}

/**
 * The lessons of `userId` as tutor or student, with the other participant and, for a class seat,
 * the class and how many hold a seat; `userId` may be a column of an outer query (a parent's
 * child's id).
 */
export function lessonsOf(db: Kysely<DB>, userId: string | Expression<string>, role: Role) {
  const mine = role === 'tutor' ? 'l.tutor_id' : 'l.student_id';
  const other = role === 'tutor' ? 'l.student_id' : 'l.tutor_id';
  return db
    .selectFrom('lessons as l')
    .innerJoin('users as o', 'o.id', other)
    .leftJoin('class_sessions as cs', 'cs.id', 'l.class_session_id')
    .leftJoin('classes as cl', 'cl.id', 'cs.class_id')
    .select([
      'l.id',
      'l.student_id',
      'l.starts_at',
      'l.ends_at',
      'l.minutes',
      'l.subject',
      'l.status',
      'l.expires_at',
      'l.price_cents',
      'l.currency',
      'o.id as other_id',
      'o.display_name as other_name',
      'l.class_session_id',
      'cl.id as class_id',
      'cl.title as class_title',
      'cl.seats as class_seats',
      // Counted for a class seat only: a one-to-one lesson has no seats to count.
      (eb) =>
        eb
          .case()
          .when('l.class_session_id', 'is not', null)
          .then(
            eb
              .selectFrom('lessons as seat')
              .select(eb.fn.countAll<string>().as('count'))
              .whereRef('seat.class_session_id', '=', 'l.class_session_id')
              // Said outright, so the class seats' own index (lessons_one_seat_idx) answers the count
              // instead of a scan of every lesson for each row.
              .where('seat.class_session_id', 'is not', null)
              .where('seat.status', 'in', SEAT_STATUSES),
          )
          .end()
          .as('class_students'),
    ])
    .where(mine, '=', userId);
}

/** A row of `lessonsOf`, read as rows or as JSON (its times then strings, its count a number). */
interface DashboardLessonRow {
  id: string;
  starts_at: Date | string;
  ends_at: Date | string;
  minutes: number;
  subject: string;
  status: LessonStatus;
  expires_at: Date | string | null;
  other_id: string;
  other_name: string;
  class_session_id: string | null;
  class_id: string | null;
  class_title: string | null;
  class_seats: number | null;
  class_students: string | number | null;
}

export const toLesson = (row: DashboardLessonRow, now: number): DashboardLesson => ({
  id: row.id,
  start: new Date(row.starts_at).toISOString(),
  end: new Date(row.ends_at).toISOString(),
  minutes: row.minutes,
  subject: row.subject,
  status: statusAt(
    {
      status: row.status,
      ends_at: new Date(row.ends_at),
      expires_at: row.expires_at === null ? null : new Date(row.expires_at),
    },
    now,
  ),
  with: { id: row.other_id, displayName: row.other_name },
  classSession:
    row.class_session_id === null
      ? null
      : {
          classId: row.class_id ?? '',
          sessionId: row.class_session_id,
          title: row.class_title ?? row.subject,
          students: Number(row.class_students ?? 0),
          seats: row.class_seats ?? 0,
        },
});

/** A session the tutor teaches, as their dashboard lists it beside their lessons. */
const sessionAsLesson = (session: TaughtSession): DashboardLesson => ({
  id: session.id,
  start: session.start,
  end: session.end,
  minutes: session.minutes,
  subject: session.subject,
  status: session.status === 'ended' ? 'completed' : 'confirmed',
  with: null,
  classSession: {
    classId: session.classId,
    sessionId: session.id,
    title: session.title,
    students: session.students,
    seats: session.seats,
  },
});

/** Whether a session starts in [from, to): the day's list, as for lessons, is by start. */
const startsIn =
  ([from, to]: readonly [number, number]) =>
  (session: TaughtSession) =>
    Date.parse(session.start) >= from && Date.parse(session.start) < to;

/** How the dashboards read money: from the ledger when payments are on. */
export interface DashboardPayments {
  on: boolean;
  currency: string;
}

export async function tutorDashboard(
  db: Kysely<DB>,
  userId: string,
  timeZone: string,
  now: number,
  payments: DashboardPayments,
): Promise<TutorDashboard> {
  const ranges = calendarRanges(now, timeZone);
  const earliest = Math.min(ranges.lastMonth[0], now - ACTIVE_STUDENT_DAYS * DAY);
  const [rows, availability, sessionsToday] = await Promise.all([
    lessonsOf(db, userId, 'tutor')
      .where('l.starts_at', '>=', new Date(earliest))
      .orderBy('l.starts_at')
      .execute(),
    db
      .selectFrom('tutor_availability')
      .select(['weekly', 'overrides'])
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    taughtSessions(db, userId, ranges.day[0], ranges.day[1], now),
  ]);
  const ratings = await db
    .selectFrom('tutor_profiles')
    .select(['rating_count', 'rating_sum'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  // A class session counts once, however many students took part in it.
  const completed = await db
    .selectFrom('lessons')
    .select(sql<string>`count(distinct coalesce(class_session_id, id))`.as('count'))
    .where('tutor_id', '=', userId)
    .where(tookPlace(now))
    .executeTakeFirstOrThrow();
  const students = await db
    .selectFrom('lessons as l')
    .innerJoin('users as s', 's.id', 'l.student_id')
    .select([
      's.id',
      's.display_name',
      (eb) => eb.fn.countAll<string>().as('lessons'),
      (eb) => eb.fn.max('l.starts_at').as('last_lesson_at'),
    ])
    .where('l.tutor_id', '=', userId)
    .where('l.status', 'in', ['confirmed', 'completed'])
    .groupBy(['s.id', 's.display_name'])
    .orderBy('last_lesson_at', 'desc')
    .limit(STUDENTS_LIMIT)
    .execute();

  const lessons = rows.map((row) => ({ row, status: statusAt(row, now), start: row.starts_at.getTime() }));
  const taught = (range: readonly [number, number]) =>
    lessons
      .filter(({ status, start }) => status === 'completed' && start >= range[0] && start < range[1])
      .reduce((sum, { row }) => sum + row.price_cents, 0);
  const earnings = payments.on
    ? {
        thisMonthCents: await earningsBetween(
          db,
          userId,
          new Date(ranges.month[0]),
          new Date(ranges.month[1]),
        ),
        lastMonthCents: await earningsBetween(
          db,
          userId,
          new Date(ranges.lastMonth[0]),
          new Date(ranges.lastMonth[1]),
        ),
        pendingCents: await pendingEarnings(db, userId),
        currency: payments.currency,
      }
    : {
        thisMonthCents: taught(ranges.month),
        lastMonthCents: taught(ranges.lastMonth),
        pendingCents: lessons
          .filter(({ status }) => status === 'confirmed')
          .reduce((sum, { row }) => sum + row.price_cents, 0),
        currency: payments.currency,
      };
  const active = new Set(
    lessons
      .filter(
        ({ status, start }) =>
          (status === 'confirmed' || status === 'completed') && start >= now - ACTIVE_STUDENT_DAYS * DAY,
      )
      .map(({ row }) => row.other_id),
  );
  const lessonsToday = lessons
    .filter(
      ({ row, status, start }) =>
        // A class's seats are shown as their session, once.
        row.class_session_id === null &&
        start >= ranges.day[0] &&
        start < ranges.day[1] &&
        status !== 'cancelled' &&
        status !== 'declined' &&
        status !== 'expired',
    )
    .map(({ row }) => toLesson(row, now));
  return {
    role: 'tutor',
    timeZone,
    today: [...lessonsToday, ...sessionsToday.filter(startsIn(ranges.day)).map(sessionAsLesson)].sort(
      (a, b) => Date.parse(a.start) - Date.parse(b.start),
    ),
    earnings,
    totalSessions: Number(completed.count),
    activeStudents: active.size,
    pendingRequests: lessons.filter(({ status }) => status === 'pending').length,
    hasAvailability: Boolean(
      availability &&
        (availability.weekly.length > 0 || availability.overrides.some((o) => o.windows.length > 0)),
    ),
    rating: {
      average: displayedAverage(ratings?.rating_sum ?? 0, ratings?.rating_count ?? 0),
      count: ratings?.rating_count ?? 0,
    },
    students: students.map((student) => ({
      id: student.id,
      displayName: student.display_name,
      lessons: Number(student.lessons),
      lastLessonAt: new Date(student.last_lesson_at).toISOString(),
    })),
  };
}

export async function studentDashboard(
  db: Kysely<DB>,
  userId: string,
  timeZone: string,
  now: number,
  listing: Listing,
): Promise<StudentDashboard> {
  const [upcoming, completed] = await Promise.all([
    lessonsOf(db, userId, 'student')
      .where('l.ends_at', '>', new Date(now))
      .where(plannedAt(now, 'l'))
      .orderBy('l.starts_at')
      .limit(UPCOMING_LIMIT)
      .execute(),
    db
      .selectFrom('lessons')
      .select(['subject', (eb) => eb.fn.countAll<string>().as('lessons')])
      .where('student_id', '=', userId)
      .where(tookPlace(now))
      .groupBy('subject')
      .execute(),
  ]);
  const [toReview, goals, achievements] = await Promise.all([
    tutorsToReview(db, userId, now, listing),
    goalsOf(db, userId),
    achievementsOf(db, [userId], now, timeZone),
  ]);
  return {
    role: 'student',
    toReview,
    goals,
    achievements: achievements.get(userId) ?? [],
    timeZone,
    upcoming: upcoming.map((row) => toLesson(row, now)),
    completedBySubject: completed
      .map((row) => ({ subject: row.subject, lessons: Number(row.lessons) }))
      .sort((a, b) => b.lessons - a.lessons || a.subject.localeCompare(b.subject)),
  };
}
