/**
 * GET /api/schedule: what the schedule page needs besides the lessons themselves (which come from
 * GET /api/lessons): the role's wording and the zone to show times in, the user's saved one or,
 * when they saved none, the browser's (`?timeZone=`). 401 signed out, 403 unverified.
 * GET /api/schedule/class-sessions?from=&to=: the class sessions a tutor teaches in that range,
 * each once (a student's seats are lessons, in GET /api/lessons).
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { Role } from '../../shared/constants';
import { lessonRangeSchema } from '../../shared/lessons/lesson-schemas';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { taughtSessions } from '../lessons/taught-sessions';
import { type SessionReader, verifiedOnly } from '../platform/session-guards';
import type { Listing } from '../platform/tutor-listing';
import { browserZoneQuery, zoneOf } from '../platform/user-time-zone';
import { tutorsToReview } from '../reviews/reviews';

const DAY = 24 * 60 * 60 * 1000;
/** Without `from` or `to`, as GET /api/lessons: 30 days back, a year ahead; 400 days at most. */
const DEFAULT_PAST_DAYS = 30;
const DEFAULT_FUTURE_DAYS = 365;
const MAX_RANGE_DAYS = 400;

export const scheduleSubtitle = (role: Role) =>
  role === 'tutor'
    ? 'Manage your availability and upcoming sessions with students'
    : 'View and manage your upcoming lessons with tutors';

export function scheduleRoutes(deps: { db: Kysely<DB>; sessions: SessionReader; listing: Listing }) {
  return new Hono<AppEnv>()
    .get(
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
    )
    .get(
      '/schedule/class-sessions',
      deps.sessions.loadSession,
      verifiedOnly,
      validate('query', lessonRangeSchema),
      async (c) => {
        const now = Date.now();
        const query = c.req.valid('query');
        const from = query.from ?? (query.to ?? now) - DEFAULT_PAST_DAYS * DAY;
        const to = query.to ?? Math.max(from, now) + DEFAULT_FUTURE_DAYS * DAY;
        if (to - from > MAX_RANGE_DAYS * DAY)
          throw new ApiError(
            400,
            /*i18n*/ 'Class sessions can be listed 400 days at a time',
            'VALIDATION_ERROR',
            { field: 'to' },
          );
        const user = c.var.user;
        // Only tutors teach; a student's seats are their lessons.
        const sessions = user.role === 'tutor' ? await taughtSessions(deps.db, user.id, from, to, now) : [];
        return c.json({ sessions }, 200);
      },
    );
}
