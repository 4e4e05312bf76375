/**
 * Families in messages (issue 54): a tutor who writes about a child whose parent pays writes to
 * the parent, in a conversation about that child; nobody writes to a child under 13 or without a
 * login; a linked child with a login writes to their tutor as any student does, and their parent
 * reads those conversations (both sides are told so) without writing in them. A tutor's answers
 * never hold the child's year of birth, their placeholder address, or the parent's address.
 */
import { describe, expect, it } from 'vitest';
import { get, send } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import {
  bornYearsAgo,
  childWithoutLogin,
  linkStudent,
  parentAccount,
  type Someone,
  showsYear,
} from '../support/family-rows';
import { dayAt, insertLesson } from '../support/lessons';
import { publishTutor } from '../support/money';

setUpApiTest();

type Anyone = Person | Someone;

const write = (who: Anyone, conversationId: string, text: string) =>
  send(t, 'POST', `/api/conversations/${conversationId}/messages`, { text }, who.jar);
const inbox = async (who: Anyone) => (await get(t, '/api/conversations', who.jar)).json();
const conversation = (who: Anyone, id: string) => get(t, `/api/conversations/${id}`, who.jar);

/** A lesson the tutor gave the student last week: what lets a tutor write about them. */
const taught = (tutorId: string, studentId: string) =>
  insertLesson(t.database.db, { tutorId, studentId, status: 'completed', start: dayAt(-7, '10:00') });

/** Whatever a tutor reads must not hold these. */
function holdsNoFamilySecrets(json: unknown, parent: Someone, childAge: number) {
  const text = JSON.stringify(json);
  expect(text).not.toContain(parent.email);
  expect(text).not.toContain('family.tutorlane.invalid');
  expect(showsYear(text, bornYearsAgo(childAge)), text).toBe(false);
  expect(text).not.toContain('birthYear');
}

