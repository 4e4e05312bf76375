/**
 * Families over the API, after the booking (issue 54): a parent reads, cancels and moves their
 * children's lessons, reads their notes, goals and achievements, sets goals and ticks milestones,
 * reviews a child's tutor, joins the room for a child without a login, and has a dashboard of
 * their own. A tutor sees a child by first name and "booked by their parent", never the year of
 * birth or the parent's address; another parent's child does not exist (404) on every route.
 *
 * Families are made straight in the database (users and family_links rows, as /family makes them):
 * these tests are about what a family reads and does once it exists.
 */
import { describe, expect, it } from 'vitest';
import { accounts, post } from '../../src/server/money/ledger';
import { childAddress } from '../../src/server/platform/family-links';
import { type CookieJar, get, send, verifiedUser } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { linkStudent } from '../support/family-rows';
import { dayAt, insertLesson } from '../support/lessons';
import { publishTutor } from '../support/money';

// PAYMENTS left empty: on, so what the family spent this month is the ledger's.
setUpApiTest({ env: { PAYMENTS: '' } });

const HOUR = 60 * 60 * 1000;
/** Years of birth nothing else in an answer could spell (an age of 12 and of 14). */
const YOUNG = new Date().getUTCFullYear() - 12;
const TEEN = new Date().getUTCFullYear() - 14;

let parents = 0;
async function parent(): Promise<Person> {
  parents += 1;
  const name = `Parent Number${parents}`;
  const account = await verifiedUser(t, mailbox, { role: 'parent', name });
  const id = (await (await get(t, '/api/session', account.jar)).json()).user.id as string;
  return { jar: account.jar, id, email: account.email, name };
}

/** A child the parent added, without a login: a student row with an unread address, and its link. */
async function childOf(mum: Person, firstName: string, birthYear = YOUNG) {
  const id = crypto.randomUUID();
  await t.database.db
    .insertInto('users')
    .values({
      id,
      display_name: firstName,
      email: childAddress(id),
      role: 'student',
      birth_year: birthYear,
      email_verified: true,
    })
    .execute();
  await link(mum, id, true);
  return { id, firstName };
}

/** A student with a login of their own, linked to the parent (a child of 13 or older). */
async function teenOf(mum: Person) {
  const teen = await person('student', 'Lukas Teen');
  await t.database.db.updateTable('users').set({ birth_year: TEEN }).where('id', '=', teen.id).execute();
  await link(mum, teen.id, false);
  return teen;
}

const link = (mum: Person, studentId: string, addedByParent: boolean) =>
  linkStudent(t.database.db, mum.id, studentId, addedByParent);

/** Money on the parent's wallet, as a confirmed top-up leaves it (the wallet's routes are not ours). */
async function credit(who: Person, amountCents: number) {
  await t.database.db.transaction().execute((trx) =>
    post(trx, {
      kind: 'top_up',
      key: `top_up:test-${crypto.randomUUID()}`,
      currency: t.config.payments.currency,
      actorId: null,
      memo: 'Test top-up',
      entries: [
        { account: accounts.clearing('manual'), amountCents: -amountCents },
        { account: accounts.balance(who.id), amountCents },
      ],
    }),
  );
}

const json = async (res: Response, status = 200) => {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.json();
};
const read = async (path: string, jar: CookieJar) => json(await get(t, path, jar));
const ids = (list: { id: string }[]) => list.map((item) => item.id);

/** The parent books an hour of Algebra for the child, `days` from today at `time` (Madrid). */
const bookFor = (mum: Person, tutorId: string, studentId: string, days: number, time = '10:00') =>
  send(
    t,
    'POST',
    '/api/lessons',
    {
      tutorId,
      studentId,
      start: new Date(dayAt(days, time)).toISOString(),
      minutes: 60,
      subject: 'Algebra',
    },
    mum.jar,
  );

