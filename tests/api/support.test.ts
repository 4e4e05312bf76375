/**
 * Conversations with the school's support, on both stores: each person's one conversation (made
 * once, whatever races), which every admin reads and answers through the ordinary message routes
 * while the person sees only "Support"; strangers and revoked admins find nothing; admins are
 * support, not askers; blocks and lessons stay out of it, and only support reports; live frames,
 * unread counts and rate limits behave as for any conversation (mail when away:
 * support-mail.test.ts).
 *
 * Every admin sees every support conversation, so each test finds its own by id rather than
 * counting an admin's whole inbox.
 */
import { describe, expect, it } from 'vitest';
import { grantAdmin, revokeAdmin } from '../../src/server/admin/admins';
import { SUPPORT_ID } from '../../src/shared/constants';
import { type CookieJar, get, send, signUp, verifiedPerson } from '../support/accounts';
import { mailbox, type Person, server, setUpApiTest, t } from '../support/api-app';
import { openChannel } from '../support/live-channel';

setUpApiTest({ listen: true });

interface Summary {
  id: string;
  support: boolean;
  other: { id: string; displayName: string; role: string; photoVersion: string | null };
  lastMessage: { senderId: string | null; text: string } | null;
  unread: number;
}

let count = 0;
function person(role: 'student' | 'tutor', first = role === 'tutor' ? 'Tutor' : 'Student'): Promise<Person> {
  count += 1;
  return verifiedPerson(t, mailbox, role, `${first} Number${count}`);
}

async function admin(first = 'Admin'): Promise<Person> {
  const who = await person('student', first);
  expect((await grantAdmin(t.database.db, who.email)).changed).toBe(true);
  return who;
}

const openSupport = (who: { jar: CookieJar }) => send(t, 'POST', '/api/support/conversation', {}, who.jar);
async function supportOf(who: Person): Promise<string> {
  const res = await openSupport(who);
  expect([200, 201]).toContain(res.status);
  return (await res.json()).conversationId as string;
}
const write = (who: Person, id: string, text: string) =>
  send(t, 'POST', `/api/conversations/${id}/messages`, { text }, who.jar);
const read = (who: Person, id: string) => send(t, 'POST', `/api/conversations/${id}/read`, {}, who.jar);
const inbox = async (who: Person) =>
  (await (await get(t, '/api/conversations', who.jar)).json()) as {
    conversations: Summary[];
    unreadTotal: number;
  };
const rowOf = async (who: Person, id: string) =>
  (await inbox(who)).conversations.find((conversation) => conversation.id === id);
const senders = async (who: Person, id: string) =>
  (
    (await (await get(t, `/api/conversations/${id}/messages`, who.jar)).json()) as {
      messages: { senderId: string }[];
    }
  ).messages.map((message) => message.senderId);

describe('opening a support conversation', () => {
  it('makes the person’s one conversation: 201 the first time, then 200 with the same id', async () => {
    const student = await person('student');
    const first = await openSupport(student);
    expect(first.status).toBe(201);
    const { conversationId } = await first.json();
    expect(conversationId).toMatch(/^[0-9a-f-]{36}$/);
    const again = await openSupport(student);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ conversationId });

    // Theirs at once, empty, with Support on the other side.
    expect((await inbox(student)).conversations).toEqual([
      expect.objectContaining({
        id: conversationId,
        support: true,
        other: { id: SUPPORT_ID, displayName: 'Support', role: 'support', photoVersion: null },
        lastMessage: null,
        unread: 0,
      }),
    ]);
  });

  it('makes exactly one when ten requests race', async () => {
    const tutor = await person('tutor');
    const answers = await Promise.all(Array.from({ length: 10 }, () => openSupport(tutor)));
    expect(answers.map((res) => res.status).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
    ]);
    const ids = new Set(await Promise.all(answers.map(async (res) => (await res.json()).conversationId)));
    expect(ids.size).toBe(1);
    const rows = await t.database.db
      .selectFrom('conversations')
      .select('id')
      .where('requester_id', '=', tutor.id)
      .execute();
    expect(rows.map((row) => row.id)).toEqual([...ids]);
  });

  it('is for verified people: 401 signed out, 403 before the email is verified', async () => {
    const signedOut = await t.request('/api/support/conversation', { method: 'POST', body: '{}' });
    expect(signedOut.status).toBe(401);
    const { jar } = await signUp(t, { name: 'Una Unverified' });
    const unverified = await openSupport({ jar });
    expect(unverified.status).toBe(403);
    expect(await unverified.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
  });
});

