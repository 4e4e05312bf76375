/**
 * Lesson notes: after a lesson that took place its tutor writes what was covered and the homework;
 * both participants read them. Another user's lesson does not exist for the caller (404).
 */
import type { Kysely } from 'kysely';
import { mayHaveNotes } from '../../shared/progress/progress-rules';
import type { SessionUser } from '../../shared/session-user';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { findLesson } from '../lessons/lesson-queries';

export const notesMessages = {
  tutorWrites: /*i18n*/ 'Only the tutor writes the notes of a lesson',
  notYet: /*i18n*/ 'Notes can be written once the lesson has taken place.',
} as const;

export interface LessonNotes {
  lessonId: string;
  covered: string;
  homework: string;
  /** When the tutor last saved them; null while there are none. */
  updatedAt: string | null;
  /** Whether the caller may write them (the tutor, once the lesson has taken place). */
  canEdit: boolean;
}

export async function readNotes(
  db: Kysely<DB>,
  user: Pick<SessionUser, 'id'>,
  lessonId: string,
  now: number,
): Promise<LessonNotes> {
  const lesson = await findLesson(db, user.id, lessonId, now);
  const notes = await db
    .selectFrom('lesson_notes')
    .select(['covered', 'homework', 'updated_at'])
    .where('lesson_id', '=', lessonId)
    .executeTakeFirst();
  return {
    lessonId,
    covered: notes?.covered ?? '',
    homework: notes?.homework ?? '',
    updatedAt: notes?.updated_at.toISOString() ?? null,
    canEdit: lesson.tutor.id === user.id && mayHaveNotes(lesson.status),
  };
}

export async function saveNotes(
  db: Kysely<DB>,
  user: Pick<SessionUser, 'id'>,
  lessonId: string,
  input: { covered: string; homework: string },
  now: number,
): Promise<LessonNotes> {
  const lesson = await findLesson(db, user.id, lessonId, now);
  if (lesson.tutor.id !== user.id) throw new ApiError(403, notesMessages.tutorWrites, 'FORBIDDEN');
  if (!mayHaveNotes(lesson.status)) throw new ApiError(409, notesMessages.notYet, 'LESSON_NOT_TAKEN_PLACE');
  const saved = await db
    .insertInto('lesson_notes')
    .values({ lesson_id: lessonId, covered: input.covered, homework: input.homework })
    .onConflict((oc) =>
      oc.column('lesson_id').doUpdateSet((eb) => ({
        covered: eb.ref('excluded.covered'),
        homework: eb.ref('excluded.homework'),
        updated_at: new Date(now),
      })),
    )
    .returning(['covered', 'homework', 'updated_at'])
    .executeTakeFirstOrThrow();
  return {
    lessonId,
    covered: saved.covered,
    homework: saved.homework,
    updatedAt: saved.updated_at.toISOString(),
    canEdit: true,
  };
}
