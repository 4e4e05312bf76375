/**
 * What every change to an existing lesson shares: the lesson locked for it, one transaction with
 * its mails and lines, and the lesson's cancellation policy for moving. The database settles two
 * requests for one time: the exclusion constraints of the lessons table refuse the second
 * (23P01), which is answered 409, never 500.
 */
import type { Transaction } from 'kysely';
import { studentTerms } from '../../../shared/lessons/cancellation-policy';
import type { DB } from '../../db/schema';
import { ApiError } from '../../http/api-error';
import { hasLogin } from '../../platform/family-links';
import {
  type KnownPeople,
  type LessonDeps,
  type Lines,
  mailPersonOf,
  pushLines,
} from '../lesson-announcements';
import { findLesson } from '../lesson-queries';
import {
  isPlanned,
  type LessonRow,
  type LessonView,
  lessonMessages,
  lessonPolicyOf,
  lessonRowColumns,
  statusAt,
} from '../lesson-records';

/** 23P01 (exclusion_violation): the time was taken by a request that got there first. */
export const isOverlap = (error: unknown) => (error as { code?: string } | null)?.code === '23P01';

/**
 * The lesson locked for a change by one of its participants (or by an admin, `userId` null, for
 * whom every lesson exists), or 404; with the participant the caller acts as. A parent acts as
 * their child, the student, on the lessons of a child linked to them now (docs/api.md, "Families"):
 * having paid for a lesson of a child since unlinked lets them read it, not change it.
 */
async function lockLesson(
  trx: Transaction<DB>,
  userId: string | null,
  id: string,
): Promise<{ row: LessonRow; as: string | null }> {
  let query = trx.selectFrom('lessons').select(lessonRowColumns).where('id', '=', id);
  if (userId !== null)
    query = query.where((eb) =>
      eb.or([
        eb('tutor_id', '=', userId),
        eb('student_id', '=', userId),
        eb(
          'student_id',
          'in',
          eb.selectFrom('family_links as f').select('f.student_id').where('f.parent_id', '=', userId),
        ),
      ]),
    );
  const row = await query.forUpdate().executeTakeFirst();
  if (!row) throw new ApiError(404, lessonMessages.notFound, 'NOT_FOUND');
  const as = userId === null || userId === row.tutor_id ? userId : row.student_id;
  return { row, as };
}

/**
 * A change's work, given the locked lesson and `as`: the participant the caller acts as (their own
 * id, or the student's for a parent acting for their child; null for an admin).
 */
type Work<As = string> = (trx: Transaction<DB>, row: LessonRow, lines: Lines, as: As) => Promise<void>;

/** Runs a change in a transaction, then hands the mails to the worker and pushes the lines. */
async function run(
  deps: LessonDeps,
  userId: string | null,
  id: string,
  work: Work<string | null>,
): Promise<LessonRow> {
  const lines: Lines = [];
  let locked: LessonRow | undefined;
  try {
    await deps.db.transaction().execute(async (trx) => {
      const found = await lockLesson(trx, userId, id);
      locked = found.row;
      // A seat in a group class moves with its class: the student leaves it, the tutor or an
      // admin cancels the class (src/server/classes).
      if (locked.class_session_id !== null)
        throw new ApiError(
          409,
          /*i18n*/ 'This lesson is a seat in a group class: leave or cancel the class instead',
          'CLASS_SEAT',
        );
      await work(trx, locked, lines, found.as);
    });
  } catch (error) {
    if (isOverlap(error)) throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
    throw error;
  }
  deps.mailer.deliverSoon();
  await pushLines(deps, lines);
  if (!locked) throw new Error(`lesson ${id} was not locked`);
  return locked;
}

/**
 * A change by one of the lesson's people (or a parent for their child, `as` the student); the
 * lesson read back as the caller sees it.
 */
export async function change(
  deps: LessonDeps,
  userId: string,
  id: string,
  now: number,
  work: Work,
): Promise<LessonView> {
  await run(deps, userId, id, (trx, row, lines, as) => work(trx, row, lines, as ?? userId));
  return findLesson(deps.db, userId, id, now);
}

/** A change by an admin, to any lesson; the lesson read back as its student sees it. */
export async function adminChange(
  deps: LessonDeps,
  id: string,
  now: number,
  work: Work<null>,
): Promise<LessonView> {
  const row = await run(deps, null, id, (trx, locked, lines) => work(trx, locked, lines, null));
  return findLesson(deps.db, row.student_id, id, now);
}

/**
 * Planned and not yet started: what a proposal or an admin's change needs (the lesson's window
 * only limits the student's own moves).
 */
export function checkUpcoming(row: LessonRow, now: number) {
  const status = statusAt(row, now);
  if (!isPlanned(status) || row.starts_at.getTime() <= now)
    throw new ApiError(409, lessonMessages.notActive, 'NOT_PLANNED');
  return status;
}

/** Planned, and before its free changes end: what the student's own move needs. */
export function checkMovable(row: LessonRow, now: number) {
  const status = statusAt(row, now);
  if (!isPlanned(status)) throw new ApiError(409, lessonMessages.notActive, 'NOT_PLANNED');
  if (!studentTerms(lessonPolicyOf(row), now).canMove)
    throw new ApiError(409, lessonMessages.moveCutoff(row.cancel_window_hours), 'TOO_LATE');
  return status;
}

/**
 * A new lesson's first locks: the tutor's and the student's rows for key share, in id order,
 * before any package or balance. Lock order: users rows, then packages (by id), then ledger
 * accounts. The lesson's foreign keys take this key share anyway at its insert; but a deletion
 * holds its row for update and then locks the same student's money, so a booking holding that
 * money and waiting for the row closed a cycle (40P01). Taken first, the booking waits for the
 * deletion holding nothing. A parent who pays for the lesson (`payerId`) is locked with them: a
 * parent's deletion holds their row and then their money, as a student's does. 404 when the
 * tutor's account was deleted meanwhile. Answers the people as a new lesson's mails need them.
 */
export async function lockPeople(
  trx: Transaction<DB>,
  tutorId: string,
  studentId: string,
  payerId?: string,
): Promise<KnownPeople> {
  const rows = await trx
    .selectFrom('users')
    .select(['id', 'deleted_at', 'display_name', 'email', 'time_zone', 'language'])
    // What the lesson's mails need of its student's family, read with the lock.
    .select((eb) => [
      eb
        .selectFrom('family_links as f')
        .select('f.parent_id')
        .where('f.student_id', '=', studentId)
        .as('parent_id'),
      hasLogin('users.id').as('has_login'),
    ])
    .where(
      'id',
      'in',
      payerId && payerId !== studentId ? [tutorId, studentId, payerId] : [tutorId, studentId],
    )
    .orderBy('id')
    .forKeyShare()
    .execute();
  const tutor = rows.find((row) => row.id === tutorId);
  if (!tutor || tutor.deleted_at) throw new ApiError(404, lessonMessages.tutorNotFound, 'NOT_FOUND');
  const student = rows.find((row) => row.id === studentId);
  return {
    people: new Map(rows.map((row) => [row.id, mailPersonOf(row)])),
    parentId: student?.parent_id ?? null,
    studentHasLogin: Boolean(student?.has_login),
  };
}
