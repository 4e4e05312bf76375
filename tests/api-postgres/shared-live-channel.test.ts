/**
 * Two servers on one PostgreSQL: a message sent through one reaches a tab connected to the other,
 * live, through PostgreSQL's LISTEN/NOTIFY, even while the queries hold every pooled connection;
 * a support answer reaches the person as Support there too.
 */
import type { Pool, PoolClient } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { grantAdmin } from '../../src/server/admin/admins';
import { SUPPORT_ID } from '../../src/shared/constants';
import { type CookieJar, get, send, verifiedUser } from '../support/accounts';
import { openChannel } from '../support/live-channel';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { createTestApp, type TestApp } from '../support/test-app';

let first: TestApp;
let second: TestApp;
let mailbox: MailCatcher;
const servers: { url: string; close(): Promise<void> }[] = [];
beforeAll(async () => {
  mailbox = await startMailCatcher();
  first = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl } });
  second = await createTestApp({ database: first.database, env: { SMTP_URL: mailbox.smtpUrl } });
  servers.push(await first.listen(), await second.listen());
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await first.close();
  await mailbox.close();
});

it('delivers a message sent through one server to a tab connected to the other', async () => {
  const tutor = await verifiedUser(first, mailbox, { role: 'tutor', name: 'Tilda Twoservers' });
  const details = {
    headline: 'Physics',
    about: 'Calm.',
    subjects: ['Physics'],
    hourlyRate: 40,
    languages: ['English'],
  };
  expect((await send(first, 'PATCH', '/api/profile/details', details, tutor.jar)).status).toBe(200);
  const tutorId = (await (await get(first, '/api/session', tutor.jar)).json()).user.id as string;
  const student = await verifiedUser(first, mailbox, { name: 'Sami Twoservers' });

  const [, secondServer] = servers;
  if (!secondServer) throw new Error('no second server');
  const tab = await openChannel(secondServer.url, tutor.jar);
  await tab.next((frame) => frame.type === 'ready');
  const opened = await send(
    first,
    'POST',
    '/api/conversations',
    { tutorId, text: 'Across servers' },
    student.jar,
  );
  expect(opened.status).toBe(201);
  const frame = await tab.next((candidate) => candidate.type === 'message');
  expect(frame.message).toMatchObject({ text: 'Across servers', conversationId: (await opened.json()).id });
  tab.socket.close();
});

it('tells the other server while the queries hold every connection of the pool', async () => {
  const reader = await verifiedUser(first, mailbox, { name: 'Rita Busypool' });
  const readerId = (await (await get(first, '/api/session', reader.jar)).json()).user.id as string;
  const [, secondServer] = servers;
  if (!secondServer) throw new Error('no second server');
  const tab = await openChannel(secondServer.url, reader.jar);
  await tab.next((frame) => frame.type === 'ready');

  // Every connection the pool may open is lent out (the listeners hold theirs): a NOTIFY that
  // waited for one would be given up after a second.
  const { pool } = first.database as unknown as { pool: Pool };
  const held: PoolClient[] = [];
  try {
    while (pool.totalCount - pool.idleCount < (pool.options.max ?? 10)) held.push(await pool.connect());
    // Thirty at once, as a burst sends them: every one arrives, in the order they were sent.
    await Promise.all(
      Array.from({ length: 30 }, (_, n) => first.live.conversationRead(readerId, 'c-busy', n + 1)),
    );
    await tab.next((candidate) => candidate.type === 'read' && candidate.unreadTotal === 30, 3000);
    const reads = tab.frames.filter((candidate) => candidate.type === 'read');
    expect(reads.map((read) => read.unreadTotal)).toEqual(Array.from({ length: 30 }, (_, n) => n + 1));
  } finally {
    for (const client of held) client.release();
    tab.socket.close();
  }
});

it('delivers a support answer sent through one server to the person’s tab on the other, as from Support', async () => {
  const admin = await verifiedUser(first, mailbox, { name: 'Ada Twoservers' });
  expect((await grantAdmin(first.database.db, admin.email)).changed).toBe(true);
  const adminId = (await (await get(first, '/api/session', admin.jar)).json()).user.id as string;
  const student = await verifiedUser(first, mailbox, { name: 'Sol Twoservers' });
  const opened = await send(first, 'POST', '/api/support/conversation', {}, student.jar);
  const { conversationId } = await opened.json();

  const [, secondServer] = servers;
  if (!secondServer) throw new Error('no second server');
  const tab = await openChannel(secondServer.url, student.jar);
  await tab.next((frame) => frame.type === 'ready');
  const answered = await send(
    first,
    'POST',
    `/api/conversations/${conversationId}/messages`,
    { text: 'Support, across servers' },
    admin.jar,
  );
  expect(answered.status).toBe(201);
  const frame = await tab.next((candidate) => candidate.type === 'message');
  expect(frame.message).toMatchObject({
    text: 'Support, across servers',
    conversationId,
    senderId: SUPPORT_ID,
  });
  expect(JSON.stringify(tab.frames)).not.toContain(adminId);
  tab.socket.close();
});

it('closes a tab on one server, opened with a second session cookie, when its session signs out on the other', async () => {
  const [victim, other] = await Promise.all([
    verifiedUser(first, mailbox, { name: 'Vera Twoservers' }),
    verifiedUser(first, mailbox, { name: 'Otto Twoservers' }),
  ]);
  // The channel signs in with the plain cookie; the `__Secure-` one names another live session.
  const cookie = `${victim.jar.header()}; __Secure-tutorlane.session_token=${other.jar.get('tutorlane.session_token')}`;
  const [, secondServer] = servers;
  if (!secondServer) throw new Error('no second server');
  const tab = await openChannel(secondServer.url, { header: () => cookie } as CookieJar);
  await tab.next((frame) => frame.type === 'ready');
  expect((await send(first, 'POST', '/api/auth/sign-out', {}, victim.jar)).status).toBe(200);
  const stayedOpen = new Promise<never>((_, reject) => {
    setTimeout(() => reject(new Error('the channel outlived its session')), 5000).unref();
  });
  expect(await Promise.race([tab.closed, stayedOpen])).toBe(4001);
});
