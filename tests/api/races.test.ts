/** Races: 50 concurrent sign-ups with one email create exactly one account. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUp, solveCaptcha, uniqueEmail } from '../support/accounts';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it('creates exactly one account out of 50 concurrent sign-ups with the same email in different cases', async () => {
  const email = uniqueEmail('race');
  const variants = [email, email.toUpperCase(), ` ${email} `, email.replace(/^./, (c) => c.toUpperCase())];
  const captchas = await Promise.all(Array.from({ length: 50 }, () => solveCaptcha(t)));
  const results = await Promise.all(
    captchas.map((captcha, i) => signUp(t, { email: variants[i % variants.length], captcha })),
  );
  const statuses = results.map((result) => result.res.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  expect(statuses.every((status) => status === 200 || status === 422)).toBe(true);
  const rows = await t.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email.toLowerCase())
    .execute();
  expect(rows).toHaveLength(1);
  const accounts = await t.database.db
    .selectFrom('accounts')
    .select('id')
    .where('user_id', '=', rows[0]?.id ?? '')
    .execute();
  expect(accounts).toHaveLength(1);
}, 60_000);
