/**
 * Two servers on one PostgreSQL: a message sent through one reaches a tab connected to the other,
 * live, through PostgreSQL's LISTEN/NOTIFY.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { get, send, verifiedUser } from '../support/accounts';
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
