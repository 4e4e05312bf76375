/**
 * The public marketplace: GET /api/tutors (search), GET /api/tutors/:id (a published profile) and
 * GET /api/tutors/:id/photo. Signed-out visitors may browse; unpublished tutors do not exist here.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { tutorSearchSchema } from '../../shared/tutor-schemas';
import type { DB } from '../db/schema';
import { ApiError, errorResponse } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { findPublishedTutor, searchTutors } from './tutor-search';

const idPattern = /^[\w-]{1,64}$/;

export function tutorRoutes(deps: { db: Kysely<DB> }) {
  const { db } = deps;
  const app = new Hono<AppEnv>();

  app.get('/tutors', async (c) => {
    const parsed = tutorSearchSchema.safeParse(c.req.query());
    if (!parsed.success)
      throw new ApiError(400, parsed.error.issues[0]?.message ?? 'Invalid search', 'VALIDATION_ERROR');
    c.header('Cache-Control', 'no-cache');
    return c.json(await searchTutors(db, parsed.data));
  });

  app.get('/tutors/:id', async (c) => {
    const id = c.req.param('id');
    const tutor = idPattern.test(id) ? await findPublishedTutor(db, id) : null;
    if (!tutor)
      return errorResponse(c, 404, 'This tutor profile does not exist or is not public', 'NOT_FOUND');
    c.header('Cache-Control', 'no-cache');
    return c.json(tutor);
  });

  app.get('/tutors/:id/photo', async (c) => {
    const id = c.req.param('id');
    const photo = idPattern.test(id)
      ? await db
          .selectFrom('profile_photos as pp')
          .innerJoin('tutor_profiles as tp', 'tp.user_id', 'pp.user_id')
          .select(['pp.image', 'pp.content_type', 'pp.version'])
          .where('pp.user_id', '=', id)
          .where('tp.published', '=', true)
          .executeTakeFirst()
      : undefined;
    if (!photo) return errorResponse(c, 404, 'No photo', 'NOT_FOUND');
    const etag = `"${photo.version}"`;
    // A versioned URL (?v=…) never changes content; a bare one is revalidated.
    c.header(
      'Cache-Control',
      c.req.query('v') === photo.version ? 'public, max-age=31536000, immutable' : 'public, no-cache',
    );
    c.header('ETag', etag);
    if (c.req.header('if-none-match') === etag) return c.body(null, 304);
    c.header('Content-Type', photo.content_type);
    return c.body(new Uint8Array(photo.image));
  });

  return app;
}
