/**
 * The moderation queue: reported messages and reviews, oldest first, each with the reporter's
 * reason and the text as it was when reported. An admin dismisses a report, hides what it is about
 * (the author is mailed; a hidden review stops counting in the tutor's rating), or suspends the
 * author. Each report is settled once: the conditional UPDATE that settles it decides between two
 * admins acting at once.
 */
import { type Kysely, type SelectQueryBuilder, sql, type Transaction } from 'kysely';
import { closeClassesOf } from '../classes/class-changes';
import type { DB, ReportResolution } from '../db/schema';
import { ApiError } from '../http/api-error';
import { rotateCalendarFeed } from '../lessons/calendar-feed';
import { type LessonDeps, type Lines, pushLines } from '../lessons/lesson-announcements';
import { cancelLessonsOfSuspended } from '../lessons/suspension';
import { type DefaultLanguage, mailLanguage } from '../mail/mail-language';
import { audienceOf, type MessageView, toMessage } from '../messages/conversations';
import type { LiveHub } from '../messages/live';
import { type Actor, recordAudit } from '../platform/audit-log';
import { refreshTutorListing } from '../platform/tutor-listing';
import { recount } from '../reviews/reviews';
import { contentHiddenMail, suspensionMail } from './admin-mail';

export const moderationMessages = {
  reportNotFound: /*i18n*/ 'There is no such report',
  settled: /*i18n*/ 'This report has already been settled.',
  userNotFound: /*i18n*/ 'There is no such person',
  alreadySuspended: /*i18n*/ 'This account is already suspended.',
  adminNotSuspended:
    /*i18n*/ 'An administrator cannot be suspended here: revoke their role from the command line first.',
} as const;

export type ReportKind = 'message' | 'review';

export interface ReportView {
  id: string;
  kind: ReportKind;
  reason: string;
  /** The reported text as it was when reported. */
  reportedText: string;
  reportedAt: string;
  reporter: { id: string; displayName: string };
  author: { id: string; displayName: string; email: string; suspended: boolean; admin: boolean };
  /** Whether the message or review is hidden already (by another report). */
  hidden: boolean;
  /** For a review: whose page it is on. */
  tutorName: string | null;
}

const QUEUE_LIMIT = 100;

/** What the queue shows of every report: who reported it, why and when, and who wrote what it is about. */
const reportColumns = [
  'r.id',
  'r.reason',
  'r.created_at',
  'reporter.id as reporter_id',
  'reporter.display_name as reporter_name',
  'author.id as author_id',
  'author.display_name as author_name',
  'author.email as author_email',
  'author.suspended_at',
  'author.is_admin',
] as const;

/** Open reports of both kinds, oldest first. */
export async function listReports(db: Kysely<DB>): Promise<ReportView[]> {
  const [messageReports, reviewReports] = await Promise.all([
    db
      .selectFrom('message_reports as r')
      .innerJoin('messages as m', 'm.id', 'r.message_id')
      .innerJoin('users as reporter', 'reporter.id', 'r.reporter_id')
      .innerJoin('users as author', 'author.id', 'm.sender_id')
      .select([...reportColumns, 'r.message_text as text', 'm.hidden_at'])
      .where('r.resolved_at', 'is', null)
      .orderBy('r.created_at')
      .orderBy('r.id')
      .limit(QUEUE_LIMIT)
      .execute(),
    db
      .selectFrom('review_reports as r')
      .innerJoin('reviews as v', 'v.id', 'r.review_id')
      .innerJoin('users as reporter', 'reporter.id', 'r.reporter_id')
      .innerJoin('users as author', 'author.id', 'v.student_id')
      .innerJoin('users as tutor', 'tutor.id', 'v.tutor_id')
      .select([...reportColumns, 'r.review_text as text', 'v.hidden_at', 'tutor.display_name as tutor_name'])
      .where('r.resolved_at', 'is', null)
      .orderBy('r.created_at')
      .orderBy('r.id')
      .limit(QUEUE_LIMIT)
      .execute(),
  ]);
  const rows = [
    ...messageReports.map((row) => ({ ...row, kind: 'message' as const, tutor_name: null })),
    ...reviewReports.map((row) => ({ ...row, kind: 'review' as const })),
  ];
  rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || Number(a.id) - Number(b.id));
  return rows.slice(0, QUEUE_LIMIT).map((row) => ({
    id: `${row.kind}-${Number(row.id)}`,
    kind: row.kind,
    reason: row.reason,
    reportedText: row.text,
    reportedAt: row.created_at.toISOString(),
    reporter: { id: row.reporter_id, displayName: row.reporter_name },
    author: {
      id: row.author_id,
      displayName: row.author_name,
      email: row.author_email,
      suspended: row.suspended_at !== null,
      admin: row.is_admin,
    },
    hidden: row.hidden_at !== null,
    tutorName: row.tutor_name,
  }));
}

