/**
 * The account's profile as an HTTP API: read your own profile (uid, email, displayName, role,
 * emailVerified, createdAt as an ISO date, language), and merge changes into it. Only displayName
 * and language may change; a request naming any other field is refused, so role or verification can never be
 * assigned through it. No route here takes a user id: you only ever see yourself.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { displayNameSchema, languageSchema, noSuchField } from '../../shared/schemas';
import type { SessionUser } from '../../shared/session-user';
import type { Auth } from '../accounts/auth';
import { forwardCookies } from '../accounts/session';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { type SessionReader, signedInOnly } from '../platform/session-guards';
import { refreshTutorListing } from '../platform/tutor-listing';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';

const profileUpdateSchema = z.strictObject(
  { displayName: displayNameSchema.optional(), language: languageSchema.optional() },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? noSuchField(
            /*i18n*/ 'Only displayName and language can be changed here; refused: {keys}',
            issue.keys,
          )
        : /*i18n*/ 'The profile update must be a JSON object',
  },
);

function toProfile(user: SessionUser) {
  return {
    uid: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt,
    language: user.language,
  };
}

export function profileRoutes(deps: {
  auth: Auth;
  sessions: SessionReader;
  db: Kysely<DB>;
  limiters: RateLimiters;
}) {
  return new Hono<AppEnv>()
    .get('/profile', deps.sessions.loadSession, signedInOnly, (c) => c.json(toProfile(c.var.user), 200))
    .patch(
      '/profile',
      deps.sessions.loadSession,
      signedInOnly,
      limitByUser(deps.limiters, 'profileUpdate'),
      validate('json', profileUpdateSchema),
      async (c) => {
        const user = c.var.user;
        const { displayName, language } = c.req.valid('json');
        const name = displayName !== undefined && displayName !== user.displayName ? displayName : undefined;
        const newLanguage = language !== undefined && language !== user.language ? language : undefined;
        if (name === undefined && newLanguage === undefined) return c.json(toProfile(user), 200);
        // Through Better Auth, which also refreshes this browser's cached copy of the session.
        const { headers, response } = await deps.auth.api.updateUser({
          headers: c.req.raw.headers,
          body: {
            ...(name === undefined ? {} : { name }),
            ...(newLanguage === undefined ? {} : { language: newLanguage }),
          },
          returnHeaders: true,
        });
        forwardCookies(c, headers);
        if (!response.status) throw new Error('Better Auth did not update the profile');
        // The name is part of a tutor's search entry.
        if (name !== undefined && user.role === 'tutor') await refreshTutorListing(deps.db, user.id);
        return c.json(
          toProfile({
            ...user,
            displayName: name ?? user.displayName,
            language: newLanguage ?? user.language,
          }),
          200,
        );
      },
    );
}