describe('support answers', () => {
  it('shows it to every admin under the person’s name; either answers; the person sees only Support', async () => {
    const [ada, bea, student] = await Promise.all([admin('Ada'), admin('Bea'), person('student', 'Sam')]);
    const id = await supportOf(student);
    // Opened but not written in: nothing for support yet.
    expect(await rowOf(ada, id)).toBeUndefined();

    const question = await write(student, id, 'I cannot find my lesson link.');
    expect(question.status).toBe(201);
    expect(await question.json()).toMatchObject({ senderId: student.id, conversationId: id });
    for (const who of [ada, bea]) {
      expect(await rowOf(who, id)).toEqual({
        id,
        support: true,
        class: null,
        other: { id: student.id, displayName: student.name, role: 'student', photoVersion: null },
        lastMessage: expect.objectContaining({ senderId: student.id, text: 'I cannot find my lesson link.' }),
        unread: 1,
        lastActivityAt: expect.any(String),
        about: null,
        child: null,
        parentCanRead: false,
        readOnly: false,
      });
      expect(await (await get(t, `/api/conversations/${id}`, who.jar)).json()).toEqual({
        id,
        support: true,
        class: null,
        other: { id: student.id, displayName: student.name, role: 'student', photoVersion: null },
        members: [],
        nextLesson: null,
        blockedByMe: false,
        about: null,
        child: null,
        parentCanRead: false,
        readOnly: false,
      });
    }

    const unreadBefore = (await inbox(bea)).unreadTotal;
    expect((await write(ada, id, 'It is on your schedule, under Join.')).status).toBe(201);
    // Admins share support's reading: Ada's answer read it for Bea too.
    expect((await rowOf(bea, id))?.unread).toBe(0);
    expect((await inbox(bea)).unreadTotal).toBe(unreadBefore - 1);
    expect((await write(bea, id, 'And in the mail we sent you.')).status).toBe(201);
    // Admins see who answered.
    expect(await senders(bea, id)).toEqual([student.id, ada.id, bea.id]);

    // The person sees every answer as from Support, and nothing that names an admin.
    expect(await senders(student, id)).toEqual([student.id, SUPPORT_ID, SUPPORT_ID]);
    const own = await inbox(student);
    expect(own.unreadTotal).toBe(2);
    expect(own.conversations).toEqual([
      expect.objectContaining({
        id,
        other: { id: SUPPORT_ID, displayName: 'Support', role: 'support', photoVersion: null },
        lastMessage: expect.objectContaining({ senderId: SUPPORT_ID, text: 'And in the mail we sent you.' }),
        unread: 2,
      }),
    ]);
    const seen = [
      JSON.stringify(own),
      await (await get(t, `/api/conversations/${id}`, student.jar)).text(),
      await (await get(t, `/api/conversations/${id}/messages`, student.jar)).text(),
      await (await get(t, `/api/conversations/${id}/messages?after=0`, student.jar)).text(),
    ].join('\n');
    for (const trace of [ada.id, bea.id, ada.name, bea.name, ada.email, bea.email])
      expect(seen).not.toContain(trace);

    expect((await (await read(student, id)).json()).unreadTotal).toBe(0);
    expect((await rowOf(student, id))?.unread).toBe(0);
  });

  it('names a tutor who asks as a tutor, with their photo when they have one', async () => {
    const [ada, tutor] = await Promise.all([admin(), person('tutor', 'Tess')]);
    const id = await supportOf(tutor);
    expect((await write(tutor, id, 'How do I get the Verified badge?')).status).toBe(201);
    expect((await rowOf(ada, id))?.other).toEqual({
      id: tutor.id,
      displayName: tutor.name,
      role: 'tutor',
      photoVersion: null,
    });
  });

  it('is nobody else’s: a stranger gets 404 everywhere, and a revoked admin no longer sees it', async () => {
    const [ada, student, stranger] = await Promise.all([admin(), person('student'), person('student')]);
    const id = await supportOf(student);
    const { id: messageId } = await (await write(student, id, 'Private question')).json();
    expect(await rowOf(ada, id)).toBeDefined();

    for (const outsider of [stranger]) {
      expect((await get(t, `/api/conversations/${id}`, outsider.jar)).status).toBe(404);
      expect((await get(t, `/api/conversations/${id}/messages`, outsider.jar)).status).toBe(404);
      expect((await write(outsider, id, 'Let me in')).status).toBe(404);
      expect((await read(outsider, id)).status).toBe(404);
      expect(
        (await send(t, 'POST', `/api/messages/${messageId}/report`, { reason: 'x' }, outsider.jar)).status,
      ).toBe(404);
      expect(await rowOf(outsider, id)).toBeUndefined();
    }

    const unreadAsAdmin = (await inbox(ada)).unreadTotal;
    expect((await revokeAdmin(t.database.db, ada.email)).changed).toBe(true);
    expect(await rowOf(ada, id)).toBeUndefined();
    expect((await inbox(ada)).unreadTotal).toBeLessThan(unreadAsAdmin);
    expect((await get(t, `/api/conversations/${id}`, ada.jar)).status).toBe(404);
    expect((await get(t, `/api/conversations/${id}/messages`, ada.jar)).status).toBe(404);
    expect((await write(ada, id, 'Still here?')).status).toBe(404);
    expect((await read(ada, id)).status).toBe(404);
  });
});

