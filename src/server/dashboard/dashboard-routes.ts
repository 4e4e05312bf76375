import { Hono } from 'hono';
import type { Auth } from '../accounts/auth';
import { loadSession, requireVerifiedUser } from '../accounts/session';
import type { AppEnv } from '../http/app-env';
import { dashboardFor } from './dashboard-data';

/** GET /api/dashboard: the signed-in, verified user's dashboard (401 signed out, 403 unverified). */
export function dashboardRoutes(auth: Auth) {
  return new Hono<AppEnv>().get('/dashboard', loadSession(auth), (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(dashboardFor(requireVerifiedUser(c).role));
  });
}
