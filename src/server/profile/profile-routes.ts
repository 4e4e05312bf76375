/**
 * The seed's profile store as an HTTP API: read your own profile (uid, email, displayName, role,
 * emailVerified, createdAt as an ISO date), and merge changes into it. Only displayName may
 * change; a request naming any other field is refused, so role or verification can never be
 * assigned through it. No route here takes a user id: you only ever see yourself.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { displayNameSchema } from '../../shared/schemas';
import { loadSession, requireUser, type SessionReader, type SessionUser } from '../accounts/session';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import { refreshTutorListing } from '../tutors/tutor-listing';

const profileUpdateSchema = z.strictObject(
  { displayName: displayNameSchema.optional() },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Only displayName can be changed here; refused: ${issue.keys.join(', ')}`
        : 'The profile update must be a JSON object',
  },
);

function toProfile(user: SessionUser) {
  return {
    uid: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt.toISOString(),
  };
}

export function profileRoutes(deps: { sessions: SessionReader; db: Kysely<DB>; limiters: RateLimiters }) {
  const app = new Hono<AppEnv>();
  app.use('/profile', loadSession(deps.sessions));

  app.get('/profile', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(toProfile(requireUser(c)));
  });

  app.patch('/profile', limitByUser(deps.limiters, 'profileUpdate'), async (c) => {
    c.header('Cache-Control', 'no-store');
    const user = requireUser(c);
    const raw = await c.req.json().catch(() => {
      throw new ApiError(400, 'The profile update must be a JSON object', 'INVALID_JSON');
    });
    const parsed = profileUpdateSchema.safeParse(raw);
    if (!parsed.success)
      throw new ApiError(400, parsed.error.issues[0]?.message ?? 'Invalid profile', 'VALIDATION_ERROR');
    const { displayName } = parsed.data;
    if (displayName === undefined) return c.json(toProfile(user));
    await deps.db
      .updateTable('users')
      .set({ display_name: displayName, updated_at: new Date() })
      .where('id', '=', user.id)
      .execute();
    deps.sessions.cache.forgetUser(user.id);
    // The name is part of a tutor's search entry.
    if (user.role === 'tutor') await refreshTutorListing(deps.db, user.id);
    return c.json(toProfile({ ...user, displayName }));
  });

  return app;
}
