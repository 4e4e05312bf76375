/**
 * Moving a planned lesson to another time its tutor offers: the student's own reschedule, an
 * admin's move, and the student's acceptance of the tutor's proposal. The lesson keeps its status
 * and its hold; only its time, its calendar sequence and its deadline change.
 */
import type { Transaction } from 'kysely';
import { requestExpiresAt } from '../../../shared/lessons/availability';
import type { DB } from '../../db/schema';
import { ApiError } from '../../http/api-error';
import { readAvailability } from '../availability-store';
import { announce, type LessonDeps, type Lines } from '../lesson-announcements';
import type { MailExtra } from '../lesson-mail';
import { type LessonRow, lessonMessages, lessonRowColumns, noProposal } from '../lesson-records';
import { slotsOf } from '../slots';
import { checkMove } from './lesson-moves';

/**
 * Whether `start` is a time the lesson could move to: one its tutor offers for its length, with
 * neither the tutor's nor the student's other lessons in the way (its own current time does not
 * count as taken). The exclusion constraints settle two moves racing for one time.
 */
export async function checkFreeFor(trx: Transaction<DB>, row: LessonRow, start: number, now: number) {
  const availability = await readAvailability(trx, row.tutor_id);
  const offered = await slotsOf(trx, availability, {
    tutorId: row.tutor_id,
    studentId: row.student_id,
    from: start,
    to: start + 1,
    minutes: row.minutes,
    now,
    except: row.id,
  });
  if (!offered.some((slot) => slot.start === start))
    throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
  return availability;
}

/**
 * Moves a locked, planned lesson to `start` (checked free first): same id and calendar UID, the
 * sequence one higher, any open proposal dropped, both people mailed (a confirmed lesson's
 * invitation updated). `proposalAccepted` in `extra` makes it the proposal's move.
 */
export async function moveLesson(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  row: LessonRow,
  move: { start: number; now: number; extra?: MailExtra },
) {
  const { start, now } = move;
  checkMove(move.extra?.proposalAccepted ? 'acceptProposal' : 'move', row.status);
  const status = row.status;
  const availability = await checkFreeFor(trx, row, start, now);
  const end = start + row.minutes * 60_000;
  const created = await trx
    .selectFrom('lessons')
    .select('created_at')
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
  const updated = await trx
    .updateTable('lessons')
    .set((eb) => ({
      starts_at: new Date(start),
      ends_at: new Date(end),
      blocked_until: new Date(end + availability.bufferMinutes * 60_000),
      sequence: eb('sequence', '+', 1),
      expires_at:
        status === 'pending' ? new Date(requestExpiresAt(created.created_at.getTime(), start)) : null,
      // A proposal was for the old time: once the lesson has moved, it is answered or beside the point.
      ...noProposal,
      updated_at: new Date(now),
    }))
    .where('id', '=', row.id)
    .returning(lessonRowColumns)
    .executeTakeFirstOrThrow();
  const extra = { ...move.extra, previousStart: row.starts_at };
  if (status === 'confirmed')
    await announce(deps, trx, lines, updated, 'rescheduled', 'both', { ...extra, invitation: 'REQUEST' });
  else await announce(deps, trx, lines, updated, 'request-moved', 'both', extra);
}
