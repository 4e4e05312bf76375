/**
 * What progress is made of: the tutor's lesson notes, a student's goals and milestones, and the
 * achievements earned from lessons and goals. Plain functions and schemas shared by the server,
 * which enforces them, and the pages, which show them.
 */
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { EARLIEST_YEAR, LATEST_YEAR } from '../constants';
import type { LessonStatus } from '../lessons/lesson-schemas';
import { freeText, oneLineText } from '../schemas';
import { chosenSubjectSchema } from '../tutor-schemas';

export const MAX_NOTES_LENGTH = 4000;
export const MAX_GOAL_TITLE_LENGTH = 120;
export const MAX_MILESTONE_TITLE_LENGTH = 120;
/** Enough for every subject a student learns and then some; a list a page can still show. */
export const MAX_GOALS = 20;
export const MAX_MILESTONES = 20;

/** Notes are written about a lesson that took place: not one ahead, cancelled or missed. */
export const mayHaveNotes = (status: LessonStatus) => status === 'completed';

export const notesSchema = z
  .strictObject({
    covered: freeText(MAX_NOTES_LENGTH, {
      notText: /*i18n*/ 'What was covered must be text',
      tooLong: /*i18n*/ 'What was covered must be at most 4000 characters',
      badCharacters: /*i18n*/ 'What was covered must not contain control characters',
    }),
    homework: freeText(MAX_NOTES_LENGTH, {
      notText: /*i18n*/ 'The homework must be text',
      tooLong: /*i18n*/ 'The homework must be at most 4000 characters',
      badCharacters: /*i18n*/ 'The homework must not contain control characters',
    }),
  })
  .refine((notes) => notes.covered !== '' || notes.homework !== '', {
    message: /*i18n*/ 'Please write what was covered or the homework',
  });

const milestoneTitle = oneLineText(MAX_MILESTONE_TITLE_LENGTH, {
  notText: /*i18n*/ 'A milestone must be text',
  tooLong: /*i18n*/ 'A milestone must be at most 120 characters',
  badCharacters: /*i18n*/ 'A milestone must be on one line',
  required: /*i18n*/ 'Please name the milestone',
});

