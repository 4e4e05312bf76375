/**
 * GET /api/schedule: what the schedule page needs besides the lessons themselves (which come from
 * GET /api/lessons): the role's wording and the zone to show times in, the user's saved one or,
 * when they saved none, the browser's (`?timeZone=`). 401 signed out, 403 unverified.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { Role } from '../../shared/constants';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { type SessionReader, verifiedOnly } from '../platform/session-guards';
import type { Listing } from '../platform/tutor-listing';
import { browserZoneQuery, zoneOf } from '../platform/user-time-zone';
import { tutorsToReview } from '../reviews/reviews';

export const scheduleSubtitle = (role: Role) =>
  role === 'tutor'
    ? 'Manage your availability and upcoming sessions with students'
    : 'View and manage your upcoming lessons with tutors';

export function scheduleRoutes(deps: { db: Kysely<DB>; sessions: SessionReader; listing: Listing }) {
  return new Hono<AppEnv>().get(
    '/schedule',
    deps.sessions.loadSession,
    verifiedOnly,
    validate('query', browserZoneQuery),
    async (c) => {
      const user = c.var.user;
      const zone = await zoneOf(deps.db, user.id, c.req.valid('query').timeZone);
      return c.json(
        {
          role: user.role,
          subtitle: scheduleSubtitle(user.role),
          timeZone: zone.timeZone,
          /** Whether that zone is one the user chose (else it is the browser's). */
          timeZoneSaved: zone.saved,
          /** For a student: tutors of completed lessons not reviewed yet. */
          toReview:
            user.role === 'student' ? await tutorsToReview(deps.db, user.id, Date.now(), deps.listing) : [],
        },
        200,
      );
    },
  );
}
