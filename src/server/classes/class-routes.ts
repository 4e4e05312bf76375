/**
 * Group classes over HTTP (docs/api.md, "Group classes"):
 * - POST /api/classes (a verified, published tutor), GET /api/classes (public, filtered, paged),
 *   GET /api/classes/:id;
 * - POST /api/classes/:id/enrol (a verified student; Idempotency-Key makes a retry safe),
 *   /leave, and /cancel (its tutor or an admin, with a reason);
 * - GET /api/admin/classes and DELETE /api/admin/classes/:id/students/:studentId (an admin removes
 *   a student, with a reason); both audited;
 * - a session's room (./class-room-routes.ts).
 */
import { type Context, Hono } from 'hono';
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { classQuerySchema, classSchema, reasonSchema } from '../../shared/classes/class-schemas';
import * as messages from '../../shared/messages';
import type { Config } from '../config/config';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { IDEMPOTENCY_KEY_HEADER, idempotent, REPLAYED_HEADER } from '../http/idempotency';
import { validate } from '../http/validation';
import type { LessonDeps } from '../lessons/lesson-announcements';
import { bookerFor, familyPayerMessages, ownChild } from '../money/family-payer';
import { adminActor, recordAudit } from '../platform/audit-log';
import {
  adminOnly,
  type SessionReader,
  type SignedInEnv,
  verifiedOnly,
  verifiedWithRole,
} from '../platform/session-guards';
import type { Listing } from '../platform/tutor-listing';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import { cancelClass, createClass } from './class-changes';
import { classMessages, classViews, listClasses } from './class-records';
import { classRoomRoutes } from './class-room-routes';
import { type ClassDeps, enrol, takeOut } from './enrolment';

const classParam = z.object({ id: z.uuid() });
/** A parent's child the request is for (docs/api.md, "Families"); a student acts for themselves. */
const forStudent = z.object({
  studentId: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .optional(),
});
const studentParam = z.object({ id: z.uuid(), studentId: z.string().regex(/^[\w-]{1,64}$/) });

