/**
 * A group class's conversation (issue 53): its tutor and the students enrolled now read and write
 * it, in /messages beside their other conversations; the waitlist, students who left and everyone
 * else find nothing (404). Unread counts and the read mark are each member's own, every member's
 * open tabs hear each message, a block between two members does not stop the group, members
 * report what the others wrote and a moderator's hiding reaches every member, and the mail for
 * messages left unread names the class.
 */
import type { Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../src/server/db/schema';
import {
  joinClassConversation,
  leaveClassConversation,
  openClassConversation,
} from '../../src/server/messages/class-conversations';
import { mailUnread } from '../../src/server/messages/unread-mail';
import { HIDDEN_MESSAGE_TEXT } from '../../src/shared/admin/admin-rules';
import { get, send } from '../support/accounts';
import { mailbox, type Person, person, server, setUpApiTest, t } from '../support/api-app';
import { dayAt } from '../support/lessons';
import { openChannel } from '../support/live-channel';
import { makeAdmin, publishTutor } from '../support/money';
import { TEST_APP_URL } from '../support/test-app';

setUpApiTest({ listen: true });

let classes = 0;

/**
 * A class of `teacher`'s (published for it), free, with one session on a day of its own, and
 * `students` enrolled through the API; answers its conversation too, as the tutor's inbox lists it.
 */
async function classWith(teacher: Person, students: Person[], title = 'Exam French, spring', seats = 5) {
  await publishTutor(t, teacher);
  classes += 1;
  const body = {
    title,
    subject: 'Algebra',
    language: 'English',
    description: 'Past papers, together.',
    minutes: 60,
    seats,
    minStudents: 1,
    priceCents: 0,
    sessions: [new Date(dayAt(3 + classes, '17:00')).toISOString()],
  };
  const made = await send(t, 'POST', '/api/classes', body, teacher.jar);
  expect(made.status, await made.clone().text()).toBe(201);
  const classId = ((await made.json()) as { class: { id: string } }).class.id;
  for (const student of students) expect((await enrol(classId, student)).status).toBe('enrolled');
  const listed = (await inbox(teacher)).conversations as { id: string; class: { id: string } | null }[];
  const conversationId = listed.find((c) => c.class?.id === classId)?.id ?? '';
  return { classId, conversationId, title };
}

async function enrol(classId: string, student: Person) {
  const res = await send(t, 'POST', `/api/classes/${classId}/enrol`, {}, student.jar);
  expect([200, 201], await res.clone().text()).toContain(res.status);
  return (await res.json()) as { status: string; position: number | null };
}
async function leave(classId: string, student: Person) {
  const res = await send(t, 'POST', `/api/classes/${classId}/leave`, {}, student.jar);
  expect(res.status, await res.clone().text()).toBe(200);
}

/**
 * People made one after another: a burst of sign-ups at once can wait past the pool's connection
 * timeout on a busy machine's PostgreSQL.
 */
async function people<const Specs extends Parameters<typeof person>[]>(
  ...specs: Specs
): Promise<{ [K in keyof Specs]: Person }> {
  const all: Person[] = [];
  for (const spec of specs) all.push(await person(...spec));
  return all as { [K in keyof Specs]: Person };
}

const write = (who: Person, conversationId: string, text: string) =>
  send(t, 'POST', `/api/conversations/${conversationId}/messages`, { text }, who.jar);
const inbox = async (who: Person) => (await get(t, '/api/conversations', who.jar)).json();
const texts = async (who: Person, conversationId: string) =>
  (
    (await (await get(t, `/api/conversations/${conversationId}/messages`, who.jar)).json()).messages as {
      text: string;
    }[]
  ).map((m) => m.text);

/** Every route of a conversation, as someone outside it: each answers 404. */
async function shutOut(who: Person, conversationId: string) {
  const path = `/api/conversations/${conversationId}`;
  expect((await get(t, path, who.jar)).status).toBe(404);
  expect((await get(t, `${path}/messages`, who.jar)).status).toBe(404);
  expect((await write(who, conversationId, 'Let me in')).status).toBe(404);
  expect((await send(t, 'POST', `${path}/read`, {}, who.jar)).status).toBe(404);
  expect((await inbox(who)).conversations.map((c: { id: string }) => c.id)).not.toContain(conversationId);
}

describe('a class’s conversation', () => {
  it('is listed for the tutor and the enrolled students with the class, and written and read by each', async () => {
    const [teacher, ana, ben] = await people(['tutor'], ['student', 'Ana Group'], ['student', 'Ben Group']);
    const { classId, conversationId, title } = await classWith(teacher, [ana, ben]);

    // Made with the class: listed before its first message, for every member.
    for (const member of [teacher, ana, ben]) {
      const listed = await inbox(member);
      expect(listed.conversations).toEqual([
        expect.objectContaining({
          id: conversationId,
          support: false,
          class: { id: classId, title },
          other: null,
          lastMessage: null,
          unread: 0,
        }),
      ]);
    }
    const detail = await (await get(t, `/api/conversations/${conversationId}`, ana.jar)).json();
    expect(detail).toEqual({
      id: conversationId,
      support: false,
      class: { id: classId, title },
      other: null,
      members: [
        { id: teacher.id, displayName: teacher.name, role: 'tutor', photoVersion: null, left: false },
        { id: ana.id, displayName: 'Ana Group', role: 'student', photoVersion: null, left: false },
        { id: ben.id, displayName: 'Ben Group', role: 'student', photoVersion: null, left: false },
      ],
      nextLesson: null,
      blockedByMe: false,
      // No family in it: no child it is about, nobody who only reads it.
      about: null,
      child: null,
      parentCanRead: false,
      readOnly: false,
    });

    const sent = await write(teacher, conversationId, 'Welcome! Bring last year’s paper on Monday.');
    expect(sent.status).toBe(201);
    expect(await sent.json()).toMatchObject({ conversationId, senderId: teacher.id });
    expect((await write(ana, conversationId, 'Will do!')).status).toBe(201);

    // Each member's count is their own: what the others wrote after their own reading (writing
    // counts as reading, so Ana has read the tutor's welcome).
    expect((await inbox(teacher)).unreadTotal).toBe(1);
    expect((await inbox(ana)).unreadTotal).toBe(0);
    const bens = await inbox(ben);
    expect(bens.unreadTotal).toBe(2);
    expect(bens.conversations[0]).toMatchObject({ unread: 2, lastMessage: { text: 'Will do!' } });
    const read = await send(t, 'POST', `/api/conversations/${conversationId}/read`, {}, ben.jar);
    expect(await read.json()).toEqual({ unreadTotal: 0 });
    expect((await inbox(teacher)).unreadTotal).toBe(1);
    expect(await texts(ben, conversationId)).toEqual([
      'Welcome! Bring last year’s paper on Monday.',
      'Will do!',
    ]);
  });

  it('is nobody else’s: the waitlist, other students and tutors, and admins find nothing', async () => {
    const [teacher, first, second, waiting, otherTutor] = await people(
      ['tutor'],
      ['student'],
      ['student'],
      ['student'],
      ['tutor'],
    );
    const { classId, conversationId } = await classWith(teacher, [first, second], 'Two seats', 2);
    expect(await enrol(classId, waiting)).toEqual({ status: 'waitlisted', position: 1 });
    expect((await write(teacher, conversationId, 'Hello class')).status).toBe(201);
    const boss = await makeAdmin(t, await person('student', 'Admin Classless'));
    for (const outsider of [waiting, otherTutor, boss]) await shutOut(outsider, conversationId);

    // A seat frees up: the first on the waitlist takes it, and the conversation with it.
    await leave(classId, second);
    await shutOut(second, conversationId);
    expect((await inbox(waiting)).conversations).toEqual([
      expect.objectContaining({ id: conversationId, unread: 0 }),
    ]);
    expect(await texts(waiting, conversationId)).toEqual(['Hello class']);
    expect((await write(waiting, conversationId, 'Glad to be in')).status).toBe(201);
  });

  it('drops a student who leaves and takes them back when they enrol again, with nothing counted from their absence', async () => {
    const [teacher, stays, goes] = await people(['tutor'], ['student'], ['student']);
    const { classId, conversationId } = await classWith(teacher, [stays, goes]);
    expect((await write(goes, conversationId, 'See you all Monday')).status).toBe(201);

    await leave(classId, goes);
    await shutOut(goes, conversationId);
    expect((await inbox(goes)).unreadTotal).toBe(0);
    expect((await write(teacher, conversationId, 'Monday is moved to Tuesday')).status).toBe(201);
    expect((await inbox(goes)).unreadTotal).toBe(0);
    // The others keep their messages, and their name among the members.
    expect(await texts(stays, conversationId)).toEqual(['See you all Monday', 'Monday is moved to Tuesday']);
    const { members } = await (await get(t, `/api/conversations/${conversationId}`, stays.jar)).json();
    expect(members).toContainEqual(expect.objectContaining({ id: goes.id, left: true }));

    expect(await enrol(classId, goes)).toEqual({ status: 'enrolled', position: null });
    const back = await inbox(goes);
    expect(back.conversations).toEqual([expect.objectContaining({ id: conversationId, unread: 0 })]);
    expect(back.unreadTotal).toBe(0);
    // What was said meanwhile is there to read, but was not news to them.
    expect(await texts(goes, conversationId)).toEqual(['See you all Monday', 'Monday is moved to Tuesday']);
    expect((await write(goes, conversationId, 'Tuesday works')).status).toBe(201);
    expect((await inbox(teacher)).unreadTotal).toBe(1);
    expect((await inbox(stays)).unreadTotal).toBe(3);
    const rows = await t.database.db
      .selectFrom('conversation_members')
      .select(['user_id', 'left_at'])
      .where('conversation_id', '=', conversationId)
      .execute();
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.left_at === null)).toBe(true);
  });

  it('is one conversation however often it is opened, the tutor in it once', async () => {
    const [teacher, student] = await people(['tutor'], ['student']);
    const { classId, conversationId } = await classWith(teacher, []);
    // Each call twice, the class's opening at the same time as a student's joining.
    const twice = async (call: (trx: Transaction<DB>) => Promise<void>) => {
      await t.database.db.transaction().execute(call);
      await t.database.db.transaction().execute(call);
    };
    await Promise.all([
      twice((trx) => joinClassConversation(trx, classId, student.id, Date.now())),
      twice((trx) => openClassConversation(trx, { id: classId, tutorId: teacher.id }, Date.now())),
    ]);
    const conversations = await t.database.db
      .selectFrom('conversations')
      .select('id')
      .where('class_id', '=', classId)
      .execute();
    expect(conversations).toEqual([{ id: conversationId }]);
    const members = await t.database.db
      .selectFrom('conversation_members')
      .select(['user_id', 'role'])
      .where('conversation_id', '=', conversationId)
      .orderBy('role', 'desc')
      .execute();
    expect(members).toEqual([
      { user_id: teacher.id, role: 'tutor' },
      { user_id: student.id, role: 'student' },
    ]);
    // The tutor is never "left" by a student's leaving call.
    await t.database.db
      .transaction()
      .execute((trx) => leaveClassConversation(trx, classId, teacher.id, Date.now()));
    expect((await get(t, `/api/conversations/${conversationId}`, teacher.jar)).status).toBe(200);
    // Leaving twice is leaving once; joining again brings the student back.
    await twice((trx) => leaveClassConversation(trx, classId, student.id, Date.now()));
    expect((await get(t, `/api/conversations/${conversationId}`, student.jar)).status).toBe(404);
    await twice((trx) => joinClassConversation(trx, classId, student.id, Date.now()));
    expect((await get(t, `/api/conversations/${conversationId}`, student.jar)).status).toBe(200);
  });

  it('is not stopped by a block between two members', async () => {
    const [teacher, blocker, blocked] = await people(['tutor'], ['student'], ['student']);
    const { conversationId } = await classWith(teacher, [blocker, blocked]);
    expect((await send(t, 'POST', '/api/blocks', { userId: blocked.id }, blocker.jar)).status).toBe(200);
    expect((await write(blocked, conversationId, 'Hi everyone')).status).toBe(201);
    expect((await write(blocker, conversationId, 'Hello')).status).toBe(201);
    expect((await send(t, 'POST', '/api/blocks', { userId: teacher.id }, blocked.jar)).status).toBe(200);
    expect((await write(teacher, conversationId, 'Welcome')).status).toBe(201);
    const listed = await inbox(blocked);
    expect(listed.conversations).toEqual([expect.objectContaining({ id: conversationId, unread: 2 })]);
    const detail = await (await get(t, `/api/conversations/${conversationId}`, blocker.jar)).json();
    expect(detail.blockedByMe).toBe(false);
  });
});

