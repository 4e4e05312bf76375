/**
 * A tutor proposes a new time for a planned lesson; the student accepts it (the lesson moves
 * there) or declines it (it stays). One proposal is open at a time, kept on the lesson, and a new
 * one replaces it. The 24-hour rule is for the student's own changes: a proposal may be made, and
 * answered, at any time before the lesson starts, when an unanswered one lapses.
 */
import { ApiError } from '../../http/api-error';
import { announce, type LessonDeps } from '../lesson-announcements';
import { type LessonView, lessonMessages, lessonRowColumns, noProposal, proposalAt } from '../lesson-records';
import { checkFreeFor, moveLesson } from '../lifecycle/time-moves';
import { change, checkUpcoming } from './lesson-change';

/** The tutor proposes `start` (same length) for their lesson, with a note for the student. */
export function proposeTime(
  deps: LessonDeps,
  userId: string,
  id: string,
  proposal: { start: number; note?: string | undefined },
  now: number,
): Promise<LessonView> {
  return change(deps, userId, id, now, async (trx, row, lines) => {
    if (row.tutor_id !== userId) throw new ApiError(403, lessonMessages.tutorProposes, 'FORBIDDEN');
    checkUpcoming(row, now);
    if (row.starts_at.getTime() === proposal.start)
      throw new ApiError(400, lessonMessages.sameTime, 'VALIDATION_ERROR');
    // Checked now so the student is never offered a time that was not free; checked again on
    // acceptance, as the time may be taken meanwhile.
    await checkFreeFor(trx, row, proposal.start, now);
    const end = proposal.start + row.minutes * 60_000;
    const updated = await trx
      .updateTable('lessons')
      .set({
        proposed_start: new Date(proposal.start),
        proposed_end: new Date(end),
        proposal_note: proposal.note ?? '',
        proposed_at: new Date(now),
        updated_at: new Date(now),
      })
      .where('id', '=', row.id)
      .returning(lessonRowColumns)
      .executeTakeFirstOrThrow();
    await announce(deps, trx, lines, updated, 'proposed', 'student', {
      proposed: { start: new Date(proposal.start), end: new Date(end), note: proposal.note ?? '' },
    });
  });
}

/**
 * The student's answer to the open proposal (or their parent's, for a child of theirs): accepted,
 * the lesson moves; declined, it is dropped.
 */
export function answerProposal(
  deps: LessonDeps,
  userId: string,
  id: string,
  answer: 'accept' | 'decline',
  now: number,
): Promise<LessonView> {
  return change(deps, userId, id, now, async (trx, row, lines, as) => {
    if (row.student_id !== as) throw new ApiError(403, lessonMessages.studentAnswersProposal, 'FORBIDDEN');
    checkUpcoming(row, now);
    const open = proposalAt(row, now);
    if (!open || !row.proposed_start || !row.proposed_end)
      throw new ApiError(409, lessonMessages.noProposal, 'NO_PROPOSAL');
    if (answer === 'accept') {
      await moveLesson(deps, trx, lines, row, {
        start: row.proposed_start.getTime(),
        now,
        extra: { proposalAccepted: true },
      });
      return;
    }
    const updated = await trx
      .updateTable('lessons')
      .set({ ...noProposal, updated_at: new Date(now) })
      .where('id', '=', row.id)
      .returning(lessonRowColumns)
      .executeTakeFirstOrThrow();
    await announce(deps, trx, lines, updated, 'proposal-declined', 'tutor', {
      proposed: { start: row.proposed_start, end: row.proposed_end, note: open.note },
    });
  });
}