/** A lesson straight into the database, `hoursAgo` before now (negative: ahead). */
const lessonOf = (tutorId: string, studentId: string, status: 'completed' | 'confirmed', hoursAgo = 48) =>
  insertLesson(t.database.db, { tutorId, studentId, status, start: Date.now() - hoursAgo * HOUR });

/** Nothing a tutor may not read: no year of birth, no parent's address, no child's placeholder one. */
function expectNothingPrivate(answer: unknown, mum: Person) {
  const text = JSON.stringify(answer);
  expect(text).not.toMatch(/birth/i);
  for (const year of [YOUNG, TEEN]) expect(text).not.toMatch(new RegExp(`(?<![\\w-])${year}(?![\\w-])`));
  expect(text).not.toContain(mum.email);
  expect(text).not.toContain('family.tutorlane.invalid');
}

describe("a parent's children's lessons", () => {
  it('lists, reads, cancels and moves them; the tutor sees "booked by their parent" and nothing private', async () => {
    const teacher = await publishTutor(t, await person('tutor', 'Tutor Family'));
    const mum = await parent();
    const emma = await childOf(mum, 'Emma');
    await credit(mum, 20_000);

    const booked = await json(await bookFor(mum, teacher.id, emma.id, 3), 201);
    expect(booked).toMatchObject({
      student: { id: emma.id, displayName: 'Emma' },
      bookedByParent: true,
      status: 'confirmed',
    });
    const second = await json(await bookFor(mum, teacher.id, emma.id, 4), 201);
    // A lesson of the child nobody paid through the parent (before the link, say) is theirs to read too.
    const past = await lessonOf(teacher.id, emma.id, 'completed');

    const listed = await read('/api/lessons', mum.jar);
    expect(ids(listed.lessons).sort()).toEqual([booked.id, second.id, past].sort());
    const pastView = listed.lessons.find((lesson: { id: string }) => lesson.id === past);
    expect(pastView).toMatchObject({ student: { id: emma.id, displayName: 'Emma' }, bookedByParent: false });
    expect(await read(`/api/lessons/${booked.id}`, mum.jar)).toMatchObject({ id: booked.id });

    // The tutor: the child by first name, booked by their parent; no year of birth, no address.
    const tutorLessons = await read('/api/lessons', teacher.jar);
    expect(tutorLessons.lessons.find((lesson: { id: string }) => lesson.id === booked.id)).toMatchObject({
      student: { id: emma.id, displayName: 'Emma' },
      bookedByParent: true,
    });
    for (const answer of [
      tutorLessons,
      await read(`/api/lessons/${booked.id}`, teacher.jar),
      await read('/api/dashboard', teacher.jar),
      await read('/api/schedule', teacher.jar),
      await read(`/api/history/${emma.id}`, teacher.jar),
    ])
      expectNothingPrivate(answer, mum);

    // The parent moves one and cancels the other, as the student could; the price comes back to them.
    const moved = await json(
      await send(
        t,
        'POST',
        `/api/lessons/${second.id}/reschedule`,
        { start: new Date(dayAt(5, '12:00')).toISOString() },
        mum.jar,
      ),
    );
    expect(moved.start).toBe(new Date(dayAt(5, '12:00')).toISOString());
    const cancelled = await json(await send(t, 'POST', `/api/lessons/${booked.id}/cancel`, {}, mum.jar));
    expect(cancelled).toMatchObject({ status: 'cancelled', cancellation: { by: 'student' } });
    // Both were booked this month: the cancelled one's price came back, the moved one's is held.
    const spent = (await read('/api/dashboard', mum.jar)).spentThisMonth;
    expect(spent).toEqual({ amountCents: second.price.amountCents, currency: t.config.payments.currency });
  });

  it("another parent's child's lessons are 404 on every lesson route, and never listed", async () => {
    const teacher = await publishTutor(t, await person('tutor'));
    const mum = await parent();
    const other = await parent();
    const emma = await childOf(mum, 'Emma');
    await credit(mum, 10_000);
    const booked = await json(await bookFor(mum, teacher.id, emma.id, 3), 201);

    expect((await read('/api/lessons', other.jar)).lessons).toEqual([]);
    const start = new Date(dayAt(6, '12:00')).toISOString();
    for (const [method, path, body] of [
      ['GET', `/api/lessons/${booked.id}`, undefined],
      ['POST', `/api/lessons/${booked.id}/cancel`, {}],
      ['POST', `/api/lessons/${booked.id}/reschedule`, { start }],
      ['POST', `/api/lessons/${booked.id}/proposal/accept`, {}],
    ] as const) {
      const res =
        body === undefined ? await get(t, path, other.jar) : await send(t, method, path, body, other.jar);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await res.json()).code).toBe('NOT_FOUND');
    }
    // Nor does a parent become a tutor by acting for a child: answering a request stays the tutor's.
    expect((await send(t, 'POST', `/api/lessons/${booked.id}/accept`, {}, mum.jar)).status).toBe(403);
    expect((await read(`/api/lessons/${booked.id}`, mum.jar)).status).toBe('confirmed');
  });
});