/** Where each kind of report is kept, and the column naming what it is about. */
const reportTables = {
  message: { table: 'message_reports', subject: 'message_id' },
  review: { table: 'review_reports', subject: 'review_id' },
} as const;

type Settlement = { resolved_at: Date; resolution: ReportResolution; resolved_by: string };

/**
 * Settles the open reports of `kind` about `subjects`: one id, or a query of ids (what one author
 * wrote). Every other report about a hidden message or review, or by a suspended author, goes so.
 */
async function settleOpenReports(
  trx: Transaction<DB>,
  kind: ReportKind,
  subjects: number | string | SelectQueryBuilder<DB, keyof DB, { id: number | string }>,
  settlement: Settlement,
) {
  const { table, subject } = reportTables[kind];
  await trx
    .updateTable(table)
    .set(settlement)
    .where('resolved_at', 'is', null)
    .where(trx.dynamic.ref(subject), typeof subjects === 'object' ? 'in' : '=', subjects)
    .execute();
}

/** Settles one open report, or says why it cannot: 404 for none, 409 when already settled. */
async function settle(
  trx: Transaction<DB>,
  report: { kind: ReportKind; id: number },
  resolution: ReportResolution,
  actor: Actor,
): Promise<{ subjectId: string }> {
  const { table, subject } = reportTables[report.kind];
  const settled = await trx
    .updateTable(table)
    .set({ resolved_at: new Date(), resolution, resolved_by: actor.label })
    .where('id', '=', report.id)
    .where('resolved_at', 'is', null)
    .returning(sql<number | string>`${sql.ref(subject)}`.as('subject'))
    .executeTakeFirst();
  if (settled) return { subjectId: String(settled.subject) };
  const exists = await trx.selectFrom(table).select('id').where('id', '=', report.id).executeTakeFirst();
  if (!exists) throw new ApiError(404, moderationMessages.reportNotFound, 'NOT_FOUND');
  throw new ApiError(409, moderationMessages.settled, 'ALREADY_SETTLED');
}

const reportLabel = (report: { kind: ReportKind; id: number }) => `${report.kind} report ${report.id}`;

export async function dismissReport(
  db: Kysely<DB>,
  actor: Actor,
  report: { kind: ReportKind; id: number },
  note: string,
) {
  await db.transaction().execute(async (trx) => {
    await settle(trx, report, 'dismissed', actor);
    await recordAudit(trx, actor, 'report.dismissed', { id: null, label: reportLabel(report) }, note);
  });
}