describe('a tutor writes to a parent about their child', () => {
  it('opens or continues a conversation with the parent, about the child, where both write', async () => {
    const tutor = await person('tutor');
    const parent = await parentAccount(t, mailbox, 'Pat Parent');
    const emma = await childWithoutLogin(t.database.db, parent.id, 'Emma', 9);
    const noah = await childWithoutLogin(t.database.db, parent.id, 'Noah', 7);
    await taught(tutor.id, emma);
    await taught(tutor.id, noah);

    const res = await send(
      t,
      'POST',
      '/api/conversations',
      { studentId: emma, text: 'Emma did well' },
      tutor.jar,
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const opened = await res.json();
    expect(opened.about).toEqual({ id: emma, firstName: 'Emma' });
    holdsNoFamilySecrets(opened, parent, 9);

    // Again about Emma: the same conversation; about Noah: one of its own.
    const again = await (
      await send(t, 'POST', '/api/conversations', { studentId: emma, text: 'And today too' }, tutor.jar)
    ).json();
    expect(again.id).toBe(opened.id);
    const aboutNoah = await (
      await send(t, 'POST', '/api/conversations', { studentId: noah, text: 'Noah too' }, tutor.jar)
    ).json();
    expect(aboutNoah.id).not.toBe(opened.id);
    expect(aboutNoah.about).toEqual({ id: noah, firstName: 'Noah' });

    // The parent has it in their inbox, from the tutor, about Emma, unread; and answers it.
    const parentInbox = await inbox(parent);
    const line = parentInbox.conversations.find((c: { id: string }) => c.id === opened.id);
    expect(line).toMatchObject({
      other: { id: tutor.id, role: 'tutor' },
      about: { id: emma, firstName: 'Emma' },
      readOnly: false,
      unread: 2,
    });
    const answered = await write(parent, opened.id, 'Thank you!');
    expect(answered.status, await answered.clone().text()).toBe(201);

    // The tutor sees the parent as the other side, the child by first name, and nothing more.
    const seen = await conversation(tutor, opened.id);
    expect(seen.status).toBe(200);
    const view = await seen.json();
    expect(view).toMatchObject({
      other: { id: parent.id, role: 'parent', displayName: 'Pat Parent' },
      about: { id: emma, firstName: 'Emma' },
      readOnly: false,
    });
    const tutorInbox = await inbox(tutor);
    holdsNoFamilySecrets(view, parent, 9);
    holdsNoFamilySecrets(tutorInbox, parent, 9);
    expect(tutorInbox.unreadTotal).toBe(1);

    // The child, who has no login, has no conversation of their own with the tutor.
    const childs = await t.database.db
      .selectFrom('conversations')
      .select('id')
      .where('student_id', '=', emma)
      .execute();
    expect(childs).toEqual([]);
  });

  it('only about a child who has had or has a lesson with the tutor', async () => {
    const tutor = await person('tutor');
    const parent = await parentAccount(t, mailbox, 'Quinn Parent');
    const child = await childWithoutLogin(t.database.db, parent.id, 'Mia', 10);
    const res = await send(t, 'POST', '/api/conversations', { studentId: child, text: 'Hello' }, tutor.jar);
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe(
      'You can write to a student once they have booked a lesson with you.',
    );
  });

  it('a parent answers the conversations tutors open; they start none themselves', async () => {
    const tutor = await publishTutor(t, await person('tutor'));
    const parent = await parentAccount(t, mailbox, 'Robin Parent');
    const res = await send(t, 'POST', '/api/conversations', { tutorId: tutor.id, text: 'Hi' }, parent.jar);
    expect(res.status).toBe(403);
    expect((await res.json()).message).toContain('A tutor opens the conversation about your child');
  });
});

describe('nobody starts a conversation with a child under 13', () => {
  it("a tutor's message about a young child reaches the parent; a child without one is refused", async () => {
    const tutor = await person('tutor');
    const parent = await parentAccount(t, mailbox, 'Sam Parent');
    const young = await childWithoutLogin(t.database.db, parent.id, 'Lily', 8);
    await taught(tutor.id, young);
    const res = await send(t, 'POST', '/api/conversations', { studentId: young, text: 'Hi Lily' }, tutor.jar);
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const row = await t.database.db
      .selectFrom('conversations')
      .select(['student_id', 'about_student_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ student_id: parent.id, about_student_id: young });

    // A child under 13 with nobody paying for them (no route makes one): refused, saying why.
    const alone = await childWithoutLogin(t.database.db, null, 'Ivy', 9);
    await taught(tutor.id, alone);
    const refused = await send(t, 'POST', '/api/conversations', { studentId: alone, text: 'Hi' }, tutor.jar);
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expect(body.code).toBe('CHILD_NOT_REACHABLE');
    expect(body.message).toBe(
      'You cannot write to a child under 13 or without a login of their own: write to their parent.',
    );
  });
});

describe("a linked child's own conversations", () => {
  it('the child writes to their tutor; the parent reads it and cannot write; both sides are told', async () => {
    const tutor = await publishTutor(t, await person('tutor'));
    const parent = await parentAccount(t, mailbox, 'Alex Parent');
    const child = await person('student', 'Emma Teen');
    await linkStudent(t.database.db, parent.id, child.id, true, 15);

    const res = await send(
      t,
      'POST',
      '/api/conversations',
      { tutorId: tutor.id, text: 'Hi, I am Emma' },
      child.jar,
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = await res.json();

    // Both sides are told the parent reads it.
    const tutorView = await (await conversation(tutor, id)).json();
    expect(tutorView).toMatchObject({ parentCanRead: true, readOnly: false, about: null });
    holdsNoFamilySecrets(tutorView, parent, 15);
    expect((await (await conversation(child, id)).json()).parentCanRead).toBe(true);
    const tutorLine = (await inbox(tutor)).conversations.find((c: { id: string }) => c.id === id);
    expect(tutorLine.parentCanRead).toBe(true);
    const tutorAnswer = await write(tutor, id, 'Welcome, Emma');
    expect(tutorAnswer.status).toBe(201);

    // The parent finds it in their inbox, marked as their child's and read only, and reads it.
    const parentLine = (await inbox(parent)).conversations.find((c: { id: string }) => c.id === id);
    expect(parentLine).toMatchObject({
      readOnly: true,
      child: { id: child.id, firstName: 'Emma Teen' },
      other: { id: tutor.id },
      unread: 0,
    });
    const parentView = await conversation(parent, id);
    expect(parentView.status).toBe(200);
    expect(await parentView.json()).toMatchObject({ readOnly: true, child: { id: child.id } });
    const messages = await (await get(t, `/api/conversations/${id}/messages`, parent.jar)).json();
    expect(messages.messages.map((m: { text: string }) => m.text)).toEqual([
      'Hi, I am Emma',
      'Welcome, Emma',
    ]);
    expect((await send(t, 'POST', `/api/conversations/${id}/read`, {}, parent.jar)).status).toBe(200);

    // But not write in it.
    const refused = await write(parent, id, 'Hello from Mum');
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expect(body.code).toBe('PARENT_READ_ONLY');
    expect(body.message).toBe(
      "You can read your child's conversations with their tutors, but not write in them.",
    );

    // Another parent finds nothing.
    const stranger = await parentAccount(t, mailbox, 'Other Parent');
    expect((await conversation(stranger, id)).status).toBe(404);
    expect((await write(stranger, id, 'Hi')).status).toBe(404);
    expect((await inbox(stranger)).conversations).toEqual([]);
  });

  it("a tutor's message about a linked child with a login goes to the parent too", async () => {
    const tutor = await person('tutor');
    const parent = await parentAccount(t, mailbox, 'Jo Parent');
    const child = await person('student', 'Leo Teen');
    await linkStudent(t.database.db, parent.id, child.id, true, 14);
    await taught(tutor.id, child.id);
    const res = await send(
      t,
      'POST',
      '/api/conversations',
      { studentId: child.id, text: 'About Leo' },
      tutor.jar,
    );
    expect(res.status).toBe(201);
    expect((await res.json()).about).toEqual({ id: child.id, firstName: 'Leo Teen' });
  });
});

describe('lines about a child without a login', () => {
  it("go to the parent's conversation about the child", async () => {
    const tutor = await publishTutor(t, await person('tutor'));
    const parent = await parentAccount(t, mailbox, 'Kim Parent');
    const child = await childWithoutLogin(t.database.db, parent.id, 'Ada', 9);
    const booked = await send(
      t,
      'POST',
      '/api/lessons',
      {
        tutorId: tutor.id,
        studentId: child,
        start: new Date(dayAt(3, '10:00')).toISOString(),
        subject: 'Algebra',
        minutes: 60,
      },
      parent.jar,
    );
    expect(booked.status, await booked.clone().text()).toBe(201);
    const line = (await inbox(parent)).conversations.find(
      (c: { about: { id: string } | null }) => c.about?.id === child,
    );
    expect(line.other.id).toBe(tutor.id);
    expect(line.lastMessage.event.event).toBe('confirmed');
    const tutorLine = (await inbox(tutor)).conversations.find((c: { id: string }) => c.id === line.id);
    expect(tutorLine.other.id).toBe(parent.id);
  });
});
