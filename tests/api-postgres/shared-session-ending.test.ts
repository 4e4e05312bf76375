/**
 * Two servers on one PostgreSQL: an account deleted through one is signed out on the other at once,
 * even for a copy of its cookies whose signed cache of the session would otherwise be believed for
 * minutes; a server started after the deletion refuses that copy too.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { get, send, TEST_PASSWORD, verifiedUser } from '../support/accounts';
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
  // Listening starts each server's live channel, which carries the deletion between them.
  servers.push(await first.listen(), await second.listen());
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await first.close();
  await mailbox.close();
});

const sessionUser = async (app: TestApp, cookie: string) =>
  (await (await app.request('/api/session', { headers: { cookie } })).json()).user;

it('ends the cached session of a deleted account on every server, and on one started later', async () => {
  const person = await verifiedUser(first, mailbox, { name: 'Dora Deletedeverywhere' });
  // The second server makes the signed cache (either server reads it: they share the secret).
  const seen = await get(second, '/api/session', person.jar);
  person.jar.store(seen);
  const copied = person.jar.header();
  expect(copied).toContain('session_data');
  expect((await sessionUser(second, copied)).email).toBe(person.email);

  const deleted = await send(first, 'POST', '/api/account/delete', { password: TEST_PASSWORD }, person.jar);
  expect(deleted.status, await deleted.clone().text()).toBe(200);

  // As soon as the notification arrives: milliseconds, not the cache's five minutes.
  await expect.poll(() => sessionUser(second, copied), { timeout: 2000, interval: 20 }).toBeNull();
  const later = await createTestApp({ database: first.database, env: { SMTP_URL: mailbox.smtpUrl } });
  expect(await sessionUser(later, copied)).toBeNull();
});
