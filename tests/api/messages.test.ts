/**
 * Messages over the API and the live channel: who may start, read and answer a conversation;
 * strangers find nothing; blocks and reports; rate limits; pages of messages that come back
 * complete and in order; lines lessons write; the mail for messages left unread; and the
 * WebSocket that delivers each message to the other side as it is sent.
 */
import { describe, expect, it } from 'vitest';
import { grantAdmin } from '../../src/server/admin/admins';
import { generateDemoTutors, insertDemoTutors } from '../../src/server/demo/demo-tutors';
import { mailUnread } from '../../src/server/messages/unread-mail';
import { type CookieJar, get, send, signUp } from '../support/accounts';
import { mailbox, type Person, person, server, setUpApiTest, t } from '../support/api-app';
import { openChannel } from '../support/live-channel';
import { linkIn } from '../support/mail-catcher';
import { TEST_APP_URL } from '../support/test-app';

setUpApiTest({ listen: true });

/** A published tutor, teaching Algebra from 09:00 to 17:00 every day in Lisbon. */
async function tutor(): Promise<Person> {
  const who = await person('tutor');
  const details = {
    headline: 'Algebra',
    about: 'Patient.',
    subjects: ['Algebra'],
    hourlyRate: 30,
    languages: ['English'],
  };
  expect((await send(t, 'PATCH', '/api/profile/details', details, who.jar)).status).toBe(200);
  const hours = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));
  const availability = {
    timeZone: 'Europe/Lisbon',
    weekly: hours,
    overrides: [],
    lessonMinutes: [60],
    slotStepMinutes: 60,
    minimumNoticeHours: 0,
    bookingHorizonDays: 30,
    bufferMinutes: 0,
    instantBooking: true,
  };
  expect((await send(t, 'PUT', '/api/availability', availability, who.jar)).status).toBe(200);
  return who;
}

const start = (student: Person, tutorId: string, text: string) =>
  send(t, 'POST', '/api/conversations', { tutorId, text }, student.jar);
const write = (who: Person, conversationId: string, text: string) =>
  send(t, 'POST', `/api/conversations/${conversationId}/messages`, { text }, who.jar);
const inbox = async (who: Person) => (await get(t, '/api/conversations', who.jar)).json();
const page = async (who: Person, conversationId: string, query = '') =>
  (await get(t, `/api/conversations/${conversationId}/messages${query}`, who.jar)).json();

/** The next whole hour at least two days ahead, on a day and hour the Lisbon tutor teaches. */
function lessonStart(daysAhead = 2, hourUtc = 11) {
  const day = new Date(Date.now() + daysAhead * 86_400_000);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hourUtc)).toISOString();
}

