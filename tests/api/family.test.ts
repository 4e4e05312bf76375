/**
 * Families over the API, on both stores: a parent's children and their refusals, booking, packages
 * and class seats for a child paid from the parent's wallet, a child's own login from a mailed
 * invitation, a student's invitation to a parent, the monthly limit, and removing a child (what the
 * parent paid for ahead given back). Another parent's child is 404 everywhere; the finance totals
 * sum to zero at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar, get, send, signIn, TEST_PASSWORD } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { dayAt } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp, walletOf } from '../support/money';

setUpApiTest({ env: { PAYMENTS: 'on', COMMISSION_PERCENT: '15' } });

const iso = (ms: number) => new Date(ms).toISOString();
const THIS_YEAR = new Date().getUTCFullYear();
/** A lesson of 60 minutes at the tutor's 40 an hour. */
const PRICE = 4000;

interface Child {
  id: string;
  firstName: string;
  birthYear: number | null;
  hasLogin: boolean;
  monthlyLimitCents: number | null;
}

let admin: Person;
let tutor: Person;
let day = 3;
const nextDay = () => {
  day += 1;
  return day;
};

beforeAll(async () => {
  admin = await makeAdmin(t, await person('student', 'Family Admin'));
  tutor = await publishTutor(t, await person('tutor', 'Family Tutor'));
});

afterAll(async () => {
  await financeTotals(t, admin);
});

async function addChild(parent: Person, firstName: string, birthYear: number) {
  const res = await send(t, 'POST', '/api/family/children', { firstName, birthYear }, parent.jar);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { child: Child }).child;
}

const book = (who: Person, start: number, extra: Record<string, unknown> = {}) =>
  send(
    t,
    'POST',
    '/api/lessons',
    { tutorId: tutor.id, start: iso(start), minutes: 60, subject: 'Algebra', ...extra },
    who.jar,
  );

const balance = async (who: Person) =>
  ((await walletOf(t, who)) as { balance: { amountCents: number } }).balance.amountCents;

/** A parent's child takes a login from the mailed invitation; answers the child signed in. */
async function childWithLogin(parent: Person, firstName: string) {
  const child = await addChild(parent, firstName, THIS_YEAR - 14);
  const email = `${firstName.toLowerCase()}-${child.id.slice(0, 8)}@example.test`;
  const invited = await send(t, 'POST', `/api/family/children/${child.id}/invite`, { email }, parent.jar);
  expect(invited.status, await invited.clone().text()).toBe(200);
  const mail = await mailbox.waitFor((m) => m.to === email);
  const token = /\/family\/invitations\/([\w-]+)/.exec(mail.text)?.[1];
  expect(token).toBeTruthy();
  const accepted = await send(
    t,
    'POST',
    `/api/family/invitations/${token}/accept`,
    { password: 'a-child-of-my-own-42' },
    new CookieJar(),
  );
  expect(accepted.status, await accepted.clone().text()).toBe(200);
  const { jar } = await signIn(t, email, 'a-child-of-my-own-42');
  return { id: child.id, jar, email, name: firstName, token: token as string };
}

