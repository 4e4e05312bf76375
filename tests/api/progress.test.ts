/**
 * Progress over the API: the tutor writes a lesson's notes once it has taken place and both
 * participants read them; a student's goals and milestones, which the student and their tutors
 * tick, drive the dashboard's bars and achievements; the tutor's per-student history. Nobody else
 * sees any of it (404).
 */
import { describe, expect, it } from 'vitest';
import type { LessonStatusColumn } from '../../src/server/db/schema';
import { MAX_GOALS } from '../../src/shared/progress/progress-rules';
import { get, send } from '../support/accounts';
import { type Person, person, setUpApiTest, t } from '../support/api-app';
import { insertLesson } from '../support/lessons';

setUpApiTest();

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** A lesson between the two, starting `hoursAgo` before now. */
const lesson = (teacher: Person, student: Person, status: LessonStatusColumn, hoursAgo = 48) =>
  insertLesson(t.database.db, {
    tutorId: teacher.id,
    studentId: student.id,
    status,
    start: Date.now() - hoursAgo * HOUR,
  });

const notes = { covered: 'Balancing equations; moles.', homework: 'Exercises 4 to 9 on page 31.' };
const putNotes = (who: Person, lessonId: string, body: unknown = notes) =>
  send(t, 'PUT', `/api/lessons/${lessonId}/notes`, body, who.jar);

describe('lesson notes', () => {
  it('the tutor writes them after the lesson; both read them, in the lesson lists and the history', async () => {
    const teacher = await person('tutor');
    const student = await person('student');
    const lessonId = await lesson(teacher, student, 'completed');

    const empty = await (await get(t, `/api/lessons/${lessonId}/notes`, student.jar)).json();
    expect(empty).toEqual({ lessonId, covered: '', homework: '', updatedAt: null, canEdit: false });
    expect((await (await get(t, `/api/lessons/${lessonId}/notes`, teacher.jar)).json()).canEdit).toBe(true);

    const saved = await putNotes(teacher, lessonId);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ ...notes, lessonId, canEdit: true });
    // Saving again replaces them.
    const changed = { covered: 'Moles, again.', homework: '' };
    expect((await putNotes(teacher, lessonId, changed)).status).toBe(200);

    const read = await (await get(t, `/api/lessons/${lessonId}/notes`, student.jar)).json();
    expect(read).toMatchObject({ ...changed, canEdit: false });
    expect(Date.parse(read.updatedAt)).toBeGreaterThan(Date.now() - 60_000);

    const from = new Date(Date.now() - 7 * DAY).toISOString();
    const listed = await (await get(t, `/api/lessons?from=${from}`, student.jar)).json();
    expect(listed.lessons.find((l: { id: string }) => l.id === lessonId).notes).toMatchObject(changed);

    const history = await (await get(t, `/api/history/${teacher.id}`, student.jar)).json();
    expect(history.person).toEqual({ id: teacher.id, displayName: expect.any(String), role: 'tutor' });
    expect(history.lessons.map((l: { id: string; notes: unknown }) => [l.id, l.notes])).toEqual([
      [lessonId, expect.objectContaining(changed)],
    ]);
    expect(history.goals).toBeNull();
  });

  it('only the tutor writes, only after the lesson took place; strangers get 404', async () => {
    const teacher = await person('tutor');
    const student = await person('student');
    const done = await lesson(teacher, student, 'completed');
    const refused = await putNotes(student, done);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('Only the tutor writes the notes of a lesson');

    for (const [status, hoursAgo] of [
      ['confirmed', -24],
      ['pending', -26],
      ['cancelled', 50],
      ['declined', 52],
      ['no_show', 54],
    ] as const) {
      const id = await lesson(teacher, student, status, hoursAgo);
      const early = await putNotes(teacher, id);
      expect(early.status, status).toBe(409);
      expect((await early.json()).message).toBe('Notes can be written once the lesson has taken place.');
    }
    // A confirmed lesson whose end has passed has taken place, though the job has not marked it.
    expect((await putNotes(teacher, await lesson(teacher, student, 'confirmed', 2))).status).toBe(200);

    const stranger = await person('tutor');
    expect((await get(t, `/api/lessons/${done}/notes`, stranger.jar)).status).toBe(404);
    expect((await putNotes(stranger, done)).status).toBe(404);
    expect((await get(t, `/api/history/${teacher.id}`, stranger.jar)).status).toBe(404);
    expect((await get(t, `/api/lessons/${done}/notes`)).status).toBe(401);
  });

  it('refuses empty and overlong notes with a message', async () => {
    const teacher = await person('tutor');
    const student = await person('student');
    const id = await lesson(teacher, student, 'completed');
    for (const [body, message] of [
      [{ covered: ' ', homework: '' }, 'Please write what was covered or the homework'],
      [{ covered: 'x'.repeat(4001), homework: '' }, 'What was covered must be at most 4000 characters'],
      [{ covered: 'ok' }, 'The homework must be text'],
    ] as const) {
      const res = await putNotes(teacher, id, body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
  });
});

