import { Hono } from 'hono';
import { requireVerifiedUser, type SessionReader } from '../accounts/session';
import type { AppEnv } from '../http/app-env';
import { dashboardFor } from './dashboard-data';

/** GET /api/dashboard: the signed-in, verified user's dashboard (401 signed out, 403 unverified). */
export function dashboardRoutes(sessions: SessionReader) {
  return new Hono<AppEnv>().get('/dashboard', sessions.loadSession, (c) =>
    c.json(dashboardFor(requireVerifiedUser(c).role), 200),
  );
}
