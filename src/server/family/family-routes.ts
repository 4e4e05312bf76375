/**
 * Families over HTTP (docs/api.md, "Families"):
 * - POST /api/family/children (a verified parent), GET /api/family (anyone signed in and verified:
 *   a parent's children, a student's parent), PATCH and DELETE /api/family/children/:id;
 * - POST /api/family/children/:id/invite (a child of 13 or older to a login of their own) and
 *   POST /api/family/parent-invitations (a student invites a parent);
 * - GET /api/family/invitations/:token and POST /api/family/invitations/:token/accept, from the
 *   mailed link: a child with the password they chose, a parent signed in.
 * Another parent's child does not exist for the caller: 404.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import {
  acceptSchema,
  childSchema,
  invitationSchema,
  monthlyLimitSchema,
} from '../../shared/family/family-schemas';
import type { AppEnv } from '../http/app-env';
import { validate, validateBy } from '../http/validation';
import { familyPayerMessages } from '../money/family-payer';
import { familyMessages, familyOf } from '../platform/family-links';
import { type SessionReader, verifiedOnly, verifiedWithRole } from '../platform/session-guards';
import { limitByClient, limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import {
  acceptInvitation,
  addChild,
  type FamilyDeps,
  inviteChild,
  inviteParent,
  readInvitation,
  removeChild,
  setMonthlyLimit,
} from './family';

const childParam = z.object({ id: z.string().regex(/^[\w-]{1,64}$/) });
const tokenParam = z.object({ token: z.string().regex(/^[\w-]{16,128}$/) });

export function familyRoutes(deps: FamilyDeps & { sessions: SessionReader; limiters: RateLimiters }) {
  const { db, sessions } = deps;
  const { loadSession } = sessions;
  const parentsOnly = verifiedWithRole('parent', familyMessages.parentsOnly);
  const studentsOnly = verifiedWithRole('student', familyMessages.studentsOnly);
  const changes = limitByUser(deps.limiters, 'profileUpdate');
  // Each invitation mails someone: as few as the account mails a person may ask for.
  const invitations = limitByUser(deps.limiters, 'accountMail');
  const accepting = limitByClient(deps.limiters, 'signUp');
  const childNotFound = familyPayerMessages.childNotFound;

  return new Hono<AppEnv>()
    .get('/family', loadSession, verifiedOnly, async (c) =>
      c.json(await familyOf(db, c.var.user.id, Date.now()), 200),
    )
    .post(
      '/family/children',
      loadSession,
      parentsOnly,
      changes,
      // The year of birth is checked against today's year.
      validateBy('json', () => childSchema(new Date())),
      async (c) => {
        const child = await addChild(db, c.var.user.id, c.req.valid('json'), Date.now());
        c.get('logger').info({ childId: child.id }, 'child added');
        return c.json({ child }, 201);
      },
    )
    .patch(
      '/family/children/:id',
      loadSession,
      parentsOnly,
      changes,
      validate('param', childParam, childNotFound),
      validate('json', monthlyLimitSchema),
      async (c) => {
        const { monthlyLimitCents } = c.req.valid('json');
        const child = await setMonthlyLimit(
          db,
          c.var.user.id,
          c.req.valid('param').id,
          monthlyLimitCents,
          Date.now(),
        );
        return c.json({ child }, 200);
      },
    )
    .delete(
      '/family/children/:id',
      loadSession,
      parentsOnly,
      changes,
      validate('param', childParam, childNotFound),
      async (c) => {
        const removed = await removeChild(deps, c.var.user.id, c.req.valid('param').id, Date.now());
        c.get('logger').info({ childId: c.req.valid('param').id, ...removed }, 'child removed from family');
        return c.json(removed, 200);
      },
    )
    .post(
      '/family/children/:id/invite',
      loadSession,
      parentsOnly,
      invitations,
      validate('param', childParam, childNotFound),
      validate('json', invitationSchema),
      async (c) => {
        const child = await inviteChild(
          deps,
          c.var.user.id,
          c.req.valid('param').id,
          c.req.valid('json').email,
          Date.now(),
        );
        return c.json({ child }, 200);
      },
    )
    .post(
      '/family/parent-invitations',
      loadSession,
      studentsOnly,
      invitations,
      validate('json', invitationSchema),
      async (c) => {
        await inviteParent(deps, c.var.user.id, c.req.valid('json').email, Date.now());
        return c.json({ invited: true }, 200);
      },
    )
    .get(
      '/family/invitations/:token',
      validate('param', tokenParam, familyMessages.invitationUnknown),
      async (c) => c.json(await readInvitation(db, c.req.valid('param').token, Date.now()), 200),
    )
    .post(
      '/family/invitations/:token/accept',
      accepting,
      loadSession,
      validate('param', tokenParam, familyMessages.invitationUnknown),
      validate('json', acceptSchema),
      async (c) => {
        const accepted = await acceptInvitation(
          deps,
          c.req.valid('param').token,
          c.get('user'),
          c.req.valid('json').password,
          Date.now(),
        );
        return c.json(accepted, 200);
      },
    );
}