async function book(student: Person, tutorId: string, daysAhead = 2) {
  const res = await send(
    t,
    'POST',
    '/api/lessons',
    { tutorId, start: lessonStart(daysAhead), minutes: 60, subject: 'Algebra' },
    student.jar,
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

describe('conversations', () => {
  it('lets a student write to a tutor, the tutor answer, and each see what is unread', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const opened = await start(student, teacher.id, 'Hello! Do you teach exam prep?');
    expect(opened.status).toBe(201);
    const { id, message } = await opened.json();
    expect(message).toMatchObject({
      conversationId: id,
      senderId: student.id,
      text: 'Hello! Do you teach exam prep?',
    });
    expect(typeof message.id).toBe('number');

    const tutorInbox = await inbox(teacher);
    expect(tutorInbox.unreadTotal).toBe(1);
    expect(tutorInbox.conversations).toEqual([
      expect.objectContaining({
        id,
        other: { id: student.id, displayName: student.name, role: 'student', photoVersion: null },
        unread: 1,
        lastMessage: expect.objectContaining({ text: 'Hello! Do you teach exam prep?' }),
      }),
    ]);
    expect((await write(teacher, id, 'Yes, every week.')).status).toBe(201);
    // Writing counts as reading: the tutor has nothing unread, the student one.
    expect((await inbox(teacher)).unreadTotal).toBe(0);
    expect((await inbox(student)).unreadTotal).toBe(1);
    const read = await send(t, 'POST', `/api/conversations/${id}/read`, {}, student.jar);
    expect(await read.json()).toEqual({ unreadTotal: 0 });
    const { messages } = await page(student, id);
    expect(messages.map((m: { text: string }) => m.text)).toEqual([
      'Hello! Do you teach exam prep?',
      'Yes, every week.',
    ]);
    // Writing again from the tutor's page continues the same conversation.
    const again = await start(student, teacher.id, 'Great, thanks.');
    expect((await again.json()).id).toBe(id);
  });

  it('lists conversations whose latest lines share a time with the latest line first', async () => {
    const [teacher, first, second] = await Promise.all([tutor(), person('student'), person('student')]);
    const a = (await (await start(first, teacher.id, 'Hello from the first')).json()).id as string;
    const b = (await (await start(second, teacher.id, 'Hello from the second')).json()).id as string;
    // As the lines one transaction writes into several conversations leave them: one time.
    const sameTime = () =>
      t.database.db
        .updateTable('conversations')
        .set({ last_activity_at: new Date('2026-11-02T10:00:00Z') })
        .where('id', 'in', [a, b])
        .execute();
    const order = async () => (await inbox(teacher)).conversations.map((c: { id: string }) => c.id);
    await sameTime();
    expect(await order()).toEqual([b, a]);
    expect((await write(first, a, 'And again')).status).toBe(201);
    await sameTime();
    expect(await order()).toEqual([a, b]);
  });

  it('lets a tutor write first only to a student who booked them', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const cold = await send(
      t,
      'POST',
      '/api/conversations',
      { studentId: student.id, text: 'Hi!' },
      teacher.jar,
    );
    expect(cold.status).toBe(403);
    expect(await cold.json()).toEqual({
      message: 'You can write to a student once they have booked a lesson with you.',
      code: 'FORBIDDEN',
    });
    await book(student, teacher.id);
    const warm = await send(
      t,
      'POST',
      '/api/conversations',
      { studentId: student.id, text: 'See you soon!' },
      teacher.jar,
    );
    expect(warm.status).toBe(201);
  });

  it('writes each lesson change into the pair’s conversation as a line of its own', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const lesson = await book(student, teacher.id);
    const [conversation] = (await inbox(student)).conversations;
    expect(conversation.unread).toBe(0);
    expect((await send(t, 'POST', `/api/lessons/${lesson.id}/cancel`, {}, teacher.jar)).status).toBe(200);
    const { messages } = await page(student, conversation.id);
    expect(
      messages.map((m: { senderId: string | null; event: { event: string } }) => [m.senderId, m.event.event]),
    ).toEqual([
      [null, 'confirmed'],
      [null, 'cancelled'],
    ]);
    expect(messages[0].event).toMatchObject({ lessonId: lesson.id, start: lesson.start, subject: 'Algebra' });
  });

  it('shows the pair’s next lesson beside the conversation', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const lesson = await book(student, teacher.id, 3);
    const [conversation] = (await inbox(teacher)).conversations;
    const detail = await (await get(t, `/api/conversations/${conversation.id}`, teacher.jar)).json();
    expect(detail).toMatchObject({
      id: conversation.id,
      other: { id: student.id, displayName: student.name, role: 'student' },
      nextLesson: { id: lesson.id, start: lesson.start, status: 'confirmed' },
      blockedByMe: false,
    });
  });

  it('answers 404 to anyone but its two people, on every route', async () => {
    const [teacher, student, stranger] = await Promise.all([tutor(), person('student'), person('student')]);
    const { id, message } = await (await start(student, teacher.id, 'Private')).json();
    expect((await get(t, `/api/conversations/${id}`, stranger.jar)).status).toBe(404);
    expect((await get(t, `/api/conversations/${id}/messages`, stranger.jar)).status).toBe(404);
    expect((await write(stranger, id, 'Let me in')).status).toBe(404);
    expect((await send(t, 'POST', `/api/conversations/${id}/read`, {}, stranger.jar)).status).toBe(404);
    const report = await send(
      t,
      'POST',
      `/api/messages/${message.id}/report`,
      { reason: 'spam' },
      stranger.jar,
    );
    expect(report.status).toBe(404);
    expect((await inbox(stranger)).conversations).toEqual([]);
    expect((await get(t, '/api/conversations/not-an-id', student.jar)).status).toBe(404);
  });

  it('refuses empty, overlong and control-character text with a clear 400', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    for (const [text, message] of [
      ['   ', 'Please write a message'],
      ['x'.repeat(2001), 'A message must be at most 2000 characters'],
      ['nul\u0000byte', 'A message must not contain control characters'],
    ] as const) {
      const res = await start(student, teacher.id, text);
      expect(res.status, JSON.stringify(text)).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
    const missing = await send(t, 'POST', '/api/conversations', { text: 'Hi' }, student.jar);
    expect((await missing.json()).message).toBe('Say who the message is for: tutorId or studentId');
    expect((await start(student, 'no-such-tutor', 'Hi')).status).toBe(404);
    // 2,000 characters exactly, and line breaks, are fine.
    const opened = await start(student, teacher.id, `${'y'.repeat(1990)}\nthanks!!`);
    expect(opened.status).toBe(201);
    // A reply over the limit is refused whole, in words naming the limit, and nothing is kept.
    const { id } = await opened.json();
    const reply = await write(teacher, id, 'z'.repeat(2001));
    expect(reply.status).toBe(400);
    expect((await reply.json()).message).toBe('A message must be at most 2000 characters');
    expect((await page(teacher, id)).messages).toHaveLength(1);
  });
});