/** A calendar day, "YYYY-MM-DD", that exists. */
const targetDate = z
  .string({ error: /*i18n*/ 'The target date must be a date' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, /*i18n*/ 'The target date must be a date (YYYY-MM-DD)')
  .refine((value) => {
    try {
      const date = Temporal.PlainDate.from(value, { overflow: 'reject' });
      return date.year >= EARLIEST_YEAR && date.year <= LATEST_YEAR;
    } catch {
      return false;
    }
  }, /*i18n*/ 'The target date must be a real date between 2000 and 2100');

const goalFields = {
  // Whether the catalogue has it is the server's check (src/server/settings/subject-catalog.ts).
  subject: chosenSubjectSchema('Please choose a subject'),
  title: oneLineText(MAX_GOAL_TITLE_LENGTH, {
    notText: /*i18n*/ 'A goal must be text',
    tooLong: /*i18n*/ 'A goal must be at most 120 characters',
    badCharacters: /*i18n*/ 'A goal must be on one line',
    required: /*i18n*/ 'Please name your goal',
  }),
  targetDate: targetDate.nullable(),
};

export const goalSchema = z.strictObject({
  ...goalFields,
  /** A parent's child the goal is for (docs/api.md, "Families"); a student sets their own. */
  studentId: z
    .string()
    .regex(/^[\w-]{1,64}$/, /*i18n*/ 'Child not found')
    .optional(),
  targetDate: goalFields.targetDate.optional(),
  milestones: z
    .array(milestoneTitle, { error: /*i18n*/ 'Milestones must be a list of titles' })
    .max(MAX_MILESTONES, /*i18n*/ 'A goal can have at most 20 milestones')
    .optional(),
});

export const goalChangeSchema = z
  .strictObject({
    subject: goalFields.subject.optional(),
    title: goalFields.title.optional(),
    targetDate: goalFields.targetDate.optional(),
  })
  .refine((change) => Object.keys(change).length > 0, { message: /*i18n*/ 'Nothing to change' });

export const milestoneSchema = z.strictObject({ title: milestoneTitle });

export const milestoneChangeSchema = z.strictObject({
  done: z.boolean({ error: /*i18n*/ 'done must be true or false' }),
});

/** A goal's progress: the share of its milestones done, from 0 to 1 (0 without milestones). */
export function goalShare(milestones: readonly { done: boolean }[]): number {
  if (milestones.length === 0) return 0;
  return milestones.filter((milestone) => milestone.done).length / milestones.length;
}

export type AchievementId =
  | 'first-lesson'
  | 'five-lessons'
  | 'ten-lessons'
  | 'goal-completed'
  | 'four-week-streak';

export const ACHIEVEMENTS: readonly { id: AchievementId; title: string; description: string }[] = [
  { id: 'first-lesson', title: /*i18n*/ 'First lesson', description: /*i18n*/ 'Completed your first lesson' },
  { id: 'five-lessons', title: /*i18n*/ 'Five lessons', description: /*i18n*/ 'Completed 5 lessons' },
  { id: 'ten-lessons', title: /*i18n*/ 'Ten lessons', description: /*i18n*/ 'Completed 10 lessons' },
  {
    id: 'goal-completed',
    title: /*i18n*/ 'Goal reached',
    description: /*i18n*/ 'Ticked off every milestone of a goal',
  },
  {
    id: 'four-week-streak',
    title: 'Four-week streak',
    description: 'A lesson in each of 4 weeks in a row',
  },
];

/** How many weeks in a row make a streak, and how many lessons each count. */
export const STREAK_WEEKS = 4;

export interface Achievement {
  id: AchievementId;
  title: string;
  description: string;
  /** When it was earned (an instant, ISO 8601), or null while it is still ahead. */
  earnedAt: string | null;
}

/**
 * The achievements earned from the student's lessons that took place (their end instants) and
 * the days their goals were first completed. A week runs Monday to Sunday in the student's zone;
 * a streak is earned by the first lesson of its fourth week in a row.
 */
export function achievementsFrom(input: {
  lessonEnds: readonly number[];
  goalsCompleted: readonly number[];
  timeZone: string;
}): Achievement[] {
  const ends = [...input.lessonEnds].sort((a, b) => a - b);
  const nth = (n: number) => ends[n - 1];
  const earned: Record<AchievementId, number | undefined> = {
    'first-lesson': nth(1),
    'five-lessons': nth(5),
    'ten-lessons': nth(10),
    'goal-completed': input.goalsCompleted.length > 0 ? Math.min(...input.goalsCompleted) : undefined,
    'four-week-streak': streakEarnedAt(ends, input.timeZone),
  };
  return ACHIEVEMENTS.map((achievement) => {
    const at = earned[achievement.id];
    return { ...achievement, earnedAt: at === undefined ? null : new Date(at).toISOString() };
  });
}

/** The instant the first streak of STREAK_WEEKS weeks was completed, over sorted instants. */
function streakEarnedAt(sortedEnds: readonly number[], timeZone: string): number | undefined {
  let run = 0;
  // The Monday after the last lesson's week, and where that week ends as an instant: a lesson
  // before it is in the same week, so only a lesson in a new week is placed in the calendar (a
  // dashboard reads hundreds of lessons).
  let nextMonday: Temporal.PlainDate | undefined;
  let weekEndsAt = Number.NEGATIVE_INFINITY;
  for (const end of sortedEnds) {
    if (end < weekEndsAt) continue;
    const day = Temporal.Instant.fromEpochMilliseconds(end).toZonedDateTimeISO(timeZone).toPlainDate();
    const monday = day.subtract({ days: day.dayOfWeek - 1 });
    run = nextMonday?.equals(monday) ? run + 1 : 1;
    nextMonday = monday.add({ weeks: 1 });
    weekEndsAt = nextMonday.toZonedDateTime({ timeZone }).epochMilliseconds;
    if (run === STREAK_WEEKS) return end;
  }
  return undefined;
}
