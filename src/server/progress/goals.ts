/**
 * Learning goals: a student's goals per subject, each with milestones that the student or any of
 * their tutors (a confirmed or completed lesson together) may add and tick. A parent acts as the
 * student for a child linked to them (docs/api.md, "Families"): sets, changes and ticks. A goal is complete
 * while all its milestones are done; the first time it is, the day is kept for the achievement.
 * Anyone else meets 404: another student's goals do not exist for them.
 *
 * Every change to a goal's milestones takes the goal's row lock first, so two ticks at once
 * settle the goal's completion in turn, and the counts behind the limits cannot be outrun.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { JOINABLE_STATUSES } from '../../shared/lessons/lesson-states';
import { MAX_GOALS, MAX_MILESTONES } from '../../shared/progress/progress-rules';
import type { SessionUser } from '../../shared/session-user';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { familyPayerMessages, ownChild } from '../money/family-payer';
import { requireCatalogSubject } from '../settings/subject-catalog';

export const goalMessages = {
  notFound: /*i18n*/ 'This goal does not exist',
  milestoneNotFound: /*i18n*/ 'This milestone does not exist',
  studentNotFound: /*i18n*/ 'This student does not exist, or has no lessons with you',
  studentsOnly: /*i18n*/ 'Only students set learning goals',
  studentChanges: /*i18n*/ 'Only the student changes a goal; their tutors add and tick its milestones',
  tooManyGoals: /*i18n*/ 'You can have at most 20 goals. Remove or finish one first.',
  tooManyMilestones: /*i18n*/ 'A goal can have at most 20 milestones',
  unknownSubject: /*i18n*/ 'Please choose a subject',
} as const;

export interface MilestoneView {
  id: string;
  title: string;
  done: boolean;
  doneAt: string | null;
  /** Who ticked it: the student, or a tutor, by display name. */
  doneBy: string | null;
}

export interface GoalView {
  id: string;
  subject: string;
  title: string;
  targetDate: string | null;
  createdAt: string;
  completedAt: string | null;
  milestones: MilestoneView[];
  /** Milestones done, of how many: the progress bar is their share. */
  done: number;
  total: number;
}

type Db = Kysely<DB> | Transaction<DB>;
type Caller = Pick<SessionUser, 'id' | 'role'>;

/**
 * Whether the tutor teaches the student: a lesson together that has a room (confirmed or
 * completed), past or ahead.
 */
