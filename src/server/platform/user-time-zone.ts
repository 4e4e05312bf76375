/**
 * Which zone a user's times are shown in (docs/decisions/0014-each-persons-zone.md): the one they
 * saved, else their browser's, sent with the request. Used by every page that lays times out by
 * day (the dashboard, the schedule, progress).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { timeZoneSchema } from '../../shared/tutor-schemas';
import type { DB } from '../db/schema';

/** The browser's zone, where the user saved none: a zone this server does not know is ignored. */
export const browserZoneQuery = z.object({ timeZone: timeZoneSchema.optional().catch(undefined) });

/**
 * The zone to show a user's times in: the one they saved, else their browser's, else UTC;
 * `saved` says whether they chose it.
 */
export async function zoneOf(db: Kysely<DB>, userId: string, browserZone: string | undefined) {
  const row = await db.selectFrom('users').select('time_zone').where('id', '=', userId).executeTakeFirst();
  return { timeZone: row?.time_zone ?? browserZone ?? 'UTC', saved: Boolean(row?.time_zone) };
}