describe('live, reports and mail in a class’s conversation', () => {
  it('delivers each message to every member’s open tabs, and not to a student who left', async () => {
    const [teacher, ana, ben, gone] = await people(['tutor'], ['student'], ['student'], ['student']);
    const { classId, conversationId } = await classWith(teacher, [ana, ben, gone]);
    await leave(classId, gone);
    const tabs = await Promise.all(
      [teacher, teacher, ana, ben, gone].map((who) => openChannel(server.url, who.jar)),
    );
    const sent = await (await write(ana, conversationId, 'Is the room link the same?')).json();
    const isIt = (frame: { type: string; message?: unknown }) =>
      frame.type === 'message' && (frame.message as { id: number }).id === sent.id;
    for (const tab of tabs.slice(0, 4)) expect((await tab.next(isIt)).message).toEqual(sent);
    // A later message reached the others: the one who left heard neither.
    const later = await (await write(teacher, conversationId, 'Yes')).json();
    await tabs[3]?.next(
      (frame) => frame.type === 'message' && (frame.message as { id: number }).id === later.id,
    );
    expect(tabs[4]?.frames.filter((frame) => frame.type === 'message')).toEqual([]);
    for (const tab of tabs) tab.socket.close();
  });

  it('lets a member report another’s message, and a moderator’s hiding reach every member', async () => {
    const [teacher, ana, ben] = await people(['tutor'], ['student'], ['student']);
    const { classId, conversationId } = await classWith(teacher, [ana, ben]);
    const rude = await (await write(ben, conversationId, 'This class is a waste of money')).json();
    const own = await (await write(ana, conversationId, 'Please be kind')).json();
    const report = (who: Person, messageId: number) =>
      send(t, 'POST', `/api/messages/${messageId}/report`, { reason: 'Rude to everyone' }, who.jar);
    expect((await report(ana, own.id)).status).toBe(404);
    const made = await report(ana, rude.id);
    expect(made.status).toBe(201);
    expect((await report(teacher, rude.id)).status).toBe(201);
    // Out of the class, out of its reports too.
    await leave(classId, ana);
    expect((await report(ana, rude.id)).status).toBe(404);

    const boss = await makeAdmin(t, await person('student', 'Admin Moderator'));
    const { reports } = await (await get(t, '/api/admin/reports', boss.jar)).json();
    const queued = reports.filter((r: { reportedText: string }) => r.reportedText === rude.text);
    expect(queued).toHaveLength(2);
    expect(queued[0]).toMatchObject({ kind: 'message', author: { id: ben.id } });

    const tabs = await Promise.all([teacher, ben].map((who) => openChannel(server.url, who.jar)));
    const hide = await send(
      t,
      'POST',
      `/api/admin/reports/${queued[0].id}/hide`,
      { note: 'Be kind.' },
      boss.jar,
    );
    expect(hide.status).toBe(200);
    for (const tab of tabs) {
      const frame = await tab.next((f) => f.type === 'message-hidden');
      expect(frame.message).toMatchObject({ id: rude.id, hidden: true, text: HIDDEN_MESSAGE_TEXT });
      tab.socket.close();
    }
    expect(await texts(teacher, conversationId)).toEqual([HIDDEN_MESSAGE_TEXT, 'Please be kind']);
    const told = await mailbox.waitFor((m) => m.to === ben.email && m.text.includes('Be kind.'));
    expect(told.text).toContain('This class is a waste of money');
  });

  it('mails each member once about what waits unread, naming the class, and nobody who left', async () => {
    const [teacher, ana, ben, cara, gone] = await people(
      ['tutor'],
      ['student', 'Ana Mailed'],
      ['student', 'Ben Mailed'],
      ['student', 'Cara Mailed'],
      ['student'],
    );
    const { classId, conversationId, title } = await classWith(
      teacher,
      [ana, ben, cara, gone],
      'Music theory',
    );
    await leave(classId, gone);
    expect((await write(teacher, conversationId, 'Chapter two for Monday, please.')).status).toBe(201);
    expect((await write(ana, conversationId, 'Which edition?')).status).toBe(201);
    // Ben read it before ten minutes passed, and Ana by writing: nothing waits for them.
    await send(t, 'POST', `/api/conversations/${conversationId}/read`, {}, ben.jar);
    const deps = { db: t.database.db, mailer: t.mailer, appUrl: TEST_APP_URL };
    const minutes = (n: number) => Date.now() + n * 60_000;
    // The class's own mails (enrolled, joined) name it too: these are the conversation's.
    const unreadSubject = `New messages in ${title} on Tutorlane`;
    const groupMails = (who: Person) => mailbox.mailsTo(who.email).filter((m) => m.subject === unreadSubject);

    await mailUnread(deps, minutes(9));
    await t.mailer.deliverDue();
    expect(groupMails(teacher)).toHaveLength(0);
    // Two servers' jobs at once: one mail each.
    await Promise.all([mailUnread(deps, minutes(11)), mailUnread(deps, minutes(11))]);
    const toTutor = await mailbox.waitFor((m) => m.to === teacher.email && m.subject === unreadSubject);
    expect(toTutor.subject).toBe('New messages in Music theory on Tutorlane');
    expect(toTutor.text).toContain(
      'A message waits for you in Music theory on Tutorlane. The latest, from Ana Mailed:',
    );
    expect(toTutor.text).toContain('Which edition?');
    expect(toTutor.text).toContain(`${TEST_APP_URL}/messages/${conversationId}`);
    const toCara = await mailbox.waitFor((m) => m.to === cara.email && m.subject === unreadSubject);
    expect(toCara.text).toContain(
      '2 messages wait for you in Music theory on Tutorlane. The latest, from Ana Mailed:',
    );
    await mailUnread(deps, minutes(30));
    await t.mailer.deliverDue();
    expect(groupMails(teacher)).toHaveLength(1);
    expect(groupMails(cara)).toHaveLength(1);
    for (const none of [ana, ben, gone]) expect(groupMails(none)).toHaveLength(0);
  });
});
