/**
 * Reading lessons: a user's lessons in a range, those between two people, and one lesson. A parent
 * (docs/api.md, "Families") reads the lessons they paid for and every lesson of a child linked to
 * them, as the child would.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type Db, type LessonView, lessonMessages, toView } from './lesson-records';

const lessonColumns = [
  'l.id',
  'l.tutor_id',
  'l.student_id',
  'l.subject',
  'l.note',
  'l.starts_at',
  'l.ends_at',
  'l.minutes',
  'l.price_cents',
  'l.currency',
  'l.status',
  'l.expires_at',
  'l.sequence',
  'l.cancelled_by',
  'l.cancel_reason',
  'l.updated_at',
  'l.payment_status',
  'l.trial',
  'l.proposed_start',
  'l.proposed_end',
  'l.proposal_note',
  'l.proposed_at',
  'l.series_id',
  'l.created_at',
  'l.cancel_window_hours',
  'l.late_fee_percent',
  'l.cancel_fee_cents',
  'l.cancelled_late',
  'l.package_id',
  'l.class_session_id',
  'l.payer_id',
] as const;

function lessonsWithNames(db: Db) {
  return db
    .selectFrom('lessons as l')
    .innerJoin('users as t', 't.id', 'l.tutor_id')
    .innerJoin('users as s', 's.id', 'l.student_id')
    .leftJoin('class_sessions as cs', 'cs.id', 'l.class_session_id')
    .leftJoin('classes as cl', 'cl.id', 'cs.class_id')
    .select([
      ...lessonColumns,
      't.display_name as tutor_name',
      's.display_name as student_name',
      'cl.id as class_id',
      'cl.title as class_title',
    ]);
}

/**
 * The lessons `userId` may read: their own as tutor or student and, for a parent, those they paid
 * for and those of a child linked to them now. A student and a tutor never match the last two (a
 * parent is neither), so one condition serves every role.
 */
export function readableBy(userId: string) {
  return (eb: ExpressionBuilder<DB & { l: DB['lessons'] }, 'l'>) =>
    eb.or([
      eb('l.tutor_id', '=', userId),
      eb('l.student_id', '=', userId),
      eb('l.payer_id', '=', userId),
      eb(
        'l.student_id',
        'in',
        eb.selectFrom('family_links as f').select('f.student_id').where('f.parent_id', '=', userId),
      ),
    ]);
}

/** The tutor's notes on a lesson that took place, as lists of lessons carry them. */
export interface NotesSummary {
  covered: string;
  homework: string;
  updatedAt: string;
}

/** A lesson in a list: with its notes, which only its two participants (and a child's parent) ever list. */
export type ListedLesson = LessonView & { notes: NotesSummary | null };

function listedLessons(db: Db) {
  return lessonsWithNames(db)
    .leftJoin('lesson_notes as n', 'n.lesson_id', 'l.id')
    .select(['n.covered', 'n.homework', 'n.updated_at as notes_updated_at']);
}

type ListedRow = Awaited<ReturnType<ReturnType<typeof listedLessons>['execute']>>[number];

const toListed = (row: ListedRow, now: number): ListedLesson => ({
  ...toView(row, now),
  notes:
    row.notes_updated_at === null
      ? null
      : {
          covered: row.covered ?? '',
          homework: row.homework ?? '',
          updatedAt: row.notes_updated_at.toISOString(),
        },
});

/** The user's lessons (as tutor or student, or a parent's children's) that overlap [from, to), by start. */
export async function listLessons(
  db: Kysely<DB>,
  userId: string,
  from: number,
  to: number,
  now: number,
): Promise<ListedLesson[]> {
  const rows = await listedLessons(db)
    .where(readableBy(userId))
    .where('l.starts_at', '<', new Date(to))
    .where('l.ends_at', '>', new Date(from))
    .orderBy('l.starts_at')
    .orderBy('l.id')
    .execute();
  return rows.map((row) => toListed(row, now));
}

/** The lessons between the user and one other person, either way round, newest first. */
export async function lessonsBetween(
  db: Kysely<DB>,
  userId: string,
  otherId: string,
  now: number,
  limit: number,
): Promise<ListedLesson[]> {
  const rows = await listedLessons(db)
    .where((eb) =>
      eb.or([
        eb.and([eb('l.tutor_id', '=', userId), eb('l.student_id', '=', otherId)]),
        eb.and([eb('l.student_id', '=', userId), eb('l.tutor_id', '=', otherId)]),
      ]),
    )
    .orderBy('l.starts_at', 'desc')
    .orderBy('l.id')
    .limit(limit)
    .execute();
  return rows.map((row) => toListed(row, now));
}

/**
 * One lesson the user may read (readableBy), or 404: another user's lesson does not exist for
 * them, nor does a lesson of another parent's child.
 */
export async function findLesson(db: Db, userId: string, id: string, now: number): Promise<LessonView> {
  const row = await lessonsWithNames(db).where('l.id', '=', id).where(readableBy(userId)).executeTakeFirst();
  if (!row) throw new ApiError(404, lessonMessages.notFound, 'NOT_FOUND');
  return toView(row, now);
}