describe('a parent’s children', () => {
  it('adds children, lists them, and refuses what is wrong with 400 naming the field', async () => {
    const parent = await person('parent', 'Paula Parent');
    const emma = await addChild(parent, 'Emma', THIS_YEAR - 9);
    expect(emma).toMatchObject({
      firstName: 'Emma',
      birthYear: THIS_YEAR - 9,
      hasLogin: false,
      monthlyLimitCents: null,
    });
    const family = await (await get(t, '/api/family', parent.jar)).json();
    expect(family.children.map((c: Child) => c.firstName)).toEqual(['Emma']);
    expect(family.parents).toEqual([]);
    const cases: [Record<string, unknown>, string][] = [
      [{ firstName: 'Zoe', birthYear: THIS_YEAR + 1 }, 'The year of birth cannot be in the future'],
      [{ firstName: 'Zoe', birthYear: THIS_YEAR - 26 }, 'The year of birth can be at most 25 years ago'],
      [{ firstName: '  ', birthYear: THIS_YEAR - 5 }, "Please enter the child's first name"],
      [{ firstName: 'Zoe', birthYear: '2015' }, 'birthYear must be a year, such as 2015'],
    ];
    for (const [body, message] of cases) {
      const res = await send(t, 'POST', '/api/family/children', body, parent.jar);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
  });

  it('refuses an eleventh child with 409 TOO_MANY_CHILDREN, and children to anyone but a parent', async () => {
    const parent = await person('parent');
    await Promise.all(Array.from({ length: 10 }, (_, n) => addChild(parent, `Kid${n}`, THIS_YEAR - 6)));
    const eleventh = await send(
      t,
      'POST',
      '/api/family/children',
      { firstName: 'Kid10', birthYear: THIS_YEAR - 6 },
      parent.jar,
    );
    expect(eleventh.status).toBe(409);
    expect((await eleventh.json()).code).toBe('TOO_MANY_CHILDREN');
    const student = await person('student');
    const refused = await send(
      t,
      'POST',
      '/api/family/children',
      { firstName: 'Kid', birthYear: THIS_YEAR - 6 },
      student.jar,
    );
    expect(refused.status).toBe(403);
  });

  it('sees another parent’s child as 404 everywhere', async () => {
    const parent = await person('parent');
    const other = await person('parent');
    const child = await addChild(parent, 'Noah', THIS_YEAR - 8);
    await topUp(t, other, admin, PRICE);
    const calls = [
      send(t, 'PATCH', `/api/family/children/${child.id}`, { monthlyLimitCents: 100 }, other.jar),
      send(t, 'DELETE', `/api/family/children/${child.id}`, undefined, other.jar),
      send(t, 'POST', `/api/family/children/${child.id}/invite`, { email: 'noah@example.test' }, other.jar),
      book(other, dayAt(nextDay(), '10:00'), { studentId: child.id }),
      send(
        t,
        'POST',
        '/api/packages',
        { tutorId: tutor.id, lessons: 5, minutes: 60, studentId: child.id },
        other.jar,
      ),
    ];
    for (const res of await Promise.all(calls)) expect(res.status, await res.text()).toBe(404);
    // A student cannot book for anyone else either, and a parent must say for whom.
    const student = await person('student');
    expect((await book(student, dayAt(nextDay(), '10:00'), { studentId: child.id })).status).toBe(404);
    const forNobody = await book(other, dayAt(nextDay(), '10:00'));
    expect(forNobody.status).toBe(400);
    expect(await balance(other)).toBe(PRICE);
  });
});

describe('booking for a child', () => {
  it('books the lesson for the child and holds its price on the parent’s wallet', async () => {
    const parent = await person('parent');
    const child = await addChild(parent, 'Emma', THIS_YEAR - 9);
    await topUp(t, parent, admin, PRICE * 2);
    const res = await book(parent, dayAt(nextDay(), '10:00'), { studentId: child.id });
    expect(res.status, await res.clone().text()).toBe(201);
    const lesson = await res.json();
    expect(lesson.student).toMatchObject({ id: child.id, displayName: 'Emma' });
    expect(await balance(parent)).toBe(PRICE);
    // The wallet shows what its money holds for the child's lesson.
    const wallet = (await walletOf(t, parent)) as { held: { amountCents: number } };
    expect(wallet.held.amountCents).toBe(PRICE);
    // Short of money: 409 with what is missing, nothing held.
    const again = await book(parent, dayAt(nextDay(), '10:00'), { studentId: child.id, minutes: 90 });
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('INSUFFICIENT_BALANCE');
    expect(await balance(parent)).toBe(PRICE);
  });

  it('buys a package for a child from the parent’s wallet', async () => {
    const teacher = await person('tutor');
    await publishTutor(t, teacher);
    const offered = await send(
      t,
      'PUT',
      '/api/availability',
      {
        ...(await (await get(t, '/api/availability', teacher.jar)).json()),
        packages: [{ lessons: 5, minutes: 60, discountPercent: 10 }],
      },
      teacher.jar,
    );
    expect(offered.status, await offered.clone().text()).toBe(200);
    const parent = await person('parent');
    const child = await addChild(parent, 'Liam', THIS_YEAR - 10);
    await topUp(t, parent, admin, 20_000);
    const bought = await send(
      t,
      'POST',
      '/api/packages',
      { tutorId: teacher.id, lessons: 5, minutes: 60, studentId: child.id },
      parent.jar,
    );
    expect(bought.status, await bought.clone().text()).toBe(201);
    expect(await balance(parent)).toBe(20_000 - 18_000);
    const listed = await (await get(t, '/api/packages', parent.jar)).json();
    expect(listed.packages).toHaveLength(1);
    expect(listed.packages[0].student).toMatchObject({ id: child.id, displayName: 'Liam' });
  });
});

describe('a child’s own login', () => {
  it('is refused under 13 with 409 TOO_YOUNG', async () => {
    const parent = await person('parent');
    const child = await addChild(parent, 'Mia', THIS_YEAR - 12);
    const res = await send(
      t,
      'POST',
      `/api/family/children/${child.id}/invite`,
      { email: 'mia@example.test' },
      parent.jar,
    );
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('TOO_YOUNG');
  });

  it('comes from the mailed link: the address verified, the link good once, the child a linked student', async () => {
    const parent = await person('parent', 'Peter Parent');
    const child = await childWithLogin(parent, 'Oliver');
    const session = await (await get(t, '/api/session', child.jar)).json();
    expect(session.user).toMatchObject({ id: child.id, role: 'student', emailVerified: true });
    const again = await send(
      t,
      'POST',
      `/api/family/invitations/${child.token}/accept`,
      { password: 'another-password-43' },
      new CookieJar(),
    );
    expect(again.status).toBe(409);
    const theirs = await (await get(t, '/api/family', child.jar)).json();
    expect(theirs.parents).toEqual([{ id: parent.id, displayName: 'Peter Parent' }]);
    const listed = await (await get(t, '/api/family', parent.jar)).json();
    expect(listed.children[0]).toMatchObject({ id: child.id, hasLogin: true, email: child.email });
  });

  it('books on the parent’s wallet, within the monthly limit the parent sets', async () => {
    const parent = await person('parent');
    const child = await childWithLogin(parent, 'Ava');
    await topUp(t, parent, admin, PRICE * 3);
    const first = await book(child as unknown as Person, dayAt(nextDay(), '11:00'));
    expect(first.status, await first.clone().text()).toBe(201);
    expect(await balance(parent)).toBe(PRICE * 2);
    // A limit below what this month already holds plus the next lesson: refused, nothing held.
    const limited = await send(
      t,
      'PATCH',
      `/api/family/children/${child.id}`,
      { monthlyLimitCents: PRICE + 1000 },
      parent.jar,
    );
    expect(limited.status, await limited.clone().text()).toBe(200);
    expect((await limited.json()).child.monthlyLimitCents).toBe(PRICE + 1000);
    const second = await book(child as unknown as Person, dayAt(nextDay(), '11:00'));
    expect(second.status).toBe(409);
    expect((await second.json()).code).toBe('FAMILY_LIMIT');
    expect(await balance(parent)).toBe(PRICE * 2);
    const lifted = await send(
      t,
      'PATCH',
      `/api/family/children/${child.id}`,
      { monthlyLimitCents: null },
      parent.jar,
    );
    expect(lifted.status).toBe(200);
    expect((await book(child as unknown as Person, dayAt(nextDay(), '11:00'))).status).toBe(201);
    expect(await balance(parent)).toBe(PRICE);
    // A child without a login has no limit: the parent makes their bookings.
    const young = await addChild(parent, 'Leo', THIS_YEAR - 7);
    const refused = await send(
      t,
      'PATCH',
      `/api/family/children/${young.id}`,
      { monthlyLimitCents: 500 },
      parent.jar,
    );
    expect(refused.status).toBe(400);
  });
});

describe('a student’s invitation to a parent', () => {
  it('links the parent who accepts it, who pays from then on', async () => {
    const student = await person('student', 'Sam Student');
    const email = `parent-of-sam-${Date.now()}@example.test`;
    const invited = await send(t, 'POST', '/api/family/parent-invitations', { email }, student.jar);
    expect(invited.status, await invited.clone().text()).toBe(200);
    const mail = await mailbox.waitFor((m) => m.to === email);
    const token = /\/family\/invitations\/([\w-]+)/.exec(mail.text)?.[1] as string;
    const shown = await (await get(t, `/api/family/invitations/${token}`)).json();
    expect(shown).toMatchObject({ kind: 'parent', inviterName: 'Sam Student' });
    // Only a parent accepts it.
    const tutorTry = await send(t, 'POST', `/api/family/invitations/${token}/accept`, {}, tutor.jar);
    expect(tutorTry.status).toBe(403);
    const parent = await person('parent', 'Pat Parent');
    const accepted = await send(t, 'POST', `/api/family/invitations/${token}/accept`, {}, parent.jar);
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    expect((await (await get(t, '/api/family', student.jar)).json()).parents).toEqual([
      { id: parent.id, displayName: 'Pat Parent' },
    ]);
    await topUp(t, parent, admin, PRICE);
    expect((await book(student, dayAt(nextDay(), '12:00'))).status).toBe(201);
    expect(await balance(parent)).toBe(0);
    // A second invitation is refused: one parent pays.
    const second = await send(
      t,
      'POST',
      '/api/family/parent-invitations',
      { email: 'x@example.test' },
      student.jar,
    );
    expect(second.status).toBe(409);
    expect((await second.json()).code).toBe('ALREADY_LINKED');
  });
});

describe('removing a child', () => {
  it('cancels the lessons ahead the parent paid for and gives the money back', async () => {
    const parent = await person('parent');
    const child = await addChild(parent, 'Ella', THIS_YEAR - 9);
    await topUp(t, parent, admin, PRICE * 2);
    const booked = await book(parent, dayAt(nextDay(), '13:00'), { studentId: child.id });
    expect(booked.status).toBe(201);
    const lesson = await booked.json();
    expect(await balance(parent)).toBe(PRICE);
    const removed = await send(t, 'DELETE', `/api/family/children/${child.id}`, undefined, parent.jar);
    expect(removed.status, await removed.clone().text()).toBe(200);
    expect(await removed.json()).toMatchObject({ lessonsCancelled: 1, childDeleted: true });
    expect(await balance(parent)).toBe(PRICE * 2);
    expect((await (await get(t, '/api/family', parent.jar)).json()).children).toEqual([]);
    const tutorView = await (await get(t, `/api/lessons/${lesson.id}`, tutor.jar)).json();
    expect(tutorView.status).toBe('cancelled');
  });
});

describe('a parent’s balance', () => {
  it('is refunded by an admin as a student’s is, after which the parent may delete their account', async () => {
    const parent = await person('parent');
    await topUp(t, parent, admin, 2500);
    const refunded = await send(
      t,
      'POST',
      '/api/admin/refunds',
      { studentId: parent.id, amountCents: 2500, reference: 'Family refund' },
      admin.jar,
    );
    expect(refunded.status, await refunded.clone().text()).toBe(201);
    expect(await balance(parent)).toBe(0);
    const deleted = await send(t, 'POST', '/api/account/delete', { password: TEST_PASSWORD }, parent.jar);
    expect(deleted.status, await deleted.clone().text()).toBe(200);
  });
});

describe('a class for a child', () => {
  it('holds every session’s seat on the parent’s wallet', async () => {
    const teacher = await publishTutor(t, await person('tutor'));
    const d = nextDay();
    const made = await send(
      t,
      'POST',
      '/api/classes',
      {
        title: 'Family circle',
        subject: 'Algebra',
        language: 'English',
        minutes: 60,
        seats: 3,
        minStudents: 1,
        priceCents: 1500,
        sessions: [iso(dayAt(d, '17:00')), iso(dayAt(d + 7, '17:00'))],
      },
      teacher.jar,
    );
    expect(made.status, await made.clone().text()).toBe(201);
    const { class: cls } = await made.json();
    const parent = await person('parent');
    const child = await addChild(parent, 'Ivy', THIS_YEAR - 11);
    await topUp(t, parent, admin, 3000);
    const enrolled = await send(
      t,
      'POST',
      `/api/classes/${cls.id}/enrol`,
      { studentId: child.id },
      parent.jar,
    );
    expect(enrolled.status, await enrolled.clone().text()).toBe(201);
    expect(await enrolled.json()).toMatchObject({ status: 'enrolled' });
    expect(await balance(parent)).toBe(0);
    // Ivy has no login: the parent reads what is told to her, and the tutor hears she joined.
    await mailbox.waitFor(
      (m) => m.to === parent.email && m.subject.startsWith('You are enrolled: Family circle'),
    );
    await mailbox.waitFor(
      (m) => m.to === teacher.email && m.subject.startsWith('Ivy enrolled in Family circle'),
    );
    // The parent's dashboard shows the child's seats as the class's sessions, each with its seats.
    const board = await (await get(t, '/api/dashboard', parent.jar)).json();
    expect(board.children[0].upcoming).toEqual(
      [dayAt(d, '17:00'), dayAt(d + 7, '17:00')].map((start, index) => ({
        id: expect.any(String),
        start: iso(start),
        end: iso(start + 60 * 60 * 1000),
        minutes: 60,
        subject: 'Algebra',
        status: 'confirmed',
        with: { id: teacher.id, displayName: teacher.name },
        classSession: {
          classId: cls.id,
          sessionId: cls.sessions[index].id,
          title: 'Family circle',
          students: 1,
          seats: 3,
        },
      })),
    );
    // The class read for the child says the child's place; for anyone else's child it is 404.
    const forIvy = await get(t, `/api/classes/${cls.id}?studentId=${child.id}`, parent.jar);
    expect(forIvy.status).toBe(200);
    expect((await forIvy.json()).you).toMatchObject({ status: 'enrolled' });
    const stranger = await person('parent');
    expect((await get(t, `/api/classes/${cls.id}?studentId=${child.id}`, stranger.jar)).status).toBe(404);
    expect((await get(t, `/api/classes/${cls.id}?studentId=${child.id}`)).status).toBe(404);
    const left = await send(t, 'POST', `/api/classes/${cls.id}/leave`, { studentId: child.id }, parent.jar);
    expect(left.status, await left.clone().text()).toBe(200);
    expect(await balance(parent)).toBe(3000);
  });
});