describe("a child's progress", () => {
  it('the parent reads the notes, goals and history, sets a goal and ticks its milestones', async () => {
    const teacher = await person('tutor');
    const mum = await parent();
    const emma = await childOf(mum, 'Emma');
    const done = await lessonOf(teacher.id, emma.id, 'completed');
    const notes = { covered: 'Fractions and decimals.', homework: 'Page 12, all of it.' };
    await json(await send(t, 'PUT', `/api/lessons/${done}/notes`, notes, teacher.jar));

    expect(await read(`/api/lessons/${done}/notes`, mum.jar)).toMatchObject({ ...notes, canEdit: false });
    const listed = await read(
      `/api/lessons?from=${new Date(Date.now() - 7 * 24 * HOUR).toISOString()}`,
      mum.jar,
    );
    expect(listed.lessons[0].notes).toMatchObject(notes);
    const history = await read(`/api/history/${teacher.id}?studentId=${emma.id}`, mum.jar);
    expect(history.person).toMatchObject({ id: teacher.id, role: 'tutor' });
    expect(history.lessons.map((lesson: { notes: unknown }) => lesson.notes)).toEqual([
      expect.objectContaining(notes),
    ]);

    // A goal the parent sets is the child's: its tutor reads it and the parent ticks its steps.
    const missing = await send(
      t,
      'POST',
      '/api/goals',
      { subject: 'Chemistry', title: 'Times tables' },
      mum.jar,
    );
    expect(missing.status).toBe(400);
    const goal = await json(
      await send(
        t,
        'POST',
        '/api/goals',
        {
          subject: 'Chemistry',
          title: 'Know the elements',
          milestones: ['The first ten'],
          studentId: emma.id,
        },
        mum.jar,
      ),
      201,
    );
    expect(ids((await read(`/api/goals?studentId=${emma.id}`, mum.jar)).goals)).toEqual([goal.id]);
    const seenByTutor = await read(`/api/goals?studentId=${emma.id}`, teacher.jar);
    expect(ids(seenByTutor.goals)).toEqual([goal.id]);
    expectNothingPrivate(seenByTutor, mum);
    const ticked = await json(
      await send(t, 'PATCH', `/api/milestones/${goal.milestones[0].id}`, { done: true }, mum.jar),
    );
    expect(ticked).toMatchObject({ done: 1, total: 1, milestones: [{ doneBy: mum.name }] });
    expect(ticked.completedAt).not.toBeNull();
    await json(
      await send(t, 'POST', `/api/goals/${goal.id}/milestones`, { title: 'The next ten' }, mum.jar),
      201,
    );
    await json(await send(t, 'PATCH', `/api/goals/${goal.id}`, { title: 'Know all the elements' }, mum.jar));

    // A child with a login reads the goal their parent set for them.
    const lukas = await teenOf(mum);
    await json(
      await send(
        t,
        'POST',
        '/api/goals',
        { subject: 'Chemistry', title: 'Balance equations', studentId: lukas.id },
        mum.jar,
      ),
      201,
    );
    expect((await read('/api/goals', lukas.jar)).goals.map((g: { title: string }) => g.title)).toEqual([
      'Balance equations',
    ]);
  });

  it("another parent's child's notes, goals, milestones and history are 404", async () => {
    const teacher = await person('tutor');
    const mum = await parent();
    const other = await parent();
    const emma = await childOf(mum, 'Emma');
    const done = await lessonOf(teacher.id, emma.id, 'completed');
    const goal = await json(
      await send(
        t,
        'POST',
        '/api/goals',
        { subject: 'Chemistry', title: 'Know the elements', milestones: ['Ten'], studentId: emma.id },
        mum.jar,
      ),
      201,
    );
    for (const [method, path, body] of [
      ['GET', `/api/lessons/${done}/notes`, undefined],
      ['GET', `/api/goals?studentId=${emma.id}`, undefined],
      ['GET', `/api/history/${teacher.id}?studentId=${emma.id}`, undefined],
      ['POST', '/api/goals', { subject: 'Chemistry', title: 'Not yours', studentId: emma.id }],
      ['PATCH', `/api/goals/${goal.id}`, { title: 'Not yours' }],
      ['POST', `/api/goals/${goal.id}/milestones`, { title: 'Not yours' }],
      ['PATCH', `/api/milestones/${goal.milestones[0].id}`, { done: true }],
    ] as const) {
      const res =
        body === undefined ? await get(t, path, other.jar) : await send(t, method, path, body, other.jar);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });
});

describe("a child's reviews", () => {
  it("the parent reviews the child's tutor once per child, after a completed lesson; others get 404", async () => {
    const teacher = await publishTutor(t, await person('tutor'));
    const mum = await parent();
    const other = await parent();
    const emma = await childOf(mum, 'Emma');
    const ben = await childOf(mum, 'Ben');
    const text = 'Patient and clear, Emma looks forward to every lesson.';
    const review = (who: Person, studentId: string | undefined, rating: number) =>
      send(
        t,
        'PUT',
        `/api/tutors/${teacher.id}/review`,
        { rating, text, ...(studentId ? { studentId } : {}) },
        who.jar,
      );

    const early = await review(mum, emma.id, 5);
    expect(early.status).toBe(403);
    expect((await early.json()).code).toBe('NO_COMPLETED_LESSON');
    await lessonOf(teacher.id, emma.id, 'completed');
    expect((await review(mum, undefined, 5)).status).toBe(400);
    expect((await review(other, emma.id, 1)).status).toBe(404);
    // Ben had no lesson: Emma's does not count for him.
    expect((await review(mum, ben.id, 5)).status).toBe(403);

    expect((await json(await review(mum, emma.id, 5), 201)).reviewer).toBe('Emma');
    expect((await json(await review(mum, emma.id, 4))).rating).toBe(4);
    const listed = await read(`/api/tutors/${teacher.id}/reviews`, teacher.jar);
    expect(listed).toMatchObject({ count: 1, reviews: [{ rating: 4, reviewer: 'Emma' }] });
    expectNothingPrivate(listed, mum);
  });
});

describe("a child's lesson room", () => {
  it('the parent joins for a child without a login; a child with one joins themselves', async () => {
    const teacher = await person('tutor');
    const mum = await parent();
    const other = await parent();
    const emma = await childOf(mum, 'Emma');
    const lukas = await teenOf(mum);
    const now = await lessonOf(teacher.id, emma.id, 'confirmed', 0.05);
    const teens = await lessonOf((await person('tutor')).id, lukas.id, 'confirmed', -0.1);

    const room = await read(`/api/lessons/${now}/room`, mum.jar);
    expect(room).toMatchObject({ you: 'student', state: 'open', lesson: { student: { id: emma.id } } });
    await json(await send(t, 'POST', `/api/lessons/${now}/room/join`, {}, mum.jar));
    const line = await json(
      await send(t, 'POST', `/api/lessons/${now}/room/chat`, { text: 'Emma is here' }, mum.jar),
      201,
    );
    // The tutor sees the student came, and the line as the student's.
    const tutorsRoom = await read(`/api/lessons/${now}/room`, teacher.jar);
    expect(tutorsRoom.attendance.student).not.toBeNull();
    expect(line.senderId).toBe(emma.id);
    expectNothingPrivate(tutorsRoom, mum);

    // A child with a login joins themselves: the parent is not in that room.
    expect((await get(t, `/api/lessons/${teens}/room`, mum.jar)).status).toBe(404);
    expect((await read(`/api/lessons/${teens}/room`, lukas.jar)).you).toBe('student');
    // Another parent reaches neither.
    for (const path of [`/api/lessons/${now}/room`, `/api/lessons/${now}/room/chat`])
      expect((await get(t, path, other.jar)).status, path).toBe(404);
    expect((await send(t, 'POST', `/api/lessons/${now}/room/join`, {}, other.jar)).status).toBe(404);
  });
});

describe("a parent's dashboard", () => {
  it("shows each child's next lessons, latest notes and goals, and what the family spent this month", async () => {
    const teacher = await publishTutor(t, await person('tutor', 'Tutor Dash'));
    const mum = await parent();
    const emma = await childOf(mum, 'Emma');
    const ben = await childOf(mum, 'Ben');
    const stranger = await parent();
    await childOf(stranger, 'Zoe');
    await credit(mum, 50_000);

    const first = await json(await bookFor(mum, teacher.id, emma.id, 2), 201);
    const forBen = await json(await bookFor(mum, teacher.id, ben.id, 2, '14:00'), 201);
    const done = await lessonOf(teacher.id, emma.id, 'completed');
    await json(
      await send(t, 'PUT', `/api/lessons/${done}/notes`, { covered: 'Verbs.', homework: '' }, teacher.jar),
    );
    const goal = await json(
      await send(
        t,
        'POST',
        '/api/goals',
        { subject: 'Chemistry', title: 'Read a story', studentId: ben.id },
        mum.jar,
      ),
      201,
    );

    const dashboard = await read('/api/dashboard', mum.jar);
    expect(dashboard).toMatchObject({
      role: 'parent',
      spentThisMonth: { currency: t.config.payments.currency },
    });
    expect(dashboard.children.map((child: { firstName: string }) => child.firstName)).toEqual([
      'Emma',
      'Ben',
    ]);
    const [forEmma, ofBen] = dashboard.children;
    expect(forEmma).toMatchObject({
      id: emma.id,
      hasLogin: false,
      upcoming: [{ id: first.id, with: { id: teacher.id } }],
      notes: [{ lessonId: done, covered: 'Verbs.', tutor: { id: teacher.id } }],
      goals: [],
    });
    expect(forEmma.achievements.find((a: { id: string }) => a.id === 'first-lesson').earnedAt).not.toBeNull();
    expect(ofBen).toMatchObject({
      id: ben.id,
      upcoming: [{ id: forBen.id }],
      notes: [],
      goals: [{ id: goal.id }],
    });
    expect(dashboard.spentThisMonth.amountCents).toBe(first.price.amountCents + forBen.price.amountCents);

    expect(await read('/api/dashboard', stranger.jar)).toMatchObject({
      role: 'parent',
      children: [{ firstName: 'Zoe', upcoming: [], notes: [], goals: [] }],
      spentThisMonth: { amountCents: 0 },
    });
  });
});
