/**
 * /api/profile/details and /api/profile/photo: the signed-in user's marketplace profile. A tutor
 * edits the public profile and its photo; a student, their time zone and learning goals. Each
 * role's schema refuses the other's fields. /api/profile/time-zone takes the zone a browser
 * reports, for a person who never saved one.
 *
 * Saves and uploads are rate-limited per user; an upload is refused (403, 429) before its body is
 * read, and waits for one of the process's photo decoding slots.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Kysely } from 'kysely';
import { formatUnits } from '../../shared/amounts';
import * as messages from '../../shared/messages';
import {
  HOURLY_RATE_BETWEEN,
  type HourlyRateRange,
  hourlyRateProblem,
} from '../../shared/settings/site-settings';
import { MAX_PHOTO_BYTES } from '../../shared/tutor-catalog';
import { reportedTimeZoneSchema, studentDetailsSchema, tutorDetailsSchema } from '../../shared/tutor-schemas';
import type { DB } from '../db/schema';
import { ApiError, errorResponse } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { validate, validateBy } from '../http/validation';
import { type SessionReader, signedInOnly, signedInWithRole } from '../platform/session-guards';
import { type ConcurrencyLimit, ServerBusyError } from '../rate-limit/concurrency-limit';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import { type ProcessedPhoto, photoDecodes, processPhoto } from '../tutors/profile-photo';
import {
  readDetails,
  removePhoto,
  savePhoto,
  saveReportedTimeZone,
  saveStudentDetails,
  saveTutorDetails,
} from './profile-details';

export const PHOTO_PATH = '/api/profile/photo';

/** Each role's fields, tagged with the role whose schema checked them. */
const tutorInput = tutorDetailsSchema.transform((details) => ({ role: 'tutor' as const, details }));
const studentInput = studentDetailsSchema.transform((details) => ({ role: 'student' as const, details }));

const tutorOnly = signedInWithRole('tutor', 'Only tutors have a profile photo');

export function profileDetailsRoutes(deps: {
  sessions: SessionReader;
  db: Kysely<DB>;
  limiters: RateLimiters;
  /** The process's photo decoding slots; tests pass their own. */
  photoDecodes?: ConcurrencyLimit | undefined;
  /** The hourly rates a tutor may ask (a site setting), in whole units of the school's currency. */
  hourlyRates: () => Promise<{ range: HourlyRateRange; currency: string }>;
}) {
  const { db, limiters } = deps;
  const decodes = deps.photoDecodes ?? photoDecodes;
  const { loadSession, fromDatabase } = deps.sessions;
  const photoSize = bodyLimit({
    maxSize: MAX_PHOTO_BYTES,
    onError: (c) => errorResponse(c, 413, /*i18n*/ 'The photo must be at most 5 MB', 'BODY_TOO_LARGE'),
  });

  return new Hono<AppEnv>()
    .get('/profile/details', loadSession, signedInOnly, async (c) => {
      const user = c.var.user;
      return c.json(await readDetails(db, user.id, user.role), 200);
    })
    .patch(
      '/profile/details',
      loadSession,
      signedInOnly,
      limitByUser(limiters, 'profileUpdate'),
      // The guard above has run, but the validator's context does not carry its type.
      validateBy('json', (c) => (c.var.user?.role === 'tutor' ? tutorInput : studentInput)),
      async (c) => {
        const user = c.var.user;
        const input = c.req.valid('json');
        const rate = input.role === 'tutor' ? input.details.hourlyRate : null;
        if (rate != null) {
          const { range, currency } = await deps.hourlyRates();
          if (hourlyRateProblem(rate, range, currency) !== null) {
            const values = (locale: string) => ({
              min: formatUnits(range.min, currency, locale),
              max: formatUnits(range.max, currency, locale),
            });
            throw new ApiError(400, { text: HOURLY_RATE_BETWEEN, values }, 'VALIDATION_ERROR', {
              field: 'hourlyRate',
            });
          }
        }
        if (input.role === 'tutor') await saveTutorDetails(db, user.id, input.details);
        else await saveStudentDetails(db, user.id, input.details);
        return c.json(await readDetails(db, user.id, user.role), 200);
      },
    )
    .post(
      '/profile/time-zone',
      loadSession,
      signedInOnly,
      validate('json', reportedTimeZoneSchema),
      async (c) => {
        const user = c.var.user;
        const answer = await saveReportedTimeZone(db, user.id, c.req.valid('json').timeZone);
        // The session's cached copy still says no zone is saved: read it again, so the next page
        // this browser loads knows, and does not report again.
        await fromDatabase(c);
        return c.json(answer, 200);
      },
    )
    .get('/profile/photo', loadSession, signedInOnly, async (c) => {
      const user = c.var.user;
      const photo = await db
        .selectFrom('profile_photos')
        .select(['image', 'content_type'])
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (!photo) return errorResponse(c, 404, /*i18n*/ 'You have no photo yet', 'NOT_FOUND');
      c.header('Cache-Control', 'private, no-cache');
      c.header('Content-Type', photo.content_type);
      return c.body(new Uint8Array(photo.image));
    })
    .put(
      '/profile/photo',
      loadSession,
      tutorOnly,
      limitByUser(limiters, 'profilePhoto'),
      photoSize,
      async (c) => {
        const user = c.var.user;
        const bytes = new Uint8Array(await c.req.arrayBuffer());
        if (bytes.length === 0)
          throw new ApiError(400, /*i18n*/ 'Please choose a photo to upload', 'EMPTY_BODY');
        let photo: ProcessedPhoto;
        try {
          photo = await processPhoto(bytes, decodes);
        } catch (error) {
          if (!(error instanceof ServerBusyError)) throw error;
          c.header('Retry-After', String(error.retryAfterSeconds));
          return errorResponse(c, 503, messages.serviceUnavailable, 'SERVER_BUSY');
        }
        await savePhoto(db, user.id, photo);
        return c.json(await readDetails(db, user.id, user.role), 200);
      },
    )
    .delete('/profile/photo', loadSession, tutorOnly, async (c) => {
      const user = c.var.user;
      await removePhoto(db, user.id);
      return c.json(await readDetails(db, user.id, user.role), 200);
    });
}
