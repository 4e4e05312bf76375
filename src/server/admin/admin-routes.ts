/**
 * The operators' console over HTTP (docs/api.md, "Operators"), everything under /api/admin/ and for
 * admins only: the role is read from the database with the session on every request (401 signed
 * out, 403 anyone else). The audit log is only listed: no route changes it.
 */
import { type Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  approveSchema,
  auditPageSchema,
  declineSchema,
  moderationSchema,
  reportIdSchema,
  suspendSchema,
} from '../../shared/admin/admin-schemas';
import { instantSchema } from '../../shared/lessons/lesson-schemas';
import { siteSettingsChangeSchema } from '../../shared/settings/site-settings-schemas';
import { tutorIdSchema } from '../../shared/tutor-schemas';
import type { Backups } from '../backup/backups';
import type { PaymentsConfig } from '../config/config';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import type { LessonDeps } from '../lessons/lesson-announcements';
import { lessonMessages } from '../lessons/lesson-records';
import type { DefaultLanguage } from '../mail/mail-language';
import type { Mailer } from '../mail/mailer';
import type { LiveHub } from '../messages/live';
import { lessonLine } from '../messages/messages';
import { adminActor, listAudit, recordAudit } from '../platform/audit-log';
import { adminOnly, type SessionReader, type SignedInEnv } from '../platform/session-guards';
import { readSchoolFigures } from '../settings/school-figures';
import type { SettingsSnapshot } from '../settings/settings-snapshot';
import { changeSiteSettings, readAdminSettings } from '../settings/site-settings';
import { adminCancelLesson, adminMoveLesson, listAdminLessons } from './admin-lessons';
import { adminUnlink, familyLinkMessages, listFamilyLinks } from './family-links';
import { financeRoutes } from './finance-routes';
import { dismissReport, hideReported, listReports, moderationMessages, suspendUser } from './moderation';
import { adminOverview } from './overview';
import { decideVerification, verificationMessages, verificationQueue } from './verifications';

export const backupMessages = {
  onPostgres:
    /*i18n*/ 'This server keeps its data in PostgreSQL, which the server does not back up itself. Run npm run backup -- FILE (it uses pg_dump) where DATABASE_URL is set, or use your database provider’s backups.',
} as const;

const tutorParam = z.object({ tutorId: tutorIdSchema });
const reportParam = z.object({ id: reportIdSchema });
const userParam = z.object({ id: z.string().regex(/^[\w-]{1,64}$/) });
const lessonParam = z.object({ id: z.uuid() });
const lessonReason = z
  .string({ error: /*i18n*/ 'Please give a reason' })
  .trim()
  .min(1, /*i18n*/ 'Please give a reason')
  .max(1000, /*i18n*/ 'The reason must be at most 1000 characters');
const adminCancelSchema = z.strictObject({ reason: lessonReason });
const adminMoveSchema = z.strictObject({ start: instantSchema('start'), reason: lessonReason });
const adminLessonsQuery = z.object({
  search: z.string().max(200, /*i18n*/ 'The search must be at most 200 characters').optional(),
});
const familyLinkParam = z.object({ parentId: userParam.shape.id, studentId: userParam.shape.id });
const unlinkSchema = z.strictObject({ reason: lessonReason });