describe('admins and support', () => {
  it('refuses an admin asking support (409): they are support', async () => {
    const ada = await admin();
    const res = await openSupport(ada);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      message:
        'You are on the support team: conversations with Support are in your messages, under each person’s name.',
      code: 'IS_ADMIN',
    });
    expect(
      await t.database.db
        .selectFrom('conversations')
        .select('id')
        .where('requester_id', '=', ada.id)
        .execute(),
    ).toEqual([]);
  });

  it('keeps the conversation of a person made admin later as theirs: they stay the person in it', async () => {
    const [ada, asker] = await Promise.all([admin(), person('tutor', 'Gus')]);
    const id = await supportOf(asker);
    expect((await write(asker, id, 'Before my promotion')).status).toBe(201);
    expect((await grantAdmin(t.database.db, asker.email)).changed).toBe(true);

    // Still theirs, once, with Support on the other side.
    expect((await openSupport(asker)).status).toBe(200);
    const theirs = (await inbox(asker)).conversations.filter((conversation) => conversation.id === id);
    expect(theirs).toEqual([expect.objectContaining({ other: expect.objectContaining({ id: SUPPORT_ID }) })]);
    // What they write counts as the person's, unread for the other admins.
    expect((await write(asker, id, 'After it')).status).toBe(201);
    expect((await rowOf(ada, id))?.unread).toBe(2);
    expect((await write(ada, id, 'Welcome aboard')).status).toBe(201);
    expect(await senders(asker, id)).toEqual([asker.id, asker.id, SUPPORT_ID]);
    expect((await rowOf(asker, id))?.unread).toBe(1);
  });
});