export function classRoutes(
  deps: ClassDeps & {
    db: Kysely<DB>;
    sessions: SessionReader;
    limiters: RateLimiters;
    listing: Listing;
    conversations: LessonDeps['conversations'];
    live: Parameters<typeof classRoomRoutes>[0]['live'];
    config: Pick<Config, 'adminTwoFactor' | 'iceServers'>;
  },
) {
  const { db, sessions } = deps;
  const { loadSession } = sessions;
  const tutorsOnly = verifiedWithRole('tutor', classMessages.tutorsOnly);
  // A student enrols themselves; a parent enrols one of their children (`studentId` in the body).
  const studentsOnly = verifiedWithRole(['student', 'parent'], classMessages.studentsOnly);
  /** Whose place it is: the student's own, or the parent's child named in the body. */
  const bookerOfRequest = async (c: Context<AppEnv & SignedInEnv>) => {
    const body = forStudent.safeParse(await c.req.json().catch(() => ({})));
    return bookerFor(db, c.var.user, body.success ? body.data.studentId : undefined);
  };
  const changes = limitByUser(deps.limiters, 'lessonChanges');
  const asAdmin = adminOnly(deps.config.adminTwoFactor === 'required');
  const viewOf = async (id: string, viewerId: string | null) => {
    const [view] = await classViews(db, [id], viewerId, Date.now());
    if (!view) throw new ApiError(404, classMessages.notFound, 'NOT_FOUND');
    return view;
  };
  /** The class's label in the audit log: its title and id, and its tutor as they were. */
  const classLabel = async (trx: Transaction<DB>, id: string) => {
    const row = await trx
      .selectFrom('classes as c')
      .innerJoin('users as u', 'u.id', 'c.tutor_id')
      .select(['c.title', 'u.display_name'])
      .where('c.id', '=', id)
      .executeTakeFirst();
    return { id, label: row ? `class ${row.title} ${id} (tutor ${row.display_name})` : `class ${id}` };
  };

  return new Hono<AppEnv>()
    .route('/', classRoomRoutes({ ...deps, iceServers: deps.config.iceServers }))
    .post('/classes', loadSession, tutorsOnly, changes, validate('json', classSchema), async (c) => {
      const id = await createClass(deps, c.var.user.id, c.req.valid('json'), Date.now());
      c.get('logger').info({ classId: id }, 'class created');
      return c.json({ class: await viewOf(id, c.var.user.id) }, 201);
    })
    .get('/classes', validate('query', classQuerySchema), async (c) => {
      const viewer = await sessions.signedInUser(c);
      return c.json(await listClasses(db, c.req.valid('query'), viewer?.id ?? null, Date.now()), 200);
    })
    .get(
      '/classes/:id',
      validate('param', classParam, classMessages.notFound),
      validate('query', forStudent, familyPayerMessages.childNotFound),
      async (c) => {
        const viewer = await sessions.signedInUser(c);
        // `you` is the viewer's own place, or, for a parent naming one, their child's.
        const { studentId } = c.req.valid('query');
        let whose = viewer?.id ?? null;
        if (studentId !== undefined && studentId !== whose) {
          if (viewer?.role !== 'parent')
            throw new ApiError(404, familyPayerMessages.childNotFound, 'NOT_FOUND');
          await ownChild(db, viewer.id, studentId);
          whose = studentId;
        }
        return c.json(await viewOf(c.req.valid('param').id, whose), 200);
      },
    )
    .post(
      '/classes/:id/enrol',
      loadSession,
      studentsOnly,
      changes,
      idempotent(db),
      validate('param', classParam, classMessages.notFound),
      async (c) => {
        const { standing, created } = await enrol(
          deps,
          c.req.valid('param').id,
          await bookerOfRequest(c),
          c.req.header(IDEMPOTENCY_KEY_HEADER),
          Date.now(),
        );
        if (!created) c.header(REPLAYED_HEADER, 'true');
        return c.json(standing, created ? 201 : 200);
      },
    )
    .post(
      '/classes/:id/leave',
      loadSession,
      verifiedOnly,
      changes,
      validate('param', classParam, classMessages.notFound),
      async (c) => {
        const { id } = c.req.valid('param');
        const user = c.var.user;
        const { studentId } = await bookerOfRequest(c);
        await takeOut(deps, id, studentId, { actorId: user.id, admin: false, reason: null, now: Date.now() });
        return c.json(await viewOf(id, studentId), 200);
      },
    )
    .post(
      '/classes/:id/cancel',
      loadSession,
      verifiedOnly,
      changes,
      validate('param', classParam, classMessages.notFound),
      validate('json', reasonSchema(true)),
      async (c) => {
        const { id } = c.req.valid('param');
        const user = c.var.user;
        const reason = c.req.valid('json').reason ?? '';
        const found = await db
          .selectFrom('classes')
          .select('tutor_id')
          .where('id', '=', id)
          .executeTakeFirst();
        if (!found) throw new ApiError(404, classMessages.notFound, 'NOT_FOUND');
        const byTutor = found.tutor_id === user.id;
        // Anyone else is an admin, as the admin routes check one, or finds no such class.
        if (!byTutor) {
          if (!user.isAdmin) throw new ApiError(404, classMessages.notFound, 'NOT_FOUND');
          if (
            deps.config.adminTwoFactor === 'required' &&
            !(user.twoFactorEnabled && c.var.secondFactorProved)
          )
            throw new ApiError(403, messages.adminTwoFactorRequired, 'TWO_FACTOR_REQUIRED');
        }
        await cancelClass(deps, id, {
          actorId: user.id,
          byTutor,
          reason,
          now: Date.now(),
          audit: async (trx) =>
            recordAudit(trx, adminActor(user), 'class.cancelled', await classLabel(trx, id), reason),
        });
        return c.json(await viewOf(id, user.id), 200);
      },
    )
    .get('/admin/classes', loadSession, asAdmin, async (c) => {
      const rows = await db
        .selectFrom('classes')
        .select('id')
        .orderBy('created_at', 'desc')
        .limit(200)
        .execute();
      const views = await classViews(
        db,
        rows.map((row) => row.id),
        null,
        Date.now(),
      );
      const enrolled = await db
        .selectFrom('class_enrolments as e')
        .innerJoin('users as u', 'u.id', 'e.student_id')
        .select(['e.class_id', 'e.student_id', 'e.status', 'e.position', 'u.display_name', 'u.email'])
        .where('e.class_id', 'in', rows.length ? rows.map((row) => row.id) : [''])
        .where('e.status', 'in', ['enrolled', 'waitlisted'])
        .orderBy('e.position')
        .orderBy('u.display_name')
        .execute();
      return c.json(
        {
          classes: views.map((view) => ({
            ...view,
            students: enrolled
              .filter((row) => row.class_id === view.id)
              .map((row) => ({
                id: row.student_id,
                displayName: row.display_name,
                email: row.email,
                status: row.status as 'enrolled' | 'waitlisted',
                position: row.position,
              })),
          })),
        },
        200,
      );
    })
    .delete(
      '/admin/classes/:id/students/:studentId',
      loadSession,
      asAdmin,
      validate('param', studentParam, classMessages.notAStudent),
      validate('json', reasonSchema(true)),
      async (c) => {
        const { id, studentId } = c.req.valid('param');
        const reason = c.req.valid('json').reason ?? '';
        await takeOut(deps, id, studentId, {
          actorId: c.var.user.id,
          admin: true,
          reason,
          now: Date.now(),
          audit: async (trx) =>
            recordAudit(
              trx,
              adminActor(c.var.user),
              'class.student_removed',
              await classLabel(trx, id),
              `${studentId}: ${reason}`,
            ),
        });
        return c.json(await viewOf(id, null), 200);
      },
    );
}