export function adminRoutes(deps: {
  db: Kysely<DB>;
  sessions: SessionReader;
  mailer: Mailer;
  live: LiveHub;
  appUrl: string;
  mailFrom: string;
  /** The school's default language: mails to someone who never chose one are in it. */
  defaultLanguage: DefaultLanguage;
  /** The site settings in effect: the support address the mails name, and what GET /settings shows. */
  settings: SettingsSnapshot;
  requireTutorApproval: boolean;
  payments: PaymentsConfig;
  /** The embedded store's backups: the download, and when the last scheduled one was taken. */
  backups: Backups;
  /** ADMIN_TWO_FACTOR: whether the console refuses an admin without two-factor sign-in. */
  adminTwoFactor: 'required' | 'optional';
}) {
  const { db, mailer, live, settings } = deps;
  // The console counts afresh: an admin deciding whether to set the home page's figures sees the
  // counts as they are, not as the pages' cache last read them.
  const countsNow = () => readSchoolFigures(db, { approvedOnly: deps.requireTutorApproval });
  const lessons: LessonDeps = {
    db,
    mailer,
    conversations: { lessonLine },
    live,
    mail: { appUrl: deps.appUrl, mailFrom: deps.mailFrom, defaultLanguage: deps.defaultLanguage },
    payments: deps.payments,
  };
  const admin = new Hono<AppEnv>().use(
    '*',
    deps.sessions.loadSession,
    adminOnly(deps.adminTwoFactor === 'required'),
  );
  type Request = Context<AppEnv & SignedInEnv>;
  const actor = (c: Request) => adminActor(c.var.user);
  /** Approves or declines a tutor; answers the decision, as both routes reply with it. */
  const decide = async <Decision extends 'approved' | 'declined'>(
    c: Request,
    tutorId: string,
    decision: Decision,
    note: string,
  ): Promise<Decision> => {
    await decideVerification(
      { db, mailer, appUrl: deps.appUrl, defaultLanguage: deps.defaultLanguage },
      actor(c),
      tutorId,
      decision,
      note,
    );
    return decision;
  };
  /** What hiding a message or suspending someone mails with: the support address in effect now. */
  const moderation = async () => ({
    db,
    mailer,
    supportEmail: (await settings.get()).support.email,
    defaultLanguage: deps.defaultLanguage,
    requireTwoFactor: deps.adminTwoFactor === 'required',
  });

  return (
    admin
      .get('/overview', async (c) =>
        c.json(
          {
            ...(await adminOverview(db, Date.now())),
            settings: { requireTutorApproval: deps.requireTutorApproval },
            backups: deps.backups.status(),
          },
          200,
        ),
      )
      // The whole school in one file (the database, the session secret, saved files): admins only,
      // never cached on the way, and each download in the audit log, as who took everyone's data.
      .get('/backup', async (c) => {
        const taken = await deps.backups.take();
        if (!taken) throw new ApiError(409, backupMessages.onPostgres, 'BACKUP_ON_POSTGRES');
        await recordAudit(db, actor(c), 'backup.downloaded', { id: null, label: taken.fileName });
        return c.body(new Uint8Array(taken.archive), 200, {
          'Content-Type': 'application/gzip',
          'Content-Disposition': `attachment; filename="${taken.fileName}"`,
          'Cache-Control': 'no-store',
        });
      })
      .get('/verifications', async (c) => c.json(await verificationQueue(db), 200))
      .post(
        '/verifications/:tutorId/approve',
        validate('param', tutorParam, verificationMessages.notFound),
        validate('json', approveSchema),
        async (c) =>
          c.json(
            {
              status: await decide(
                c,
                c.req.valid('param').tutorId,
                'approved',
                c.req.valid('json').note ?? '',
              ),
            },
            200,
          ),
      )
      .post(
        '/verifications/:tutorId/decline',
        validate('param', tutorParam, verificationMessages.notFound),
        validate('json', declineSchema),
        async (c) =>
          c.json(
            { status: await decide(c, c.req.valid('param').tutorId, 'declined', c.req.valid('json').note) },
            200,
          ),
      )
      .get('/reports', async (c) => c.json({ reports: await listReports(db) }, 200))
      .post(
        '/reports/:id/dismiss',
        validate('param', reportParam, moderationMessages.reportNotFound),
        validate('json', moderationSchema),
        async (c) => {
          await dismissReport(db, actor(c), c.req.valid('param').id, c.req.valid('json').note ?? '');
          return c.json({ resolution: 'dismissed' as const }, 200);
        },
      )
      .post(
        '/reports/:id/hide',
        validate('param', reportParam, moderationMessages.reportNotFound),
        validate('json', moderationSchema),
        async (c) => {
          const { hiddenMessage } = await hideReported(
            await moderation(),
            actor(c),
            c.req.valid('param').id,
            c.req.valid('json').note ?? '',
          );
          // Open conversations replace the message at once; the others read it hidden when they load.
          if (hiddenMessage)
            await live.messageHidden(
              hiddenMessage.message,
              hiddenMessage.recipients,
              hiddenMessage.requesterId,
            );
          return c.json({ resolution: 'hidden' as const }, 200);
        },
      )
      .post(
        '/users/:id/suspend',
        validate('param', userParam, moderationMessages.userNotFound),
        validate('json', suspendSchema),
        async (c) => {
          const suspended = await suspendUser(
            { ...(await moderation()), lessons, live },
            actor(c),
            c.req.valid('param').id,
            c.req.valid('json').reason,
          );
          return c.json({ suspended: true, ...suspended }, 200);
        },
      )
      .get('/lessons', validate('query', adminLessonsQuery), async (c) =>
        c.json({ lessons: await listAdminLessons(db, c.req.valid('query').search, Date.now()) }, 200),
      )
      .post(
        '/lessons/:id/cancel',
        validate('param', lessonParam, lessonMessages.notFound),
        validate('json', adminCancelSchema),
        async (c) => {
          const { id } = c.req.valid('param');
          const lesson = await adminCancelLesson(
            lessons,
            actor(c),
            id,
            c.req.valid('json').reason,
            Date.now(),
          );
          return c.json({ lesson }, 200);
        },
      )
      .post(
        '/lessons/:id/move',
        validate('param', lessonParam, lessonMessages.notFound),
        validate('json', adminMoveSchema),
        async (c) => {
          const { id } = c.req.valid('param');
          const lesson = await adminMoveLesson(lessons, actor(c), id, c.req.valid('json'), Date.now());
          return c.json({ lesson }, 200);
        },
      )
      .get('/family-links', validate('query', adminLessonsQuery), async (c) =>
        c.json(
          {
            links: await listFamilyLinks(db, c.req.valid('query').search, deps.payments.currency, Date.now()),
          },
          200,
        ),
      )
      .delete(
        '/family-links/:parentId/:studentId',
        validate('param', familyLinkParam, familyLinkMessages.notFound),
        validate('json', unlinkSchema),
        async (c) => {
          const unlinked = await adminUnlink(
            lessons,
            actor(c),
            c.req.valid('param'),
            c.req.valid('json').reason,
            Date.now(),
          );
          return c.json({ unlinked }, 200);
        },
      )
      .get('/audit', validate('query', auditPageSchema), async (c) =>
        c.json(await listAudit(db, c.req.valid('query').before), 200),
      )
      .route(
        '/',
        financeRoutes({
          db,
          mailer,
          appUrl: deps.appUrl,
          payments: deps.payments,
          supportEmail: async () => (await settings.get()).support.email,
          paymentInstructions: async () => (await settings.get()).paymentInstructions,
          lessons,
        }),
      )
      .get('/settings', async (c) => c.json(await readAdminSettings(db, settings.defaults, countsNow), 200))
      .patch('/settings', validate('json', siteSettingsChangeSchema), async (c) => {
        const changed = await changeSiteSettings(db, actor(c), c.req.valid('json'), settings.defaults);
        // Every page this server serves from now on carries the change; other servers read it soon.
        if (changed.length > 0) await settings.reload();
        return c.json({ ...(await readAdminSettings(db, settings.defaults, countsNow)), changed }, 200);
      })
  );
}