describe('what applies between two people only', () => {
  it('lets nobody block Support, and a block between the people behind it changes nothing', async () => {
    const [ada, student] = await Promise.all([admin(), person('student')]);
    const id = await supportOf(student);
    expect((await write(student, id, 'Hello support')).status).toBe(201);

    const blockSupport = await send(t, 'POST', '/api/blocks', { userId: SUPPORT_ID }, student.jar);
    expect(blockSupport.status).toBe(404);
    // Even knowing an admin's id from elsewhere, and blocked by that admin, support still works.
    expect((await send(t, 'POST', '/api/blocks', { userId: ada.id }, student.jar)).status).toBe(200);
    expect((await send(t, 'POST', '/api/blocks', { userId: student.id }, ada.jar)).status).toBe(200);
    expect((await write(ada, id, 'We are here')).status).toBe(201);
    expect((await write(student, id, 'Thanks')).status).toBe(201);
    expect(await rowOf(student, id)).toMatchObject({ unread: 0 });
    expect(await rowOf(ada, id)).toMatchObject({ unread: 1 });
    expect((await (await get(t, `/api/conversations/${id}`, ada.jar)).json()).blockedByMe).toBe(false);
  });

  it('lets support report what the person wrote, into the moderation queue; the person reports nothing', async () => {
    const [ada, bea, student] = await Promise.all([admin('Ada'), admin('Bea'), person('student')]);
    const id = await supportOf(student);
    const { id: insult } = await (await write(student, id, 'You are all useless.')).json();
    const { id: answer } = await (await write(ada, id, 'We are here to help.')).json();
    const { id: colleague } = await (await write(bea, id, 'Indeed we are.')).json();
    const report = (who: Person, messageId: number) =>
      send(t, 'POST', `/api/messages/${messageId}/report`, { reason: 'Insulting support' }, who.jar);
    // The person does not report the team to itself; admins report neither their own nor a colleague's.
    expect((await report(student, answer)).status).toBe(404);
    expect((await report(ada, answer)).status).toBe(404);
    expect((await report(ada, colleague)).status).toBe(404);

    const reported = await report(bea, insult);
    expect(reported.status).toBe(201);
    const reportId = `message-${(await reported.json()).id}`;
    const queue = (await (await get(t, '/api/admin/reports', ada.jar)).json()).reports as { id: string }[];
    expect(queue.find((entry) => entry.id === reportId)).toMatchObject({
      kind: 'message',
      reportedText: 'You are all useless.',
      reporter: { id: bea.id },
      author: { id: student.id, admin: false },
    });

    // Hidden, it is hidden on both sides, live for the person.
    const tab = await openChannel(server.url, student.jar);
    await tab.next((frame) => frame.type === 'ready');
    expect((await send(t, 'POST', `/api/admin/reports/${reportId}/hide`, {}, ada.jar)).status).toBe(200);
    expect((await tab.next((frame) => frame.type === 'message-hidden')).message).toMatchObject({
      id: insult,
      senderId: student.id,
      hidden: true,
    });
    for (const who of [student, bea]) {
      const lines = (await (await get(t, `/api/conversations/${id}/messages`, who.jar)).json()).messages;
      expect(lines[0]).toMatchObject({ id: insult, hidden: true });
      expect(JSON.stringify(lines)).not.toContain('You are all useless.');
    }
    tab.socket.close();
  });

  it('gets no lesson lines and no next lesson, even when the person books a lesson with an admin', async () => {
    const [teacher, student] = await Promise.all([person('tutor'), person('student')]);
    const details = {
      headline: 'Algebra',
      about: 'Patient.',
      subjects: ['Algebra'],
      hourlyRate: 30,
      languages: ['English'],
    };
    expect((await send(t, 'PATCH', '/api/profile/details', details, teacher.jar)).status).toBe(200);
    const availability = {
      timeZone: 'UTC',
      weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '00:00', end: '23:00' })),
      overrides: [],
      lessonMinutes: [60],
      slotStepMinutes: 60,
      minimumNoticeHours: 0,
      bookingHorizonDays: 30,
      bufferMinutes: 0,
      instantBooking: true,
    };
    expect((await send(t, 'PUT', '/api/availability', availability, teacher.jar)).status).toBe(200);
    expect((await grantAdmin(t.database.db, teacher.email)).changed).toBe(true);
    const id = await supportOf(student);
    expect((await write(student, id, 'Before booking')).status).toBe(201);

    const day = new Date(Date.now() + 2 * 86_400_000);
    const start = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 11));
    const booked = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: teacher.id, start: start.toISOString(), minutes: 60, subject: 'Algebra' },
      student.jar,
    );
    expect(booked.status, await booked.clone().text()).toBe(201);

    const lines = (await (await get(t, `/api/conversations/${id}/messages`, teacher.jar)).json()).messages;
    expect(lines.map((line: { text: string; event: unknown }) => [line.text, line.event])).toEqual([
      ['Before booking', null],
    ]);
    expect((await (await get(t, `/api/conversations/${id}`, teacher.jar)).json()).nextLesson).toBeNull();
    expect((await (await get(t, `/api/conversations/${id}`, student.jar)).json()).nextLesson).toBeNull();
    // The lesson's line went to the pair's own conversation.
    const pair = (await inbox(student)).conversations.find((conversation) => !conversation.support);
    expect(pair).toMatchObject({ other: { id: teacher.id }, lastMessage: { senderId: null } });
  });
});