const newGoal = (who: Person, body: unknown) => send(t, 'POST', '/api/goals', body, who.jar);
const tick = (who: Person, milestoneId: string, done: boolean) =>
  send(t, 'PATCH', `/api/milestones/${milestoneId}`, { done }, who.jar);
const studentDashboard = async (who: Person) => (await get(t, '/api/dashboard', who.jar)).json();

describe('goals and milestones', () => {
  it('a student sets a goal; the student and their tutor tick milestones; the bar follows', async () => {
    const teacher = await person('tutor');
    const student = await person('student');
    await lesson(teacher, student, 'completed');

    const created = await newGoal(student, {
      subject: 'Chemistry',
      title: 'Pass the A-level exam',
      targetDate: '2027-06-15',
      milestones: ['Stoichiometry', 'Organic basics'],
    });
    expect(created.status).toBe(201);
    const goal = await created.json();
    expect(goal).toMatchObject({
      subject: 'Chemistry',
      title: 'Pass the A-level exam',
      targetDate: '2027-06-15',
      completedAt: null,
      done: 0,
      total: 2,
    });
    const [first, second] = goal.milestones;

    // The tutor reads the student's goals and adds a step.
    const seen = await (await get(t, `/api/goals?studentId=${student.id}`, teacher.jar)).json();
    expect(seen.goals.map((g: { id: string }) => g.id)).toEqual([goal.id]);
    const added = await send(
      t,
      'POST',
      `/api/goals/${goal.id}/milestones`,
      { title: 'Past papers' },
      teacher.jar,
    );
    expect(added.status).toBe(201);
    const third = (await added.json()).milestones[2];
    expect(third.title).toBe('Past papers');

    // Ticks from both sides move the dashboard's bar: 1 of 3, then 3 of 3.
    expect((await tick(student, first.id, true)).status).toBe(200);
    let bar = (await studentDashboard(student)).goals[0];
    expect([bar.done, bar.total]).toEqual([1, 3]);
    await tick(teacher, second.id, true);
    const finished = await (await tick(student, third.id, true)).json();
    expect([finished.done, finished.total]).toEqual([3, 3]);
    expect(finished.completedAt).not.toBeNull();
    expect(finished.milestones.map((m: { doneBy: string }) => m.doneBy)).toEqual([
      expect.stringMatching(/^Student/),
      expect.stringMatching(/^Tutor/),
      expect.stringMatching(/^Student/),
    ]);
    const achieved = (await studentDashboard(student)).achievements;
    const reached = achieved.find((a: { id: string }) => a.id === 'goal-completed');
    expect(reached.earnedAt).toBe(finished.completedAt);

    // Unticking reopens the goal; the achievement keeps its day.
    const reopened = await (await tick(teacher, third.id, false)).json();
    expect(reopened.completedAt).toBeNull();
    bar = (await studentDashboard(student)).goals[0];
    expect([bar.done, bar.total]).toEqual([2, 3]);
    const still = (await studentDashboard(student)).achievements.find(
      (a: { id: string }) => a.id === 'goal-completed',
    );
    expect(still.earnedAt).toBe(finished.completedAt);

    // The student edits the goal; the tutor may not.
    const edited = await send(t, 'PATCH', `/api/goals/${goal.id}`, { targetDate: null }, student.jar);
    expect(edited.status).toBe(200);
    expect((await edited.json()).targetDate).toBeNull();
    const tutorEdit = await send(t, 'PATCH', `/api/goals/${goal.id}`, { title: 'Mine now' }, teacher.jar);
    expect(tutorEdit.status).toBe(403);
    expect((await newGoal(teacher, { subject: 'Chemistry', title: 'A tutor goal' })).status).toBe(403);

    // The tutor's history of the student carries the goals.
    const history = await (await get(t, `/api/history/${student.id}`, teacher.jar)).json();
    expect(history.person.role).toBe('student');
    expect(history.goals.map((g: { id: string }) => g.id)).toEqual([goal.id]);
  });

  it('nobody else sees or changes a goal: 404', async () => {
    const student = await person('student');
    const goal = await (
      await newGoal(student, { subject: 'Physics', title: 'Mechanics', milestones: ['Forces'] })
    ).json();
    const milestone = goal.milestones[0].id;
    const otherStudent = await person('student');
    // A tutor whose only lesson with the student was declined does not teach them.
    const notTheirTutor = await person('tutor');
    await lesson(notTheirTutor, student, 'declined');
    for (const who of [otherStudent, notTheirTutor]) {
      expect((await send(t, 'PATCH', `/api/goals/${goal.id}`, { title: 'x' }, who.jar)).status).toBe(404);
      expect(
        (await send(t, 'POST', `/api/goals/${goal.id}/milestones`, { title: 'x' }, who.jar)).status,
      ).toBe(404);
      const res = await tick(who, milestone, true);
      expect(res.status).toBe(404);
      expect((await res.json()).message).toBe('This milestone does not exist');
    }
    expect((await get(t, `/api/goals?studentId=${student.id}`, notTheirTutor.jar)).status).toBe(404);
    expect((await get(t, `/api/goals?studentId=${student.id}`, otherStudent.jar)).status).toBe(404);
    expect((await get(t, '/api/goals', notTheirTutor.jar)).status).toBe(404);
    expect(await (await get(t, '/api/goals', otherStudent.jar)).json()).toEqual({ goals: [] });
    expect((await tick(student, crypto.randomUUID(), true)).status).toBe(404);
    expect((await send(t, 'PATCH', '/api/milestones/not-an-id', { done: true }, student.jar)).status).toBe(
      404,
    );
  });

  it('refuses bad goals with a message', async () => {
    const student = await person('student');
    for (const [body, message] of [
      [{ subject: 'Alchemy', title: 'Gold' }, 'Please choose a subject'],
      [{ subject: 'Physics', title: '  ' }, 'Please name your goal'],
      [{ subject: 'Physics', title: 'x'.repeat(121) }, 'A goal must be at most 120 characters'],
      [
        { subject: 'Physics', title: 'Optics', targetDate: '2027-02-30' },
        'The target date must be a real date between 2000 and 2100',
      ],
      [
        { subject: 'Physics', title: 'Optics', targetDate: 'soon' },
        'The target date must be a date (YYYY-MM-DD)',
      ],
      [{ subject: 'Physics', title: 'Optics', milestones: [''] }, 'Please name the milestone'],
      [
        {
          subject: 'Physics',
          title: 'Optics',
          milestones: Array.from({ length: 21 }, (_, i) => `Step ${i}`),
        },
        'A goal can have at most 20 milestones',
      ],
    ] as const) {
      const res = await newGoal(student, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
    const goal = await (await newGoal(student, { subject: 'Physics', title: 'Optics' })).json();
    const nothing = await send(t, 'PATCH', `/api/goals/${goal.id}`, {}, student.jar);
    expect(nothing.status).toBe(400);
    expect((await nothing.json()).message).toBe('Nothing to change');
    expect(
      (await send(t, 'POST', `/api/goals/${goal.id}/milestones`, { title: 'Lenses' }, student.jar)).status,
    ).toBe(201);
    const badTick = await send(t, 'PATCH', `/api/milestones/${goal.id}`, { done: 'yes' }, student.jar);
    expect(badTick.status).toBe(400);
    expect((await badTick.json()).message).toBe('done must be true or false');
  });

  it('settles races in the database: the goal limit holds, and two last ticks complete the goal', async () => {
    const student = await person('student');
    for (let i = 0; i < MAX_GOALS - 1; i++)
      expect((await newGoal(student, { subject: 'Physics', title: `Goal ${i}` })).status).toBe(201);
    const racing = await Promise.all(
      [1, 2, 3].map((n) => newGoal(student, { subject: 'Physics', title: `Racing ${n}` })),
    );
    expect(racing.map((res) => res.status).sort()).toEqual([201, 409, 409]);
    expect((await (await get(t, '/api/goals', student.jar)).json()).goals).toHaveLength(MAX_GOALS);

    const other = await person('student');
    const teacher = await person('tutor');
    await lesson(teacher, other, 'confirmed', -48);
    const goal = await (
      await newGoal(other, { subject: 'Chemistry', title: 'Titration', milestones: ['Theory', 'Practice'] })
    ).json();
    const [a, b] = goal.milestones;
    await Promise.all([tick(other, a.id, true), tick(teacher, b.id, true)]);
    const [after] = (await (await get(t, '/api/goals', other.jar)).json()).goals;
    expect([after.done, after.total]).toEqual([2, 2]);
    expect(after.completedAt).not.toBeNull();
  });
});

describe('achievements and the dashboards', () => {
  it('come from lessons that took place, each with its date; the tutor lists their students', async () => {
    const teacher = await person('tutor');
    const student = await person('student');
    const none = (await studentDashboard(student)).achievements;
    expect(none.every((a: { earnedAt: string | null }) => a.earnedAt === null)).toBe(true);

    // One lesson a week for five weeks (the newest two days ago), one cancelled, one ahead.
    for (const weeksAgo of [4, 3, 2, 1, 0])
      await lesson(teacher, student, 'completed', 48 + weeksAgo * 7 * 24);
    await lesson(teacher, student, 'cancelled', 72);
    await lesson(teacher, student, 'confirmed', -72);
    const achievements = Object.fromEntries(
      (await studentDashboard(student)).achievements.map((a: { id: string; earnedAt: string | null }) => [
        a.id,
        a.earnedAt,
      ]),
    );
    // Earned when the first and the fifth lesson ended (inserted a moment ago, hence the margin).
    const endOf = (weeksAgo: number) => Date.now() - (48 + weeksAgo * 7 * 24) * HOUR + HOUR;
    expect(Math.abs(Date.parse(achievements['first-lesson']) - endOf(4))).toBeLessThan(30_000);
    expect(Math.abs(Date.parse(achievements['five-lessons']) - endOf(0))).toBeLessThan(30_000);
    expect(achievements['ten-lessons']).toBeNull();
    expect(achievements['four-week-streak']).not.toBeNull();
    expect(achievements['goal-completed']).toBeNull();

    const tutorView = await (await get(t, '/api/dashboard', teacher.jar)).json();
    expect(tutorView.students).toEqual([
      { id: student.id, displayName: expect.any(String), lessons: 6, lastLessonAt: expect.any(String) },
    ]);
    expect(tutorView.totalSessions).toBe(5);
  });
});
