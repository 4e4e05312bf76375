/**
 * Which dashboard a user gets (a tutor's, a student's or a parent's: ./dashboard-data.ts and
 * ./parent-dashboard.ts), in their own zone, with the greeting of their first visit.
 */
import type { Kysely } from 'kysely';
import type { Role } from '../../shared/constants';
import type { DB } from '../db/schema';
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
 * The user's saved zone (else `browserZone`, else UTC), and whether the session of `sessionToken`
 * is the one the user is welcomed in: the first to open the dashboard once the email is verified
 * is remembered on the account, so a reload in it still says "Welcome" and every later sign-in
 * "Welcome back". Both are read in one statement; the claim is one conditional update, so two tabs
 * opening at once agree on it.
 */
async function zoneAndFirstVisit(
  db: Kysely<DB>,
  userId: string,
  browserZone: string | undefined,
  sessionToken: string | null,
): Promise<{ timeZone: string; firstVisit: boolean }> {
  const found = await db
    .selectFrom('users as u')
    .leftJoin('sessions as s', (join) =>
      join.onRef('s.user_id', '=', 'u.id').on('s.token', '=', sessionToken ?? ''),
    )
    .select(['u.time_zone', 'u.welcomed_session_id', 's.id as session_id'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  const timeZone = found?.time_zone ?? browserZone ?? 'UTC';
  if (sessionToken === null || !found?.session_id) return { timeZone, firstVisit: false };
  if (found.welcomed_session_id !== null)
    return { timeZone, firstVisit: found.welcomed_session_id === found.session_id };
  await db
    .updateTable('users')
    .set({ welcomed_session_id: found.session_id })
    .where('id', '=', userId)
    .where('welcomed_session_id', 'is', null)
    .execute();
  const claimed = await db
    .selectFrom('users')
    .select('welcomed_session_id')
    .where('id', '=', userId)
    .executeTakeFirst();
  return { timeZone, firstVisit: claimed?.welcomed_session_id === found.session_id };
}

/**
 * The user's dashboard; `browserZone` stands in for a zone the user has not saved, `listing`
 * says which tutors a student is invited to review, and `sessionToken` is the session asking (for
 * the greeting).
 */
export async function dashboardFor(
  db: Kysely<DB>,
  user: { id: string; role: Role },
  browserZone: string | undefined,
  listing: Listing,
  payments: DashboardPayments,
  sessionToken: string | null,
  now = Date.now(),
): Promise<Dashboard> {
  const { timeZone, firstVisit } = await zoneAndFirstVisit(db, user.id, browserZone, sessionToken);
  const dashboard =
    user.role === 'tutor'
      ? await tutorDashboard(db, user.id, timeZone, now, payments)
      : user.role === 'parent'
        ? await parentDashboard(db, user.id, timeZone, now, payments)
        : await studentDashboard(db, user.id, timeZone, now, listing);
  return { ...dashboard, firstVisit };
}
