/**
 * The public marketplace: GET /api/tutors (search), GET /api/tutors/featured (the home page's
 * tutor), GET /api/tutors/:id (a listed tutor's profile) and GET /api/tutors/:id/photo. Signed-out
 * visitors may browse; tutors who are not listed (../platform/tutor-listing.ts) do not exist here.
 */
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { tutorIdSchema, tutorSearchSchema } from '../../shared/tutor-schemas';
import type { DB } from '../db/schema';
import { errorResponse } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { hadLessonWith } from '../lessons/trials';
import type { SessionReader } from '../platform/session-guards';
import { type Listing, listedTutor } from '../platform/tutor-listing';
import { requireCatalogSubject } from '../settings/subject-catalog';
import { findFeaturedTutor, findListedTutor, searchTutors } from './tutor-search';

const notPublic = 'This tutor profile does not exist or is not public';
const tutorParam = z.object({ id: tutorIdSchema });

export function tutorRoutes(deps: {
  db: Kysely<DB>;
  listing: Listing;
  sessions: SessionReader;
  payments: { on: boolean; currency: string };
}) {
  const { db, listing } = deps;
  // The search's page of results is some 4 kB of JSON, a quarter of it gzipped, and the search
  // page's first paint of its list waits for it: its route compresses for a browser that accepts it.
  return new Hono<AppEnv>()
    .get('/tutors', compress(), validate('query', tutorSearchSchema), async (c) => {
      const params = c.req.valid('query');
      // Retired subjects are still searched: the tutors who kept them still teach them.
      if (params.subject) await requireCatalogSubject(db, params.subject, 'Unknown subject');
      c.header('Cache-Control', 'no-cache');
      return c.json(await searchTutors(db, params, listing, deps.payments.currency), 200);
    })
    .get('/tutors/featured', async (c) => {
      // Registered before /tutors/:id, which would take "featured" for an id. The home page asks
      // it after its first paint; every visitor gets the same answer, kept a minute.
      c.header('Cache-Control', 'public, max-age=60');
      return c.json({ tutor: await findFeaturedTutor(db, listing) }, 200);
    })
    .get('/tutors/:id', validate('param', tutorParam, notPublic), async (c) => {
      const id = c.req.valid('param').id;
      // Asked only of a tutor who offers a trial: a student who had a lesson with them may not.
      const mayTakeTrial = async () => {
        const viewer = await deps.sessions.signedInUser(c);
        return viewer?.role !== 'student' || !(await hadLessonWith(db, viewer.id, id, Date.now()));
      };
      const tutor = await findListedTutor(db, id, listing, mayTakeTrial, deps.payments);
      if (!tutor) return errorResponse(c, 404, notPublic, 'NOT_FOUND');
      c.header('Cache-Control', 'no-cache');
      return c.json(tutor, 200);
    })
    .get('/tutors/:id/photo', validate('param', tutorParam, 'No photo'), async (c) => {
      const photo = await db
        .selectFrom('profile_photos as pp')
        .innerJoin('tutor_profiles as tp', 'tp.user_id', 'pp.user_id')
        .select(['pp.image', 'pp.content_type', 'pp.version'])
        .where('pp.user_id', '=', c.req.valid('param').id)
        .where(listedTutor(listing))
        .executeTakeFirst();
      if (!photo) return errorResponse(c, 404, /*i18n*/ 'No photo', 'NOT_FOUND');
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
}