describe('pages of messages', () => {
  it('gives everything after the last message a client has, complete and in order', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const { id } = await (await start(student, teacher.id, 'message 0')).json();
    // Straight into the database: the rate limit allows 30 a minute.
    const first = (await page(student, id)).messages[0].id as number;
    await t.database.db
      .insertInto('messages')
      .values(
        Array.from({ length: 149 }, (_, i) => ({
          conversation_id: id,
          sender_id: i % 2 ? student.id : teacher.id,
          body: `message ${i + 1}`,
        })),
      )
      .execute();
    const latest = await page(student, id);
    expect(latest.messages).toHaveLength(100);
    expect(latest.hasOlder).toBe(true);
    expect(latest.messages.at(-1).text).toBe('message 149');
    const after = await page(student, id, `?after=${first}`);
    expect(after.hasMore).toBe(true);
    const rest = await page(student, id, `?after=${after.messages.at(-1).id}`);
    expect(rest.hasMore).toBe(false);
    const texts = [...after.messages, ...rest.messages].map((m: { text: string }) => m.text);
    expect(texts).toEqual(Array.from({ length: 149 }, (_, i) => `message ${i + 1}`));
    const ids = [...after.messages, ...rest.messages].map((m: { id: number }) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect((await get(t, `/api/conversations/${id}/messages?after=x`, student.jar)).status).toBe(400);
  });

  it('keeps the latest line and each side’s reading right when both write at once', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const { id } = await (await start(student, teacher.id, 'Hi')).json();
    const sent = await Promise.all(
      Array.from({ length: 20 }, (_, i) => write(i % 2 ? student : teacher, id, `at once ${i}`)),
    );
    expect(sent.map((res) => res.status)).toEqual(Array(20).fill(201));
    const newest = Math.max(...(await page(student, id)).messages.map((m: { id: number }) => m.id));
    const summary = (await inbox(teacher)).conversations[0];
    expect(summary.lastMessage.id).toBe(newest);
    for (const who of [teacher, student]) {
      const read = await send(t, 'POST', `/api/conversations/${id}/read`, {}, who.jar);
      expect(await read.json()).toEqual({ unreadTotal: 0 });
    }
  });
});

