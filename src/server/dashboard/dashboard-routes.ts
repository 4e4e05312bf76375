/**
 * GET /api/dashboard: the signed-in, verified user's dashboard (401 signed out, 403 unverified),
 * built from their lessons. `?timeZone=` is the browser's zone, used when the user saved none; the
 * session asking decides the greeting.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { type SessionReader, verifiedOnly } from '../platform/session-guards';
import type { Listing } from '../platform/tutor-listing';
import { browserZoneQuery } from '../platform/user-time-zone';
import type { DashboardPayments } from './dashboard-data';
import { dashboardFor } from './dashboards';

export function dashboardRoutes(deps: {
  db: Kysely<DB>;
  sessions: SessionReader;
  listing: Listing;
  payments: DashboardPayments;
}) {
  return new Hono<AppEnv>().get(
    '/dashboard',
    deps.sessions.loadSession,
    verifiedOnly,
    validate('query', browserZoneQuery),
    async (c) =>
      c.json(
        await dashboardFor(
          deps.db,
          c.var.user,
          c.req.valid('query').timeZone,
          deps.listing,
          deps.payments,
          c.var.welcome,
        ),
        200,
      ),
  );
}
