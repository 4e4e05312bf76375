/**
 * A family's own data over the API, with payments on, on both stores: a parent's export holds each
 * child's lessons, notes and goals (and never a child's placeholder address); a parent's money left
 * is the lessons and packages they paid for, so they are refused deletion while a child's lesson
 * holds it, and the child's own is not; a child with a login deleting their account gives the
 * parent's holds back and ends the link; deleting a parent erases the children without a login,
 * unlinks the others and calls off what the parent paid for ahead; and the console's list of links
 * and its unlink, audited, releasing the holds. The finance totals sum to zero after each.
 *
 * Children without a login are added through /api/family; a child with a login is made as the
 * rows an accepted invitation leaves (a student with a credential, linked), to skip its mails.
 */
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { accounts, balanceOf } from '../../src/server/money/ledger';
import { DELETED_USER_NAME } from '../../src/shared/account-data';
import { get, send, TEST_PASSWORD, verifiedUser } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { dayAt, insertLesson, openAvailability } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp } from '../support/money';

setUpApiTest({ env: { PAYMENTS: 'on', COMMISSION_PERCENT: '15' } });

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** A tutor's hour at $40: what each booking here holds. */
const PRICE = 4000;
/** Five of those hours as a package, at no discount. */
const PACKAGE = 5 * PRICE;
const cents = (amountCents: number) => ({ amountCents, currency: 'USD' });

let day = 3;
/** A fresh day (in Madrid) for each booking, so that no two lessons meet. */
const nextDay = () => {
  day += 1;
  return day;
};

async function parent(name: string): Promise<Person> {
  const account = await verifiedUser(t, mailbox, { role: 'parent', name });
  const id = (await (await get(t, '/api/session', account.jar)).json()).user.id as string;
  return { jar: account.jar, id, email: account.email, name };
}

/** A child the parent adds at /family, without a login: a first name and a year of birth. */
async function childWithoutLogin(of: Person, firstName: string, birthYear: number) {
  const res = await send(t, 'POST', '/api/family/children', { firstName, birthYear }, of.jar);
  expect(res.status, await res.clone().text()).toBe(201);
  const { child } = (await res.json()) as { child: { id: string } };
  return { id: child.id, firstName };
}

/**
 * A child of 13 or older with their own login, linked to the parent who pays: the rows an accepted
 * invitation leaves (a student with a credential, and the link), made directly to skip its mails.
 */
async function childWithLogin(of: Person, firstName: string, birthYear: number) {
  const child = await person('student', firstName);
  const db = t.database.db;
  await db.updateTable('users').set({ birth_year: birthYear }).where('id', '=', child.id).execute();
  await db
    .insertInto('family_links')
    .values({ parent_id: of.id, student_id: child.id, added_by_parent: true })
    .execute();
  return child;
}

