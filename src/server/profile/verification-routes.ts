/**
 * A tutor's verification from their own side: GET /api/profile/verification (where it stands,
 * with the last decision's note) and POST /api/profile/verification-request (ask an admin to
 * review the profile, once it is complete). Verified tutors only.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { requestVerification, verificationMessages, verificationState } from '../admin/verifications';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { type SessionReader, verifiedOnly, verifiedWithRole } from '../platform/session-guards';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';

const tutorsOnly = verifiedWithRole('tutor', verificationMessages.tutorsOnly);

export function verificationRoutes(deps: {
  db: Kysely<DB>;
  sessions: SessionReader;
  limiters: RateLimiters;
}) {
  const { db } = deps;
  const { loadSession } = deps.sessions;
  return new Hono<AppEnv>()
    .get('/profile/verification', loadSession, verifiedOnly, tutorsOnly, async (c) =>
      c.json(await verificationState(db, c.var.user.id), 200),
    )
    .post(
      '/profile/verification-request',
      loadSession,
      verifiedOnly,
      tutorsOnly,
      limitByUser(deps.limiters, 'profileUpdate'),
      async (c) => c.json(await requestVerification(db, c.var.user.id), 200),
    );
}
