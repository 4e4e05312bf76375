/**
 * GET /api/dashboard: the signed-in, verified user's dashboard (401 signed out, 403 unverified),
 * built from their lessons. `?timeZone=` is the browser's zone, used when the user saved none.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { timeZoneSchema } from '../../shared/tutor-schemas';
import { requireVerifiedUser, type SessionReader } from '../accounts/session';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import type { Listing } from '../tutors/tutor-listing';
import { dashboardFor } from './dashboard-data';

/** The browser's zone, where the user saved none: a zone this server does not know is ignored. */
export const browserZoneQuery = z.object({ timeZone: timeZoneSchema.optional().catch(undefined) });

export function dashboardRoutes(deps: { db: Kysely<DB>; sessions: SessionReader; listing: Listing }) {
  return new Hono<AppEnv>().get(
    '/dashboard',
    deps.sessions.loadSession,
    validate('query', browserZoneQuery),
    async (c) =>
      c.json(
        await dashboardFor(deps.db, requireVerifiedUser(c), c.req.valid('query').timeZone, deps.listing),
        200,
      ),
  );
}
