/**
 * The admin console's money (docs/api.md, "Admin: finance"), behind the admin routes' guard:
 * the totals and what waits, top-ups confirmed or rejected, payouts, refunds of a balance, of a
 * package's unused credits or of a lesson, and CSV downloads. Every change is audited in its own
 * transaction.
 */

import { type Context, Hono } from 'hono';
import { stream } from 'hono/streaming';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { PaymentsConfig } from '../config/config';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { idempotent } from '../http/idempotency';
import { validate } from '../http/validation';
import type { LessonDeps, Lines } from '../lessons/lesson-announcements';
import { pushLines } from '../lessons/lesson-announcements';
import { findLesson } from '../lessons/lesson-queries';
import { refundMove } from '../lessons/lifecycle/refund-move';
import type { Mailer } from '../mail/mailer';
import { refundLesson, refundPackage } from '../money/finance';
import { entriesCsv, payablesCsv } from '../money/finance-csv';
import { financeOverview } from '../money/finance-overview';
import { recordBalanceRefund, recordPayout } from '../money/payouts';
import { confirmTopUp, isTopUpId, rejectTopUp, topUpMessages, toTopUpView } from '../money/top-ups';
import { adminActor } from '../platform/audit-log';
import type { SignedInEnv } from '../platform/session-guards';

const topUpParam = z.object({ id: z.string().refine(isTopUpId) });
const lessonParam = z.object({ id: z.uuid() });
const userIdSchema = z.string().regex(/^[\w-]{1,64}$/, /*i18n*/ 'Please choose a person from the list');
const amountSchema = z
  .number({
    error: /*i18n*/ 'Please give the amount in the currency’s minor unit (cents for USD), as a whole number',
  })
  .int(/*i18n*/ 'Please give the amount in the currency’s minor unit (cents for USD), as a whole number')
  .positive(/*i18n*/ 'The amount must be more than zero')
  .max(100_000_000_00, /*i18n*/ 'The amount is too large');
const referenceSchema = z
  .string({ error: /*i18n*/ 'Please give a reference' })
  .trim()
  .min(1, /*i18n*/ 'Please give a reference, such as the bank transfer number')
  .max(200, /*i18n*/ 'The reference must be at most 200 characters');
const reasonSchema = (says: { missing: string; tooLong: string }) =>
  z.string({ error: says.missing }).trim().min(1, says.missing).max(1000, says.tooLong);

const rejectSchema = z.strictObject({
  note: reasonSchema({
    missing: /*i18n*/ 'Please give a note for the student',
    tooLong: /*i18n*/ 'The note for the student must be at most 1000 characters',
  }),
});
/** `confirmDuplicate`: the admin means it, though the same amount went to the same person just now. */
const confirmDuplicateSchema = z.boolean({ error: /*i18n*/ 'confirmDuplicate is true or false' }).optional();
const payoutSchema = z.strictObject({
  tutorId: userIdSchema,
  amountCents: amountSchema,
  reference: referenceSchema,
  confirmDuplicate: confirmDuplicateSchema,
});
const refundSchema = z.strictObject({
  studentId: userIdSchema,
  amountCents: amountSchema,
  reference: referenceSchema,
  confirmDuplicate: confirmDuplicateSchema,
});
const packageParam = z.object({ id: z.uuid() });
const packageRefundSchema = z.strictObject({ amountCents: amountSchema, reference: referenceSchema });
const lessonRefundSchema = z.strictObject({
  reason: reasonSchema({
    missing: /*i18n*/ 'Please give a reason',
    tooLong: /*i18n*/ 'The reason must be at most 1000 characters',
  }),
});
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, /*i18n*/ 'Dates are written YYYY-MM-DD')
  .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), /*i18n*/ 'Dates are written YYYY-MM-DD');
const rangeSchema = z.object({ from: isoDay.optional(), to: isoDay.optional() });

const DAY = 24 * 60 * 60 * 1000;