export async function teaches(db: Db, tutorId: string, studentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('lessons')
    .select('id')
    .where('tutor_id', '=', tutorId)
    .where('student_id', '=', studentId)
    .where('status', 'in', JOINABLE_STATUSES)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A student's goals, oldest first, each with its milestones in the order they were added. */
export async function goalsOf(db: Db, studentId: string, onlyGoalId?: string): Promise<GoalView[]> {
  return (await goalsOfStudents(db, [studentId], onlyGoalId)).get(studentId) ?? [];
}

/**
 * Goals with their milestones as a JSON array each, in the order they were added: one statement
 * for any number of goals. Narrowed by the caller (whose, which one), and ordered oldest first.
 */
export function goalRows(db: Db) {
  return db
    .selectFrom('goals as g')
    .select([
      'g.id',
      'g.student_id',
      'g.subject',
      'g.title',
      sql<string | null>`g.target_date::text`.as('target_date'),
      'g.created_at',
      'g.completed_at',
    ])
    .select((eb) =>
      jsonArrayFrom(
        eb
          .selectFrom('goal_milestones as m')
          .leftJoin('users as u', 'u.id', 'm.done_by')
          .select(['m.id', 'm.title', 'm.done_at', 'u.display_name as done_by_name'])
          .whereRef('m.goal_id', '=', 'g.id')
          .orderBy('m.created_at')
          .orderBy('m.id'),
      ).as('milestones'),
    )
    .orderBy('g.created_at')
    .orderBy('g.id');
}

/** A row of `goalRows` as the API shows it; its times are strings when it was read as JSON itself. */
export function toGoalView(goal: {
  id: string;
  subject: string;
  title: string;
  target_date: string | null;
  created_at: Date | string;
  completed_at: Date | string | null;
  milestones: { id: string; title: string; done_at: string | null; done_by_name: string | null }[];
}): GoalView {
  const milestones = goal.milestones.map((milestone) => ({
    id: milestone.id,
    title: milestone.title,
    done: milestone.done_at !== null,
    doneAt: milestone.done_at === null ? null : new Date(milestone.done_at).toISOString(),
    doneBy: milestone.done_at === null ? null : milestone.done_by_name,
  }));
  return {
    id: goal.id,
    subject: goal.subject,
    title: goal.title,
    targetDate: goal.target_date,
    createdAt: new Date(goal.created_at).toISOString(),
    completedAt: goal.completed_at === null ? null : new Date(goal.completed_at).toISOString(),
    milestones,
    done: milestones.filter((milestone) => milestone.done).length,
    total: milestones.length,
  };
}

/**
 * The goals of several students at once, by student, in one statement (the milestones come with
 * their goals).
 */
export async function goalsOfStudents(
  db: Db,
  studentIds: readonly string[],
  onlyGoalId?: string,
): Promise<Map<string, GoalView[]>> {
  const byStudent = new Map<string, GoalView[]>();
  if (studentIds.length === 0) return byStudent;
  const goals = await goalRows(db)
    .where('g.student_id', 'in', studentIds)
    .$if(Boolean(onlyGoalId), (qb) => qb.where('g.id', '=', onlyGoalId ?? ''))
    .execute();
  for (const goal of goals) {
    const list = byStudent.get(goal.student_id) ?? [];
    list.push(toGoalView(goal));
    byStudent.set(goal.student_id, list);
  }
  return byStudent;
}

async function oneGoal(db: Db, studentId: string, goalId: string): Promise<GoalView> {
  const [goal] = await goalsOf(db, studentId, goalId);
  if (!goal) throw new ApiError(404, goalMessages.notFound, 'NOT_FOUND');
  return goal;
}

/**
 * The student a student or a parent acts for (goals, a history, a review): a student's own (naming anyone else is 404), a
 * parent's child named by `studentId` (400 without one, 404 for anyone else's child).
 */
export async function studentActedFor(db: Db, user: Caller, studentId: string | undefined): Promise<string> {
  if (user.role === 'parent') {
    if (studentId === undefined)
      throw new ApiError(400, familyPayerMessages.chooseChild, 'VALIDATION_ERROR', { field: 'studentId' });
    return (await ownChild(db, user.id, studentId)).id;
  }
  if (studentId !== undefined && studentId !== user.id)
    throw new ApiError(404, goalMessages.studentNotFound, 'NOT_FOUND');
  return user.id;
}

/**
 * The goals a caller may read: a student's own, a parent's child's, or (for a tutor) a student's
 * they teach.
 */
export async function listGoals(db: Kysely<DB>, user: Caller, studentId: string | undefined) {
  if (user.role === 'parent') return goalsOf(db, await studentActedFor(db, user, studentId));
  if (user.role === 'student') {
    if (studentId !== undefined && studentId !== user.id)
      throw new ApiError(404, goalMessages.studentNotFound, 'NOT_FOUND');
    return goalsOf(db, user.id);
  }
  if (studentId === undefined || !(await teaches(db, user.id, studentId)))
    throw new ApiError(404, goalMessages.studentNotFound, 'NOT_FOUND');
  return goalsOf(db, studentId);
}

/**
 * The goal, locked for the rest of the transaction, and the caller's part in it: its student (or
 * a parent of theirs, who acts as the student), or a tutor who teaches them. Anyone else: 404.
 */
async function lockGoal(trx: Transaction<DB>, user: Caller, goalId: string) {
  const goal = await trx
    .selectFrom('goals')
    .select(['id', 'student_id'])
    .where('id', '=', goalId)
    .forUpdate()
    .executeTakeFirst();
  if (goal?.student_id === user.id) return { goal, as: 'student' as const };
  if (goal && user.role === 'parent') {
    const link = await trx
      .selectFrom('family_links')
      .select('student_id')
      .where('parent_id', '=', user.id)
      .where('student_id', '=', goal.student_id)
      .executeTakeFirst();
    if (link) return { goal, as: 'student' as const };
  }
  if (goal && user.role === 'tutor' && (await teaches(trx, user.id, goal.student_id)))
    return { goal, as: 'tutor' as const };
  throw new ApiError(404, goalMessages.notFound, 'NOT_FOUND');
}

/**
 * Brings a goal's completion up to date with its milestones: complete while every one (of at
 * least one) is done, and the first such moment kept.
 */
async function settleCompletion(trx: Transaction<DB>, goalId: string, now: number) {
  const at = new Date(now);
  const complete = sql<boolean>`(
    exists (select 1 from goal_milestones where goal_id = ${goalId})
    and not exists (select 1 from goal_milestones where goal_id = ${goalId} and done_at is null))`;
  await trx
    .updateTable('goals')
    .set({
      completed_at: sql`case when ${complete} then coalesce(completed_at, ${at}) else null end`,
      first_completed_at: sql`case when ${complete} then coalesce(first_completed_at, ${at}) else first_completed_at end`,
      updated_at: at,
    })
    .where('id', '=', goalId)
    .execute();
}

export async function createGoal(
  db: Kysely<DB>,
  user: Caller,
  input: {
    subject: string;
    title: string;
    targetDate?: string | null | undefined;
    milestones?: string[] | undefined;
    studentId?: string | undefined;
  },
  now: number,
): Promise<GoalView> {
  if (user.role !== 'student' && user.role !== 'parent')
    throw new ApiError(403, goalMessages.studentsOnly, 'FORBIDDEN');
  // A parent's goal is their child's: it counts against the child's limit, and the child sees it.
  const studentId = await studentActedFor(db, user, input.studentId);
  await requireCatalogSubject(db, input.subject, goalMessages.unknownSubject);
  return db.transaction().execute(async (trx) => {
    // The student's row is the lock that keeps two goals created at once within the limit. FOR NO
    // KEY UPDATE, not FOR UPDATE: a booking's key share on the same row need not wait for it.
    await trx.selectFrom('users').select('id').where('id', '=', studentId).forNoKeyUpdate().execute();
    const { count } = await trx
      .selectFrom('goals')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('student_id', '=', studentId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_GOALS) throw new ApiError(409, goalMessages.tooManyGoals, 'TOO_MANY_GOALS');
    const id = randomUUID();
    const at = new Date(now);
    await trx
      .insertInto('goals')
      .values({
        id,
        student_id: studentId,
        subject: input.subject,
        title: input.title,
        target_date: input.targetDate ?? null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const titles = input.milestones ?? [];
    if (titles.length > 0)
      await trx
        .insertInto('goal_milestones')
        .values(
          titles.map((title, index) => ({
            id: randomUUID(),
            goal_id: id,
            title,
            created_by: user.id,
            // One instant apart, so they keep the order they were written in.
            created_at: new Date(now + index),
          })),
        )
        .execute();
    return oneGoal(trx, studentId, id);
  });
}

export async function changeGoal(
  db: Kysely<DB>,
  user: Caller,
  goalId: string,
  change: {
    subject?: string | undefined;
    title?: string | undefined;
    targetDate?: string | null | undefined;
  },
  now: number,
): Promise<GoalView> {
  return db.transaction().execute(async (trx) => {
    const { goal, as } = await lockGoal(trx, user, goalId);
    if (as !== 'student') throw new ApiError(403, goalMessages.studentChanges, 'FORBIDDEN');
    if (change.subject !== undefined)
      await requireCatalogSubject(trx, change.subject, goalMessages.unknownSubject);
    await trx
      .updateTable('goals')
      .set({
        ...(change.subject === undefined ? {} : { subject: change.subject }),
        ...(change.title === undefined ? {} : { title: change.title }),
        ...(change.targetDate === undefined ? {} : { target_date: change.targetDate }),
        updated_at: new Date(now),
      })
      .where('id', '=', goal.id)
      .execute();
    return oneGoal(trx, goal.student_id, goal.id);
  });
}

export async function addMilestone(
  db: Kysely<DB>,
  user: Caller,
  goalId: string,
  title: string,
  now: number,
): Promise<GoalView> {
  return db.transaction().execute(async (trx) => {
    const { goal } = await lockGoal(trx, user, goalId);
    const { count } = await trx
      .selectFrom('goal_milestones')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('goal_id', '=', goal.id)
      .executeTakeFirstOrThrow();
    if (Number(count) >= MAX_MILESTONES)
      throw new ApiError(409, goalMessages.tooManyMilestones, 'TOO_MANY_MILESTONES');
    await trx
      .insertInto('goal_milestones')
      .values({ id: randomUUID(), goal_id: goal.id, title, created_by: user.id, created_at: new Date(now) })
      .execute();
    // A new step means the goal is not reached any more, if it was.
    await settleCompletion(trx, goal.id, now);
    return oneGoal(trx, goal.student_id, goal.id);
  });
}

export async function tickMilestone(
  db: Kysely<DB>,
  user: Caller,
  milestoneId: string,
  done: boolean,
  now: number,
): Promise<GoalView> {
  const found = await db
    .selectFrom('goal_milestones')
    .select('goal_id')
    .where('id', '=', milestoneId)
    .executeTakeFirst();
  if (!found) throw new ApiError(404, goalMessages.milestoneNotFound, 'NOT_FOUND');
  return db.transaction().execute(async (trx) => {
    const { goal } = await lockGoal(trx, user, found.goal_id).catch((error: unknown) => {
      // Whose milestone it is stays unknown to a stranger: the same 404 as a missing one.
      if (error instanceof ApiError && error.status === 404)
        throw new ApiError(404, goalMessages.milestoneNotFound, 'NOT_FOUND');
      throw error;
    });
    await trx
      .updateTable('goal_milestones')
      .set(
        done
          ? { done_at: sql`coalesce(done_at, ${new Date(now)})`, done_by: sql`coalesce(done_by, ${user.id})` }
          : { done_at: null, done_by: null },
      )
      .where('id', '=', milestoneId)
      .execute();
    await settleCompletion(trx, goal.id, now);
    return oneGoal(trx, goal.student_id, goal.id);
  });
}