describe('blocks and reports', () => {
  it('refuses a blocked person’s messages without saying why, and hides them from the blocker', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const { id } = await (await start(student, teacher.id, 'Hi')).json();
    expect((await send(t, 'POST', '/api/blocks', { userId: student.id }, teacher.jar)).status).toBe(200);
    const refused = await write(student, id, 'Hello?');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: 'This message could not be sent.', code: 'FORBIDDEN' });
    expect((await start(student, teacher.id, 'Please')).status).toBe(403);
    expect((await inbox(teacher)).conversations).toEqual([]);
    // The student's own view is unchanged: nothing tells them.
    expect((await inbox(student)).conversations.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await get(t, `/api/conversations/${id}`, teacher.jar).then((r) => r.json())).blockedByMe).toBe(
      true,
    );
    // Nor does the blocker write to someone who could not answer.
    const own = await write(teacher, id, 'One last thing');
    expect(own.status).toBe(403);
    expect(await own.json()).toEqual({
      message: 'You blocked this person. Unblock them to write to them.',
      code: 'BLOCKED_BY_YOU',
    });

    expect((await send(t, 'DELETE', `/api/blocks/${student.id}`, {}, teacher.jar)).status).toBe(200);
    expect((await write(student, id, 'Hello again')).status).toBe(201);
    expect((await inbox(teacher)).conversations.map((c: { id: string }) => c.id)).toEqual([id]);
  });

  it('keeps a report with its reason and a copy of the text, for messages written by the other side', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const { id, message } = await (
      await start(student, teacher.id, 'Buy cheap essays at example.com')
    ).json();
    const report = (reason: string, messageId = message.id, who = teacher) =>
      send(t, 'POST', `/api/messages/${messageId}/report`, { reason }, who.jar);
    expect((await report('')).status).toBe(400);
    expect((await report('x'.repeat(501))).status).toBe(400);
    expect((await report('Advertising', message.id, student)).status).toBe(404);
    const made = await report('Advertising');
    expect(made.status).toBe(201);
    const row = await t.database.db
      .selectFrom('message_reports')
      .selectAll()
      .where('id', '=', (await made.json()).id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      reporter_id: teacher.id,
      reason: 'Advertising',
      message_text: 'Buy cheap essays at example.com',
    });
    expect(id).toBeTruthy();
  });

  it('keeps one open report per reporter and message: a second one, even sent at once, is the first', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const { message } = await (await start(student, teacher.id, 'Spam, spam, spam')).json();
    const report = (reason: string) =>
      send(t, 'POST', `/api/messages/${message.id}/report`, { reason }, teacher.jar);
    const first = await report('Spam');
    expect(first.status).toBe(201);
    const { id } = await first.json();
    const again = await Promise.all(Array.from({ length: 8 }, (_, n) => report(`Spam ${n}`)));
    expect(again.map((res) => res.status)).toEqual(Array(8).fill(200));
    for (const res of again) expect(await res.json()).toEqual({ reported: true, id });
    const open = () =>
      t.database.db
        .selectFrom('message_reports')
        .select(['id', 'reason'])
        .where('message_id', '=', message.id)
        .where('resolved_at', 'is', null)
        .execute();
    expect((await open()).map((row) => ({ id: Number(row.id), reason: row.reason }))).toEqual([
      { id, reason: 'Spam' },
    ]);
    // The database holds the rule, whoever writes.
    await expect(
      t.database.db
        .insertInto('message_reports')
        .values({ message_id: message.id, reporter_id: teacher.id, reason: 'Again', message_text: 'x' })
        .execute(),
    ).rejects.toThrow(/message_reports_one_open_idx/);

    // Once a moderator settled it, the same person may report the message again.
    const admin = await person('student');
    await grantAdmin(t.database.db, admin.email);
    const dismissed = await send(t, 'POST', `/api/admin/reports/message-${id}/dismiss`, {}, admin.jar);
    expect(dismissed.status).toBe(200);
    const anew = await report('Still spam');
    expect(anew.status).toBe(201);
    expect((await anew.json()).id).not.toBe(id);
  });

  it('refuses blocking oneself, or nobody', async () => {
    const student = await person('student');
    expect((await send(t, 'POST', '/api/blocks', { userId: student.id }, student.jar)).status).toBe(400);
    expect((await send(t, 'POST', '/api/blocks', { userId: 'nobody-at-all' }, student.jar)).status).toBe(404);
  });
});