/** The parent books an hour of Algebra for their child: its price held on the parent's wallet. */
async function bookFor(who: Person, tutor: Person, studentId: string) {
  const start = dayAt(nextDay(), '10:00');
  const res = await send(
    t,
    'POST',
    '/api/lessons',
    { tutorId: tutor.id, start: new Date(start).toISOString(), minutes: 60, subject: 'Algebra', studentId },
    who.jar,
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A lesson ahead the parent paid for that holds nothing (booked while payments were off). */
async function unheldLessonFor(who: Person, tutor: Person, studentId: string) {
  const id = await insertLesson(t.database.db, {
    tutorId: tutor.id,
    studentId,
    status: 'confirmed',
    start: dayAt(nextDay(), '15:00'),
    subject: 'Geometry',
  });
  await t.database.db.updateTable('lessons').set({ payer_id: who.id }).where('id', '=', id).execute();
  return id;
}

/** A lesson that took place, paid by the parent, with the tutor's note. */
async function pastLessonWithNote(who: Person, tutor: Person, studentId: string, covered: string) {
  const id = await insertLesson(t.database.db, {
    tutorId: tutor.id,
    studentId,
    status: 'completed',
    start: Date.now() - 3 * DAY,
    subject: 'Reading',
  });
  const db = t.database.db;
  await db.updateTable('lessons').set({ payer_id: who.id }).where('id', '=', id).execute();
  await db.insertInto('lesson_notes').values({ lesson_id: id, covered, homework: 'Chapter two' }).execute();
  return id;
}

const goalFor = (studentId: string, title: string) =>
  t.database.db
    .insertInto('goals')
    .values({ id: crypto.randomUUID(), student_id: studentId, subject: 'Reading', title })
    .execute();

async function exportOf(who: Person) {
  const res = await get(t, '/api/account/export', who.jar);
  expect(res.status, await res.clone().text()).toBe(200);
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const text = (name: string) => new TextDecoder().decode(files[name]);
  return {
    files,
    all: Object.keys(files)
      .filter((name) => name.endsWith('.json'))
      .map(text)
      .join('\n'),
    json: (name: string) => JSON.parse(text(name)),
  };
}

const deleteAccount = (who: Person) =>
  send(t, 'POST', '/api/account/delete', { password: TEST_PASSWORD }, who.jar);

const lessonRow = (id: string) =>
  t.database.db
    .selectFrom('lessons')
    .select(['status', 'payment_status', 'cancel_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const linksOf = (parentId: string) =>
  t.database.db
    .selectFrom('family_links')
    .select('student_id')
    .where('parent_id', '=', parentId)
    .orderBy('student_id')
    .execute();

const balance = (who: { id: string }) => balanceOf(t.database.db, accounts.balance(who.id).id);

describe("a parent's own data", () => {
  it("exports each child's lessons, notes and goals, and a student's parent by name only", async () => {
    const admin = await makeAdmin(t, await person('student', 'Export Admin'));
    const tutor = await publishTutor(t, await person('tutor', 'Export Tutor'));
    const mum = await parent('Maya Parent');
    const emma = await childWithoutLogin(mum, 'Emma', 2016);
    const leo = await childWithLogin(mum, 'Leo', 2010);
    await topUp(t, mum, admin, 2 * PRICE);
    const emmasLesson = await bookFor(mum, tutor, emma.id);
    const leosLesson = await bookFor(mum, tutor, leo.id);
    await pastLessonWithNote(mum, tutor, emma.id, 'Long vowels');
    await goalFor(emma.id, 'Read a chapter book');
    await goalFor(leo.id, 'Pass the reading test');

    const archive = await exportOf(mum);
    expect(archive.json('profile.json').user).toMatchObject({ role: 'parent', email: mum.email });
    const { children, parents } = archive.json('family.json');
    expect(parents).toEqual([]);
    expect(children).toHaveLength(2);
    const [first, second] = children;
    expect(first).toMatchObject({
      id: emma.id,
      firstName: 'Emma',
      birthYear: 2016,
      hasLogin: false,
      email: null,
      addedByParent: true,
      monthlyLimitCents: null,
    });
    expect(first.lessons.map((l: { id: string }) => l.id)).toContain(emmasLesson);
    expect(first.lessons).toHaveLength(2);
    expect(first.lessons.every((l: { payerId: string }) => l.payerId === mum.id)).toBe(true);
    expect(first.notes).toMatchObject([
      { covered: 'Long vowels', homework: 'Chapter two', subject: 'Reading' },
    ]);
    expect(first.goals).toMatchObject([{ title: 'Read a chapter book', milestones: [] }]);
    expect(second).toMatchObject({ id: leo.id, firstName: 'Leo', hasLogin: true, email: leo.email });
    expect(second.lessons.map((l: { id: string }) => l.id)).toEqual([leosLesson]);
    expect(second.goals).toMatchObject([{ title: 'Pass the reading test' }]);
    // A child's placeholder is nobody's address: no file names it.
    expect(archive.all).not.toContain('family.tutorlane.invalid');

    // The child's own export: their parent by name, never by address; their year of birth.
    const leos = await exportOf(leo);
    expect(leos.json('family.json')).toEqual({
      children: [],
      parents: [{ id: mum.id, displayName: 'Maya Parent', linkedAt: expect.any(String) }],
    });
    expect(leos.json('profile.json').user).toMatchObject({ birthYear: 2010 });
    expect(leos.all).not.toContain(mum.email);
    await financeTotals(t, admin);
  });
});

describe('money left and deletion in a family', () => {
  it("refuses a parent whose money a child's lesson holds; the child with a login deletes, giving it back", async () => {
    const admin = await makeAdmin(t, await person('student', 'Money Admin'));
    const tutor = await publishTutor(t, await person('tutor', 'Money Tutor'));
    const dad = await parent('Dario Parent');
    const nina = await childWithoutLogin(dad, 'Nina', 2017);
    const teo = await childWithLogin(dad, 'Teo', 2011);
    await topUp(t, dad, admin, 2 * PRICE);
    const ninasLesson = await bookFor(dad, tutor, nina.id);
    const teosLesson = await bookFor(dad, tutor, teo.id);

    // The holds are the parent's money, not the children's.
    const left = await (await get(t, '/api/account/money-left', dad.jar)).json();
    expect(left).toMatchObject({ balance: cents(0), packages: [], pendingTopUps: [] });
    expect(left.holds.map((h: { lessonId: string }) => h.lessonId).sort()).toEqual(
      [ninasLesson, teosLesson].sort(),
    );
    expect(left.holds.map((h: { amount: unknown }) => h.amount)).toEqual([cents(PRICE), cents(PRICE)]);
    expect(await (await get(t, '/api/account/money-left', teo.jar)).json()).toEqual({
      balance: cents(0),
      holds: [],
      packages: [],
      pendingTopUps: [],
    });

    const refused = await deleteAccount(dad);
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body).toMatchObject({ code: 'MONEY_LEFT', moneyLeft: { holds: left.holds } });
    expect(body.message).toContain('$80 held for 2 upcoming lessons');
    // Nothing called off, released or unlinked.
    expect(await lessonRow(ninasLesson)).toMatchObject({ status: 'confirmed', payment_status: 'held' });
    expect((await linksOf(dad.id)).map((row) => row.student_id).sort()).toEqual([nina.id, teo.id].sort());
    expect((await get(t, '/api/session', dad.jar)).status).toBe(200);

    // Teo deletes his own account: his lesson is called off, its hold back on his parent's wallet,
    // and the link ends; Nina's stays.
    const gone = await deleteAccount(teo);
    expect(gone.status, await gone.clone().text()).toBe(200);
    expect(await lessonRow(teosLesson)).toMatchObject({ status: 'cancelled', payment_status: 'released' });
    expect(await balance(dad)).toBe(PRICE);
    expect((await linksOf(dad.id)).map((row) => row.student_id)).toEqual([nina.id]);
    expect(await lessonRow(ninasLesson)).toMatchObject({ status: 'confirmed', payment_status: 'held' });
    // The parent's balance and Nina's hold still refuse the parent.
    const still = await deleteAccount(dad);
    expect(still.status).toBe(409);
    expect((await still.json()).moneyLeft).toMatchObject({
      balance: cents(PRICE),
      holds: [{ lessonId: ninasLesson }],
    });
    await financeTotals(t, admin);
  });

  it('deleting a parent erases the children without a login, unlinks the others and calls off what they paid ahead', async () => {
    const admin = await makeAdmin(t, await person('student', 'Deletion Admin'));
    const tutor = await publishTutor(t, await person('tutor', 'Deletion Tutor'));
    const other = await publishTutor(t, await person('tutor', 'Unrelated Tutor'));
    const mum = await parent('Greta Parent');
    const mia = await childWithoutLogin(mum, 'Mia', 2018);
    const sam = await childWithLogin(mum, 'Sam', 2009);
    const miasLesson = await unheldLessonFor(mum, tutor, mia.id);
    const samsLesson = await unheldLessonFor(mum, tutor, sam.id);
    // Sam's own booking, on his own wallet: not the parent's to call off.
    const samsOwn = await insertLesson(t.database.db, {
      tutorId: tutor.id,
      studentId: sam.id,
      status: 'confirmed',
      start: dayAt(nextDay(), '17:00'),
    });
    const miasPast = await pastLessonWithNote(mum, tutor, mia.id, 'Rhymes');
    await goalFor(mia.id, 'Count to a hundred');
    // A mail waiting for the tutor names Mia; one for a tutor who never taught her names another Mia.
    const db = t.database.db;
    const mail = (to: string, text: string) =>
      db
        .insertInto('mail_outbox')
        .values({
          recipient: to,
          subject: text,
          text_body: text,
          html_body: `<p>${text}</p>`,
          next_attempt_at: new Date(Date.now() + DAY),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const toTutor = await mail(tutor.email, 'Mia booked a lesson');
    const toOther = await mail(other.email, 'Mia booked a lesson');

    const res = await deleteAccount(mum);
    expect(res.status, await res.clone().text()).toBe(200);

    // Mia is erased as a deleted account is: no name, no year of birth, no goals.
    const miaRow = await db
      .selectFrom('users')
      .select(['display_name', 'email', 'birth_year', 'deleted_at'])
      .where('id', '=', mia.id)
      .executeTakeFirstOrThrow();
    expect(miaRow).toMatchObject({ display_name: DELETED_USER_NAME, birth_year: null });
    expect(miaRow.deleted_at).not.toBeNull();
    expect(miaRow.email).not.toContain('family.tutorlane.invalid');
    expect(await db.selectFrom('goals').select('id').where('student_id', '=', mia.id).execute()).toEqual([]);
    // Her lesson ahead is called off; the one that took place stays in the tutor's history.
    expect(await lessonRow(miasLesson)).toMatchObject({ status: 'cancelled' });
    expect(await lessonRow(miasPast)).toMatchObject({ status: 'completed' });
    const tutorsLessons = (await (await get(t, '/api/lessons', tutor.jar)).json()).lessons as {
      id: string;
      student?: { displayName: string };
    }[];
    expect(JSON.stringify(tutorsLessons)).not.toContain('"Mia"');

    // Sam keeps his account and his own lesson; the one his parent paid for is called off.
    expect(await lessonRow(samsLesson)).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'family link removed',
    });
    expect(await lessonRow(samsOwn)).toMatchObject({ status: 'confirmed' });
    const samRow = await db
      .selectFrom('users')
      .select(['deleted_at', 'birth_year'])
      .where('id', '=', sam.id)
      .executeTakeFirstOrThrow();
    expect(samRow).toEqual({ deleted_at: null, birth_year: 2009 });
    expect((await get(t, '/api/profile', sam.jar)).status).toBe(200);
    expect(await linksOf(mum.id)).toEqual([]);
    expect(
      await db.selectFrom('family_links').select('parent_id').where('student_id', '=', sam.id).execute(),
    ).toEqual([]);

    // The tutor's waiting mail no longer names Mia; the other tutor's, about someone else, is as it was.
    const subject = async (id: number) =>
      (await db.selectFrom('mail_outbox').select('subject').where('id', '=', id).executeTakeFirst())?.subject;
    expect(await subject(toTutor.id)).toBe(`${DELETED_USER_NAME} booked a lesson`);
    expect(await subject(toOther.id)).toBe('Mia booked a lesson');
    await financeTotals(t, admin);
  });
});

describe('the console: family links', () => {
  it('lists the links, and unlinks one for a reason: audited, lessons called off and packages ended, the money back', async () => {
    const admin = await makeAdmin(t, await person('student', 'Console Admin'));
    const tutor = await publishTutor(t, await person('tutor', 'Console Tutor'));
    // Five hours at no discount: a package of $200.
    const offered = await send(
      t,
      'PUT',
      '/api/availability',
      { ...openAvailability, packages: [{ lessons: 5, minutes: 60, discountPercent: 0 }] },
      tutor.jar,
    );
    expect(offered.status, await offered.clone().text()).toBe(200);
    const mum = await parent('Olga Parent');
    const noa = await childWithoutLogin(mum, 'Noa', 2015);
    const ivan = await childWithLogin(mum, 'Ivan', 2008);
    await topUp(t, mum, admin, 2 * PRICE + PACKAGE);
    const noasLesson = await bookFor(mum, tutor, noa.id);
    const ivansLesson = await bookFor(mum, tutor, ivan.id);
    // A package the parent buys for Ivan: the parent's money too.
    const bought = await send(
      t,
      'POST',
      '/api/packages',
      { tutorId: tutor.id, lessons: 5, minutes: 60, studentId: ivan.id },
      mum.jar,
    );
    expect(bought.status, await bought.clone().text()).toBe(201);
    const left = await (await get(t, '/api/account/money-left', mum.jar)).json();
    expect(left).toMatchObject({ balance: cents(0), packages: [{ creditsLeft: 5, amount: cents(PACKAGE) }] });
    expect(left.holds).toHaveLength(2);

    const listed = await get(t, '/api/admin/family-links?search=olga', admin.jar);
    expect(listed.status).toBe(200);
    const { links } = await listed.json();
    expect(links).toHaveLength(2);
    const noas = links.find((row: { student: { id: string } }) => row.student.id === noa.id);
    expect(noas).toEqual({
      parent: { id: mum.id, displayName: 'Olga Parent', email: mum.email },
      student: { id: noa.id, displayName: 'Noa', email: null, hasLogin: false },
      addedByParent: true,
      monthlyLimit: null,
      lessonsAhead: 1,
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(links)).not.toContain('family.tutorlane.invalid');
    expect(JSON.stringify(links)).not.toContain('birth');
    // A child's placeholder address is not searched.
    const byPlaceholder = await get(t, '/api/admin/family-links?search=tutorlane.invalid', admin.jar);
    expect((await byPlaceholder.json()).links).toEqual([]);

    const path = (studentId: string) => `/api/admin/family-links/${mum.id}/${studentId}`;
    const noReason = await send(t, 'DELETE', path(noa.id), {}, admin.jar);
    expect(noReason.status).toBe(400);
    expect(await noReason.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'reason' });
    const blank = await send(t, 'DELETE', path(noa.id), { reason: '  ' }, admin.jar);
    expect(blank.status).toBe(400);
    const noLink = await send(
      t,
      'DELETE',
      `/api/admin/family-links/${tutor.id}/${noa.id}`,
      { reason: 'x' },
      admin.jar,
    );
    expect(noLink.status).toBe(404);
    expect(await noLink.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(await lessonRow(noasLesson)).toMatchObject({ status: 'confirmed', payment_status: 'held' });

    // Ivan, who has a login: unlinked, his lesson paid by his parent called off and released.
    const ivanGone = await send(t, 'DELETE', path(ivan.id), { reason: 'Asked by the family' }, admin.jar);
    expect(ivanGone.status, await ivanGone.clone().text()).toBe(200);
    expect(await ivanGone.json()).toEqual({
      unlinked: { lessonsCancelled: 1, packagesEnded: 1, childDeleted: false },
    });
    expect(await lessonRow(ivansLesson)).toMatchObject({ status: 'cancelled', payment_status: 'released' });
    expect(await balance(mum)).toBe(PRICE + PACKAGE);
    const audit = await (await get(t, '/api/admin/audit', admin.jar)).json();
    expect(audit.entries[0]).toMatchObject({
      action: 'family.unlinked',
      reason: 'Asked by the family',
      target: `Ivan, paid for by Olga Parent <${mum.email}>`,
    });
    expect((await get(t, '/api/profile', ivan.jar)).status).toBe(200);

    // Noa, without a login: nobody is left to act for her, so she goes with the link.
    const noaGone = await send(t, 'DELETE', path(noa.id), { reason: 'Parent lost access' }, admin.jar);
    expect(noaGone.status, await noaGone.clone().text()).toBe(200);
    expect(await noaGone.json()).toEqual({
      unlinked: { lessonsCancelled: 1, packagesEnded: 0, childDeleted: true },
    });
    expect(await lessonRow(noasLesson)).toMatchObject({ status: 'cancelled', payment_status: 'released' });
    expect(await balance(mum)).toBe(2 * PRICE + PACKAGE);
    const after = await (await get(t, '/api/admin/audit', admin.jar)).json();
    expect(after.entries[0]).toMatchObject({
      action: 'family.unlinked',
      target: `${DELETED_USER_NAME}, paid for by Olga Parent <${mum.email}>`,
    });
    expect(JSON.stringify(after)).not.toContain('Noa');
    expect((await (await get(t, '/api/admin/family-links?search=olga', admin.jar)).json()).links).toEqual([]);
    const again = await send(t, 'DELETE', path(noa.id), { reason: 'Twice' }, admin.jar);
    expect(again.status).toBe(404);
    await financeTotals(t, admin);
  });
});