export function financeRoutes(deps: {
  db: Kysely<DB>;
  mailer: Mailer;
  appUrl: string;
  payments: PaymentsConfig;
  supportEmail: () => Promise<string>;
  /** The payment instructions in effect (a site setting). */
  paymentInstructions: () => Promise<string>;
  lessons: LessonDeps;
}) {
  const { db, payments } = deps;
  const { currency } = payments;
  // Mails go in each recipient's language, else the school's default (as the lessons' mails do).
  const { defaultLanguage } = deps.lessons.mail;
  const money = { db, mailer: deps.mailer, appUrl: deps.appUrl, currency, defaultLanguage };
  const actor = (c: Context<AppEnv & SignedInEnv>) => adminActor(c.var.user);
  const decisions = {
    db,
    mailer: deps.mailer,
    appUrl: deps.appUrl,
    supportEmail: deps.supportEmail,
    defaultLanguage,
  };
  // Every change here moves money: each is safe to retry with an Idempotency-Key.
  const once = idempotent(db);
  return new Hono<AppEnv & SignedInEnv>()
    .get('/finance', async (c) =>
      c.json({ ...(await financeOverview(db, currency)), payments: payments.on ? 'on' : 'off' }, 200),
    )
    .post('/top-ups/:id/confirm', once, validate('param', topUpParam, topUpMessages.notFound), async (c) => {
      const row = await confirmTopUp(decisions, actor(c), c.req.valid('param').id, Date.now());
      return c.json({ topUp: toTopUpView(row, await deps.paymentInstructions()) }, 200);
    })
    .post(
      '/top-ups/:id/reject',
      validate('param', topUpParam, topUpMessages.notFound),
      validate('json', rejectSchema),
      async (c) => {
        const row = await rejectTopUp(
          decisions,
          actor(c),
          c.req.valid('param').id,
          c.req.valid('json').note,
          Date.now(),
        );
        return c.json({ topUp: toTopUpView(row, await deps.paymentInstructions()) }, 200);
      },
    )
    .post('/payouts', once, validate('json', payoutSchema), async (c) => {
      const transactionId = await recordPayout(money, actor(c), {
        ...c.req.valid('json'),
        now: Date.now(),
        requestKey: c.var.requestKey,
      });
      return c.json({ transactionId }, 201);
    })
    .post('/refunds', once, validate('json', refundSchema), async (c) => {
      const transactionId = await recordBalanceRefund(money, actor(c), {
        ...c.req.valid('json'),
        now: Date.now(),
        requestKey: c.var.requestKey,
      });
      return c.json({ transactionId }, 201);
    })
    .post(
      '/packages/:id/refund',
      once,
      validate('param', packageParam, 'This package does not exist'),
      validate('json', packageRefundSchema),
      async (c) => {
        const refunded = await refundPackage(money, actor(c), {
          ...c.req.valid('json'),
          packageId: c.req.valid('param').id,
          now: Date.now(),
        });
        return c.json(refunded, 201);
      },
    )
    .post(
      '/lessons/:id/refund',
      once,
      validate('param', lessonParam, 'This lesson does not exist'),
      validate('json', lessonRefundSchema),
      async (c) => {
        const now = Date.now();
        const lines: Lines = [];
        const { reason } = c.req.valid('json');
        const by = actor(c);
        const id = await refundLesson(
          db,
          by,
          { lessonId: c.req.valid('param').id, reason, now },
          (trx, lessonId) =>
            refundMove(deps.lessons, trx, lines, lessonId, { actorId: by.id ?? '', reason, now }),
        );
        deps.mailer.deliverSoon();
        await pushLines(deps.lessons, lines);
        const lesson = await db
          .selectFrom('lessons')
          .select('student_id')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        return c.json({ lesson: await findLesson(db, lesson.student_id, id, now) }, 200);
      },
    )
    .get('/finance/payables.csv', async (c) => {
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', 'attachment; filename="payables.csv"');
      return c.body(await payablesCsv(db, currency));
    })
    .get('/finance/entries.csv', validate('query', rangeSchema), async (c) => {
      const query = c.req.valid('query');
      const from = query.from ? new Date(`${query.from}T00:00:00Z`) : undefined;
      // `to` is a whole day, included.
      const to = query.to ? new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY) : undefined;
      if (from && to && from >= to)
        throw new ApiError(400, /*i18n*/ 'The first date must come before the last', 'VALIDATION_ERROR');
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header(
        'Content-Disposition',
        `attachment; filename="entries-${query.from ?? 'start'}-${query.to ?? 'now'}.csv"`,
      );
      return stream(c, async (out) => {
        for await (const chunk of entriesCsv(db, { from, to }, currency)) await out.write(chunk);
      });
    });
}