describe('live and limits', () => {
  it('delivers each message live to the person and to every admin, answers as Support', async () => {
    const [ada, bea, student] = await Promise.all([admin('Ada'), admin('Bea'), person('student')]);
    const id = await supportOf(student);
    const [personTab, adaTab, beaTab] = await Promise.all([
      openChannel(server.url, student.jar),
      openChannel(server.url, ada.jar),
      openChannel(server.url, bea.jar),
    ]);
    for (const tab of [personTab, adaTab, beaTab]) await tab.next((frame) => frame.type === 'ready');
    const ofThis = (type: string, text: string) => (frame: { type: string; [key: string]: unknown }) =>
      frame.type === type &&
      (frame.message as { conversationId: string; text: string }).conversationId === id &&
      (frame.message as { text: string }).text === text;

    expect((await write(student, id, 'Is anyone there?')).status).toBe(201);
    for (const tab of [adaTab, beaTab])
      expect((await tab.next(ofThis('message', 'Is anyone there?'))).message).toMatchObject({
        senderId: student.id,
      });

    expect((await write(ada, id, 'Yes, Ada here... I mean, Support.')).status).toBe(201);
    const answer = await personTab.next(ofThis('message', 'Yes, Ada here... I mean, Support.'));
    expect(answer.message).toMatchObject({ senderId: SUPPORT_ID });
    expect(JSON.stringify(personTab.frames)).not.toContain(ada.id);
    expect((await beaTab.next(ofThis('message', 'Yes, Ada here... I mean, Support.'))).message).toMatchObject(
      {
        senderId: ada.id,
      },
    );
    // Answered is read, for every admin: Bea's tabs stop counting it.
    expect(await beaTab.next((frame) => frame.type === 'read' && frame.conversationId === id)).toMatchObject({
      unreadTotal: (await inbox(bea)).unreadTotal,
    });
    expect(adaTab.frames.some((frame) => frame.type === 'read')).toBe(false);

    // One admin reads it for all: the other admins' tabs are told.
    expect((await write(student, id, 'Thanks!')).status).toBe(201);
    await beaTab.next(ofThis('message', 'Thanks!'));
    const readsBefore = beaTab.frames.filter((frame) => frame.type === 'read').length;
    expect((await read(ada, id)).status).toBe(200);
    await beaTab.next(() => beaTab.frames.filter((frame) => frame.type === 'read').length > readsBefore);
    expect(beaTab.frames.filter((frame) => frame.type === 'read').at(-1)).toMatchObject({
      conversationId: id,
      unreadTotal: (await inbox(bea)).unreadTotal,
    });
    expect(personTab.frames.some((frame) => frame.type === 'read')).toBe(false);
    for (const tab of [personTab, adaTab, beaTab]) tab.socket.close();
  });

  it('allows 30 messages a minute, as in any conversation', async () => {
    const student = await person('student');
    const id = await supportOf(student);
    for (let n = 1; n <= 30; n += 1) expect((await write(student, id, `Line ${n}`)).status).toBe(201);
    const refused = await write(student, id, 'One more');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