describe('rate limits', () => {
  it('allows 30 messages a minute per user, the opening one included', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const { id } = await (await start(student, teacher.id, 'one')).json();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await write(student, id, `more ${i}`)).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(29);
    expect(statuses.at(-1)).toBe(429);
    const refused = await write(student, id, 'and another');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await refused.json()).message).toBe(
      'You are sending messages too quickly: at most 30 a minute. Please wait a moment.',
    );
  });

  it('allows 20 message reports an hour per user, repeats included', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const { message } = await (await start(student, teacher.id, 'Annoying')).json();
    const report = () =>
      send(t, 'POST', `/api/messages/${message.id}/report`, { reason: 'Annoying' }, teacher.jar);
    for (let n = 0; n < 20; n += 1) expect([200, 201]).toContain((await report()).status);
    const refused = await report();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await refused.json()).message).toBe(
      'You have sent many reports: at most 20 an hour. Please try again later.',
    );
  });

  it('allows a student 10 new conversations a day', async () => {
    const student = await person('student');
    const tutors = generateDemoTutors(11, 4242).map((demo, i) => ({
      ...demo,
      id: `${demo.id}-msg-${i}`,
      email: `msg-${i}-${demo.email}`,
    }));
    await insertDemoTutors(t.database.db, tutors, { photos: false });
    const statuses: number[] = [];
    for (const demo of tutors) statuses.push((await start(student, demo.id, 'Hello')).status);
    expect(statuses).toEqual([...Array(10).fill(201), 429]);
    const refused = await start(student, tutors[10]?.id ?? '', 'Hello again');
    expect((await refused.json()).message).toBe(
      'You can start at most 10 new conversations a day. Please try again tomorrow.',
    );
    // Writing in a conversation that exists is not a new one.
    expect((await start(student, tutors[0]?.id ?? '', 'Still there?')).status).toBe(201);
  });
});

describe('mail for unread messages', () => {
  it('mails once per conversation after ten minutes, again only after a read or an answer, never when turned off', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const { id } = await (await start(student, teacher.id, 'Are you free on Friday?')).json();
    const deps = { db: t.database.db, mailer: t.mailer, appUrl: TEST_APP_URL };
    const minutes = (n: number) => Date.now() + n * 60_000;
    const mailsToTutor = () =>
      mailbox.mailsTo(teacher.email).filter((m) => m.subject.includes('sent you a message'));

    await mailUnread(deps, minutes(9));
    await t.mailer.deliverDue();
    expect(mailsToTutor()).toHaveLength(0);
    // Two servers' jobs at once: one mail.
    await Promise.all([mailUnread(deps, minutes(11)), mailUnread(deps, minutes(11))]);
    const mail = await mailbox.waitFor(
      (m) => m.to === teacher.email && m.subject.includes('sent you a message'),
    );
    expect(mail.subject).toBe(`${student.name} sent you a message on Tutorlane`);
    expect(mail.text).toContain('Are you free on Friday?');
    expect(mail.text).toContain(`${TEST_APP_URL}/messages/${id}`);
    expect((await write(student, id, 'Or Saturday?')).status).toBe(201);
    await mailUnread(deps, minutes(25));
    await t.mailer.deliverDue();
    expect(mailsToTutor()).toHaveLength(1);
    // Read, then something new: the next mail may go.
    await send(t, 'POST', `/api/conversations/${id}/read`, {}, teacher.jar);
    expect((await write(student, id, 'Sunday works too')).status).toBe(201);
    await mailUnread(deps, minutes(40));
    await mailbox.waitFor(() => mailsToTutor().length === 2);
    // Writing back counts as reading: the next message the tutor leaves unread is mailed too.
    expect((await write(teacher, id, 'Sunday is fine.')).status).toBe(201);
    expect((await write(student, id, 'See you then!')).status).toBe(201);
    await mailUnread(deps, minutes(50));
    await mailbox.waitFor(() => mailsToTutor().length === 3);

    // Turned off on the profile: nothing more.
    expect(
      (await send(t, 'PATCH', '/api/profile/details', { messageMails: false }, teacher.jar)).status,
    ).toBe(200);
    await send(t, 'POST', `/api/conversations/${id}/read`, {}, teacher.jar);
    expect((await write(student, id, 'Hello?')).status).toBe(201);
    await mailUnread(deps, minutes(60));
    await t.mailer.deliverDue();
    expect(mailsToTutor()).toHaveLength(3);
    expect((await get(t, '/api/profile/details', teacher.jar).then((r) => r.json())).messageMails).toBe(
      false,
    );
  });
});