/** Who wrote what a moderator hid: named in the audit log and mailed. */
const authorOf = (trx: Transaction<DB>, userId: string) =>
  trx
    .selectFrom('users')
    .select(['id', 'display_name', 'email', 'language'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();

export interface ModerationDeps {
  db: Kysely<DB>;
  mailer: LessonDeps['mailer'];
  supportEmail: string;
  /** The school's default language: the mail to someone who never chose one is in it. */
  defaultLanguage?: DefaultLanguage;
  /** ADMIN_TWO_FACTOR is required: only admins with two-factor hear of support conversations. */
  requireTwoFactor: boolean;
}

/**
 * Hides the reported message or review, settling this report and every other open one about the
 * same thing; the author is mailed. A review stops counting in its tutor's rating at once.
 */
export async function hideReported(
  deps: ModerationDeps,
  actor: Actor,
  report: { kind: ReportKind; id: number },
  note: string,
) {
  const { db, mailer } = deps;
  let hiddenMessage: { message: MessageView; recipients: string[]; requesterId: string | null } | null = null;
  await db.transaction().execute(async (trx) => {
    const { subjectId } = await settle(trx, report, 'hidden', actor);
    const now = new Date();
    const hiding: Settlement = { resolved_at: now, resolution: 'hidden', resolved_by: actor.label };
    let author: { id: string; display_name: string; email: string; language: string | null };
    let text: string;
    if (report.kind === 'message') {
      const messageId = Number(subjectId);
      const message = await trx
        .updateTable('messages')
        .set({ hidden_at: now })
        .where('id', '=', messageId)
        .where('hidden_at', 'is', null)
        .returning(['id', 'conversation_id', 'sender_id', 'body', 'event', 'created_at', 'hidden_at'])
        .executeTakeFirst();
      await settleOpenReports(trx, 'message', messageId, hiding);
      // Already hidden through another report: settled, nobody is told twice.
      if (!message?.sender_id) return;
      const conversation = await trx
        .selectFrom('conversations')
        .select(['id', 'student_id', 'tutor_id', 'requester_id', 'class_id'])
        .where('id', '=', message.conversation_id)
        .executeTakeFirstOrThrow();
      hiddenMessage = {
        message: toMessage(message),
        ...(await audienceOf(trx, conversation, deps.requireTwoFactor)),
      };
      text = message.body;
      author = await authorOf(trx, message.sender_id);
    } else {
      const review = await trx
        .selectFrom('reviews')
        .select(['tutor_id', 'student_id', 'body', 'hidden_at'])
        .where('id', '=', subjectId)
        .executeTakeFirstOrThrow();
      // The same lock order as a review's save: the tutor's profile row, then the review.
      await trx
        .selectFrom('tutor_profiles')
        .select('user_id')
        .where('user_id', '=', review.tutor_id)
        .forUpdate()
        .execute();
      const hidden = await trx
        .updateTable('reviews')
        .set({ hidden_at: now })
        .where('id', '=', subjectId)
        .where('hidden_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      await settleOpenReports(trx, 'review', subjectId, hiding);
      if (!hidden) return;
      await recount(trx, review.tutor_id);
      text = review.body;
      author = await authorOf(trx, review.student_id);
    }
    await recordAudit(
      trx,
      actor,
      report.kind === 'message' ? 'message.hidden' : 'review.hidden',
      { id: author.id, label: `${reportLabel(report)}: ${author.display_name} <${author.email}>` },
      note,
    );
    await mailer.sendMail(
      {
        to: author.email,
        ...contentHiddenMail({
          displayName: author.display_name,
          kind: report.kind,
          text,
          note,
          supportEmail: deps.supportEmail,
          language: mailLanguage(author.language, deps.defaultLanguage),
        }),
      },
      trx,
    );
  });
  mailer.deliverSoon();
  return {
    hiddenMessage: hiddenMessage as {
      message: MessageView;
      recipients: string[];
      requesterId: string | null;
    } | null,
  };
}

/**
 * Suspends an account: it can no longer sign in (told why, with the support address), its sessions
 * end now, it leaves the search, its upcoming lessons are cancelled with mails to the other party,
 * and every open report about what it wrote is settled. All in one transaction.
 */
export async function suspendUser(
  deps: ModerationDeps & { lessons: LessonDeps; live: Pick<LiveHub, 'sessionEnded'> },
  actor: Actor,
  userId: string,
  reason: string,
) {
  const { db, mailer } = deps;
  const lines: Lines = [];
  const now = Date.now();
  const { tokens, cancelled } = await db.transaction().execute(async (trx) => {
    const user = await trx
      .updateTable('users')
      .set({ suspended_at: new Date(now), suspension_reason: reason })
      .where('id', '=', userId)
      .where('suspended_at', 'is', null)
      .where('is_admin', '=', false)
      .returning(['display_name', 'email', 'language'])
      .executeTakeFirst();
    if (!user) {
      const found = await trx
        .selectFrom('users')
        .select(['is_admin', 'suspended_at'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!found) throw new ApiError(404, moderationMessages.userNotFound, 'NOT_FOUND');
      if (found.is_admin) throw new ApiError(409, moderationMessages.adminNotSuspended, 'IS_ADMIN');
      throw new ApiError(409, moderationMessages.alreadySuspended, 'ALREADY_SUSPENDED');
    }
    const ended = await trx.deleteFrom('sessions').where('user_id', '=', userId).returning('token').execute();
    // The calendar address needs no session: a copy of it would go on reading their lessons.
    await rotateCalendarFeed(trx, userId);
    await refreshTutorListing(trx, userId);
    await closeClassesOf(deps.lessons, trx, userId, now);
    const cancelled = await cancelLessonsOfSuspended(deps.lessons, trx, userId, now, lines);
    const settled: Settlement = {
      resolved_at: new Date(now),
      resolution: 'suspended',
      resolved_by: actor.label,
    };
    const written = {
      message: trx.selectFrom('messages').select('id').where('sender_id', '=', userId),
      review: trx.selectFrom('reviews').select('id').where('student_id', '=', userId),
    };
    await settleOpenReports(trx, 'message', written.message, settled);
    await settleOpenReports(trx, 'review', written.review, settled);
    await recordAudit(
      trx,
      actor,
      'user.suspended',
      { id: userId, label: `${user.display_name} <${user.email}>` },
      reason,
    );
    await mailer.sendMail(
      {
        to: user.email,
        ...suspensionMail({
          displayName: user.display_name,
          reason,
          supportEmail: deps.supportEmail,
          language: mailLanguage(user.language, deps.defaultLanguage),
        }),
      },
      trx,
    );
    return { tokens: ended.map((row) => row.token), cancelled };
  });
  mailer.deliverSoon();
  // The user's open tabs lose their live channel, as after a sign-out.
  for (const token of tokens) await deps.live.sessionEnded(token);
  await pushLines(deps.lessons, lines);
  return { cancelledLessons: cancelled };
}
