/**
 * On PostgreSQL the rate limit counters live in the database, so two servers
 * sharing it count together: a client cannot buy new attempts by reaching another server.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUp } from '../support/accounts';
import { createTestApp, type TestApp } from '../support/test-app';

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await createTestApp();
  second = await createTestApp({ database: first.database });
});
afterAll(async () => {
  await first.close();
});

it('counts failed sign-ins on every server sharing the database together', async () => {
  const { email } = await signUp(first);
  const attempt = (app: TestApp) =>
    app.request('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'x-forwarded-for': '198.51.100.99' },
      body: JSON.stringify({ email, password: 'wrong-password-42' }),
    });
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) statuses.push((await attempt(i % 2 ? second : first)).status);
  expect(statuses).toEqual([...Array(10).fill(401), 429]);
  const row = await first.database.db
    .selectFrom('rate_limits')
    .selectAll()
    .where('key', 'like', 'signInFailures:%198.51.100.99')
    .executeTakeFirst();
  // One counter for both servers: every attempt took its point as it arrived, the refused one too.
  expect(row?.points).toBe(11);
});