describe('the live channel', () => {
  it('delivers a message to the other side, and a read to the reader’s other tabs', async () => {
    const [teacher, student] = await Promise.all([tutor(), person('student')]);
    const tutorTab = await openChannel(server.url, teacher.jar);
    const tutorOtherTab = await openChannel(server.url, teacher.jar);
    await tutorTab.next((frame) => frame.type === 'ready');
    const { id } = await (await start(student, teacher.id, 'Live?')).json();
    const arrived = await tutorTab.next((frame) => frame.type === 'message');
    expect(arrived.message).toMatchObject({ conversationId: id, text: 'Live?', senderId: student.id });
    await tutorOtherTab.next((frame) => frame.type === 'message');
    await send(t, 'POST', `/api/conversations/${id}/read`, {}, teacher.jar);
    expect(await tutorOtherTab.next((frame) => frame.type === 'read')).toMatchObject({
      conversationId: id,
      unreadTotal: 0,
    });
    tutorTab.socket.close();
    tutorOtherTab.socket.close();
  });

  it('refuses a connection without a session (401), unverified (403), or from another site (403)', async () => {
    const { CookieJar: Jar } = await import('../support/accounts');
    await expect(openChannel(server.url, new Jar())).rejects.toThrow('HTTP 401');
    const unverified = await signUp(t, { role: 'student' });
    await expect(openChannel(server.url, unverified.jar)).rejects.toThrow('HTTP 403');
    const student = await person('student');
    await expect(openChannel(server.url, student.jar, 'https://evil.example')).rejects.toThrow('HTTP 403');
  });

  it('closes a tab’s channel when its session signs out', async () => {
    const student = await person('student');
    const tab = await openChannel(server.url, student.jar);
    await tab.next((frame) => frame.type === 'ready');
    expect((await send(t, 'POST', '/api/auth/sign-out', {}, student.jar)).status).toBe(200);
    expect(await tab.closed).toBe(4001);
  });

  /** How each way of ending a session is taken, for `who`. */
  const endings = {
    'a sign-out': async (who: Person) => {
      expect((await send(t, 'POST', '/api/auth/sign-out', {}, who.jar)).status).toBe(200);
    },
    'a password reset': async (who: Person) => {
      await send(t, 'POST', '/api/auth/request-password-reset', { email: who.email });
      const mail = await mailbox.waitFor(
        (candidate) => candidate.to === who.email && candidate.subject === 'Reset your Tutorlane password',
      );
      const token = new URL(linkIn(mail, '/reset-password?token=')).searchParams.get('token');
      const reset = { token, newPassword: 'a-whole-new-pass-42', confirmPassword: 'a-whole-new-pass-42' };
      expect((await send(t, 'POST', '/api/auth/reset-password', reset)).status).toBe(200);
    },
    'a suspension': async (who: Person) => {
      const admin = await person('student');
      await grantAdmin(t.database.db, admin.email);
      const suspend = { reason: 'Abuse' };
      expect((await send(t, 'POST', `/api/admin/users/${who.id}/suspend`, suspend, admin.jar)).status).toBe(
        200,
      );
    },
  };

  // A request may carry two session cookies: a `__Secure-` one beside the plain one, or one name
  // twice. The channel signs in with one of them; whatever the other names, the socket belongs to
  // the session that signed it in, and ends with it.
  it.each([
    ['a `__Secure-` cookie', 'a sign-out'],
    ['the same name twice', 'a sign-out'],
    ['a `__Secure-` cookie', 'a password reset'],
    ['a `__Secure-` cookie', 'a suspension'],
  ] as const)('closes a channel opened with a second session cookie (%s) at %s', async (shape, ending) => {
    const [victim, other] = await Promise.all([person('student'), person('student')]);
    const otherToken = other.jar.get('tutorlane.session_token');
    const name =
      shape === 'the same name twice' ? 'tutorlane.session_token' : '__Secure-tutorlane.session_token';
    const cookie = `${victim.jar.header()}; ${name}=${otherToken}`;
    const tab = await openChannel(server.url, { header: () => cookie } as CookieJar);
    await tab.next((frame) => frame.type === 'ready');
    await endings[ending](victim);
    const stayedOpen = new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error('the channel outlived its session')), 5000).unref();
    });
    expect(await Promise.race([tab.closed, stayedOpen])).toBe(4001);
  });
});
