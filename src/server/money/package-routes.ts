/**
 * Lesson packages over HTTP (docs/api.md, "Lesson packages"):
 * - GET /api/packages: the caller's packages (a student's bought, a tutor's sold);
 * - POST /api/packages: a verified student buys one of a tutor's offers;
 * - POST /api/packages/:id/end: its student ends it, and its unused credits go back to the balance.
 * Another student's package does not exist for the caller: 404.
 */
import { Hono } from 'hono';
import { every } from 'hono/combine';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { buyPackageSchema } from '../../shared/lessons/packages';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { idempotent } from '../http/idempotency';
import { validate } from '../http/validation';
import { type SessionReader, verifiedOnly, verifiedWithRole } from '../platform/session-guards';
import type { Listing } from '../platform/tutor-listing';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import { bookerFor } from './family-payer';
import type { PaymentRules } from './lesson-payments';
import { packageMessages } from './package-messages';
import { buyPackage, endPackage, type FindBookableTutor, listPackages } from './packages';

const packageParam = z.object({ id: z.uuid() });
const studentsOnly = verifiedWithRole('student', packageMessages.studentsBuy);
/** A package is bought by a student, or by a parent for one of their children. */
const buyers = verifiedWithRole(['student', 'parent'], packageMessages.studentsBuy);

export function packageRoutes(deps: {
  db: Kysely<DB>;
  sessions: SessionReader;
  limiters: RateLimiters;
  payments: PaymentRules;
  listing: Listing;
  bookableTutor: FindBookableTutor;
}) {
  const { db } = deps;
  const { loadSession } = deps.sessions;
  const changes = limitByUser(deps.limiters, 'lessonChanges');
  /** A purchase moves money: a retry with its Idempotency-Key gets the first answer again. */
  const buying = every(changes, idempotent(db));
  return new Hono<AppEnv>()
    .get('/packages', loadSession, verifiedOnly, async (c) =>
      c.json({ packages: await listPackages(db, c.var.user) }, 200),
    )
    .post('/packages', loadSession, buyers, buying, validate('json', buyPackageSchema), async (c) => {
      const { studentId, ...input } = c.req.valid('json');
      const booker = await bookerFor(db, c.var.user, studentId);
      const bought = await buyPackage(db, deps, {
        ...input,
        studentId: booker.studentId,
        booker,
        now: Date.now(),
        requestKey: c.var.requestKey,
      });
      c.get('logger').info({ packageId: bought.id }, 'lesson package bought');
      return c.json({ package: bought }, 201);
    })
    .post(
      '/packages/:id/end',
      loadSession,
      studentsOnly,
      changes,
      validate('param', packageParam, packageMessages.notFound),
      async (c) => {
        const ended = await endPackage(db, c.var.user.id, c.req.valid('param').id, Date.now());
        return c.json({ package: ended }, 200);
      },
    );
}
