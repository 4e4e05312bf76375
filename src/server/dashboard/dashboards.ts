/**
 * Which dashboard a user gets (a tutor's, a student's or a parent's: ./dashboard-data.ts and
 * ./parent-dashboard.ts), in their own zone, with the greeting of their first visit.
 */
import type { Kysely } from 'kysely';
import type { Role } from '../../shared/constants';
import type { DB } from '../db/schema';
import type { SessionWelcome } from '../http/app-env';
import type { Listing } from '../platform/tutor-listing';
import {
  type DashboardPayments,
  type StudentDashboard,
  studentDashboard,
  type TutorDashboard,
  tutorDashboard,
} from './dashboard-data';
import { type ParentDashboard, parentDashboard } from './parent-dashboard';

/** What both dashboards carry besides their role's own. */
interface Greeting {
  /**
   * Whether this is the user's first visit since verifying: true in the session that first opened
   * the dashboard ("Welcome"), false in every later sign-in ("Welcome back").
   */
  firstVisit: boolean;
}

export type Dashboard = (TutorDashboard | StudentDashboard | ParentDashboard) & Greeting;

/**
 * Whether the session asking is the one the user is welcomed in: the first to open the dashboard
 * once the email is verified is remembered on the account, so a reload in it still says "Welcome"
 * and every later sign-in "Welcome back". Both ids come with the session's read; only the claim,
 * once an account's life, is a statement: one conditional update, so two tabs opening at once
 * agree on it.
 */
async function isFirstVisit(
  db: Kysely<DB>,
  userId: string,
  welcome: SessionWelcome | null,
): Promise<boolean> {
  if (welcome === null) return false;
  if (welcome.welcomedSessionId !== null) return welcome.welcomedSessionId === welcome.sessionId;
  await db
    .updateTable('users')
    .set({ welcomed_session_id: welcome.sessionId })
    .where('id', '=', userId)
    .where('welcomed_session_id', 'is', null)
    .execute();
  const claimed = await db
    .selectFrom('users')
    .select('welcomed_session_id')
    .where('id', '=', userId)
    .executeTakeFirst();
  return claimed?.welcomed_session_id === welcome.sessionId;
}

/**
 * The user's dashboard, in their saved zone; `browserZone` stands in for a zone the user has not
 * saved (else UTC), `listing` says which tutors a student is invited to review, and `welcome` is
 * what the session asking read for the greeting.
 */
export async function dashboardFor(
  db: Kysely<DB>,
  user: { id: string; role: Role; timeZone: string | null },
  browserZone: string | undefined,
  listing: Listing,
  payments: DashboardPayments,
  welcome: SessionWelcome | null,
  now = Date.now(),
): Promise<Dashboard> {
  const timeZone = user.timeZone ?? browserZone ?? 'UTC';
  const firstVisit = await isFirstVisit(db, user.id, welcome);
  const dashboard =
    user.role === 'tutor'
      ? await tutorDashboard(db, user.id, timeZone, now, payments)
      : user.role === 'parent'
        ? await parentDashboard(db, user.id, timeZone, now, payments)
        : await studentDashboard(db, user.id, timeZone, now, listing);
  return { ...dashboard, firstVisit };
}
