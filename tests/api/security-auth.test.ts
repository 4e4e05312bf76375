/**
 * Accounts under attack: same answers whether an account exists, rate limits
 * that hold, a captcha the server checks, a password policy, tokens that are random, single-use
 * and short-lived, and session cookies a browser keeps safe.
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { grantAdmin } from '../../src/server/admin/admins';
import { createRateLimiters } from '../../src/server/rate-limit/rate-limits';
import * as messages from '../../src/shared/messages';
import {
  CookieJar,
  get,
  send,
  signIn,
  signUp,
  solveCaptcha,
  TEST_PASSWORD,
  uniqueEmail,
  verifiedUser,
} from '../support/accounts';
import { mailbox, setUpApiTest, t } from '../support/api-app';
import { linkIn } from '../support/mail-catcher';
import { createTestApp, TEST_APP_URL } from '../support/test-app';

setUpApiTest();
afterEach(() => {
  vi.useRealTimers();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.request(path, { method: 'POST', body: JSON.stringify(body), headers });

async function countUsers(email: string) {
  const rows = await t.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email.toLowerCase())
    .execute();
  return rows.length;
}

/** Mails queued for an address, sent or not: none means none will ever go. */
async function countOutbox(email: string) {
  const rows = await t.database.db
    .selectFrom('mail_outbox')
    .select('id')
    .where('recipient', '=', email.toLowerCase())
    .execute();
  return rows.length;
}

async function resetToken(email: string, nth = 1): Promise<string> {
  await mailbox.waitFor(
    (m) => m.to === email && mailbox.mailsTo(email).filter((x) => x.subject.includes('Reset')).length >= nth,
  );
  const mail = mailbox.mailsTo(email).filter((m) => m.subject.includes('Reset'))[nth - 1];
  if (!mail) throw new Error('no reset mail');
  return new URL(linkIn(mail, '/reset-password?token=')).searchParams.get('token') ?? '';
}

describe('no account enumeration', () => {
  it('answers forgot password alike for known and unknown addresses, asked once or twice', async () => {
    const { email } = await signUp(t);
    const answers = new Set<string>();
    for (const address of [email, uniqueEmail('ghost'), email, uniqueEmail('ghost')]) {
      const res = await post('/api/auth/request-password-reset', { email: address });
      answers.add(`${res.status} ${await res.text()}`);
    }
    expect([...answers]).toEqual([expect.stringMatching(/^200 /)]);
  });

  it('answers resend verification alike for known, verified and unknown addresses', async () => {
    const unverified = await signUp(t);
    const verified = await verifiedUser(t, mailbox);
    const answers = new Set<string>();
    for (const address of [unverified.email, verified.email, uniqueEmail('ghost')]) {
      for (let i = 0; i < 2; i++) {
        const res = await post('/api/auth/send-verification-email', { email: address });
        answers.add(`${res.status} ${await res.text()}`);
      }
    }
    expect([...answers]).toEqual([expect.stringMatching(/^200 /)]);
  });
});

describe('rate limits', () => {
  it("refuses an account's 11th failed sign-in from one address in 15 minutes, not its owner elsewhere", async () => {
    const { email } = await signUp(t);
    const attacker = { 'x-forwarded-for': '198.51.100.7' };
    for (let i = 0; i < 10; i++) {
      const res = await post('/api/auth/sign-in/email', { email, password: `wrong-guess-${i}` }, attacker);
      expect(res.status).toBe(401);
    }
    const refused = await post('/api/auth/sign-in/email', { email, password: TEST_PASSWORD }, attacker);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(await refused.json()).toEqual({ message: messages.tooManyRequests, code: 'TOO_MANY_REQUESTS' });
    // The owner, from another address, signs in; the count is per account and address.
    const owner = { 'x-forwarded-for': '198.51.100.70' };
    expect((await post('/api/auth/sign-in/email', { email, password: TEST_PASSWORD }, owner)).status).toBe(
      200,
    );
  });

  it('counts a burst of wrong passwords sent at once: exactly 10 are checked, the rest refused', async () => {
    const { email } = await signUp(t);
    const attacker = { 'x-forwarded-for': '198.51.100.8' };
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post('/api/auth/sign-in/email', { email, password: `burst-guess-${i}` }, attacker).then(
          (r) => r.status,
        ),
      ),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    // The right password from there is refused too until the window passes.
    expect((await post('/api/auth/sign-in/email', { email, password: TEST_PASSWORD }, attacker)).status).toBe(
      429,
    );
  });

  it('lets 20 right sign-ins of one account sent at once from one address through: only failures count', async () => {
    const { email } = await signUp(t);
    const headers = { 'x-forwarded-for': '198.51.100.10' };
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        post('/api/auth/sign-in/email', { email, password: TEST_PASSWORD }, headers).then((r) => r.status),
      ),
    );
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 200));
  });

  it('forgets the failures of an account and address once it signs in', async () => {
    const { email } = await signUp(t);
    const headers = { 'x-forwarded-for': '198.51.100.9' };
    for (let i = 0; i < 9; i++)
      await post('/api/auth/sign-in/email', { email, password: `typo-${i}` }, headers);
    expect((await post('/api/auth/sign-in/email', { email, password: TEST_PASSWORD }, headers)).status).toBe(
      200,
    );
    for (let i = 0; i < 10; i++) {
      const res = await post('/api/auth/sign-in/email', { email, password: `typo-again-${i}` }, headers);
      expect(res.status).toBe(401);
    }
  });

  it('lets a whole school behind one address sign in: 300 accounts within a minute', async () => {
    // 300 accounts that share one password hash, made directly in the database: sign-up is not
    // what this is about.
    const { email: first } = await signUp(t);
    const { db } = t.database;
    const model = await db
      .selectFrom('users')
      .innerJoin('accounts', 'accounts.user_id', 'users.id')
      .select(['accounts.password'])
      .where('users.email', '=', first)
      .executeTakeFirstOrThrow();
    const emails = Array.from({ length: 300 }, (_, i) => uniqueEmail(`pupil-${i}`));
    const now = new Date();
    await db
      .insertInto('users')
      .values(
        emails.map((email, i) => ({
          id: `pupil-${i}-${now.getTime()}`,
          email,
          display_name: `Pupil ${i}`,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await db
      .insertInto('accounts')
      .values(
        emails.map((_, i) => ({
          id: `pupil-account-${i}-${now.getTime()}`,
          user_id: `pupil-${i}-${now.getTime()}`,
          account_id: `pupil-${i}-${now.getTime()}`,
          provider_id: 'credential',
          password: model.password,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const school = { 'x-forwarded-for': '198.51.100.30' };
    // The clock stands still: all 300 fall in the same minute, however long this machine takes.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now());
    const statuses = new Set<number>();
    for (let i = 0; i < emails.length; i += 10) {
      const batch = emails.slice(i, i + 10);
      const answers = await Promise.all(
        batch.map((email) => post('/api/auth/sign-in/email', { email, password: TEST_PASSWORD }, school)),
      );
      for (const answer of answers) statuses.add(answer.status);
    }
    expect([...statuses]).toEqual([200]);
  }, 90_000);

  it('allows 5 sign-ups a minute per client address', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.8' };
    for (let i = 0; i < 5; i++) expect((await signUp(t, { headers })).res.status).toBe(200);
    const refused = await signUp(t, { headers });
    expect(refused.res.status).toBe(429);
    const wait = Number(refused.res.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await refused.res.json()).toEqual({
      message: messages.tooManyRequests,
      code: 'TOO_MANY_REQUESTS',
    });
    expect(await countUsers(refused.email)).toBe(0);
  });

  it('allows 5 account mails an hour per email address, the sign-up mail included', async () => {
    const { email, jar } = await signUp(t);
    for (let i = 0; i < 2; i++)
      expect((await send(t, 'POST', '/api/auth/send-verification-email', { email }, jar)).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await post('/api/auth/request-password-reset', { email })).status).toBe(200);
    const refused = await post('/api/auth/request-password-reset', { email: email.toUpperCase() });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    const alsoRefused = await send(t, 'POST', '/api/auth/send-verification-email', { email }, jar);
    expect(alsoRefused.status).toBe(429);
  });

  it('allows 20 verification and reset mails an hour per client address, whatever the addresses', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.9' };
    const statuses = new Set<number>();
    for (let i = 0; i < 10; i++) {
      statuses.add(
        (await post('/api/auth/request-password-reset', { email: uniqueEmail() }, headers)).status,
      );
      statuses.add(
        (await post('/api/auth/send-verification-email', { email: uniqueEmail() }, headers)).status,
      );
    }
    expect([...statuses]).toEqual([200]);
    for (const path of ['/api/auth/request-password-reset', '/api/auth/send-verification-email']) {
      const refused = await post(path, { email: uniqueEmail() }, headers);
      expect(refused.status, path).toBe(429);
      const wait = Number(refused.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(3600);
    }
    // Another client, and the addresses this one was refused for, are untouched.
    const email = uniqueEmail();
    expect((await post('/api/auth/request-password-reset', { email }, headers)).status).toBe(429);
    expect((await post('/api/auth/request-password-reset', { email })).status).toBe(200);
  });

  it('counts reset requests for an unknown address exactly as for a known one', async () => {
    // An account whose sign-up mail this app did not count: made through a second app on the same
    // database with counters of its own, as if the sign-up were over an hour ago.
    const elsewhere = await createTestApp({
      database: t.database,
      env: { SMTP_URL: mailbox.smtpUrl },
      overrides: { limiters: createRateLimiters({}) },
    });
    const known = (await signUp(elsewhere)).email;
    const unknown = uniqueEmail('ghost');
    const replies = async (email: string) => {
      const got: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await post('/api/auth/request-password-reset', { email });
        got.push(
          `${res.status} ${res.headers.get('retry-after') === null ? '' : 'Retry-After '}${await res.text()}`,
        );
      }
      return got;
    };
    const forKnown = await replies(known);
    const forUnknown = await replies(unknown);
    expect(forKnown.map((reply) => reply.slice(0, 3))).toEqual(['200', '200', '200', '200', '200', '429']);
    expect(forUnknown).toEqual(forKnown);
    // The known address really is known: its reset mails went out.
    await mailbox.waitFor((m) => m.to === known && m.subject.includes('Reset'));
    expect(mailbox.mailsTo(unknown)).toHaveLength(0);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY says a proxy sets it', async () => {
    const direct = await createTestApp({ env: { TRUST_PROXY: '0' } });
    try {
      // Failures are counted per account and address: a forged header would buy a fresh count.
      const { email } = await signUp(direct);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await direct.request('/api/auth/sign-in/email', {
          method: 'POST',
          headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
          body: JSON.stringify({ email, password: `wrong-guess-${i}` }),
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array(10).fill(401), 429]);
    } finally {
      await direct.close();
    }
  });
});

describe('captcha checked by the server', () => {
  it.each([
    ['missing', null, messages.captchaRequired],
    ['invalid', 'not-a-solution', messages.captchaInvalid],
  ])('refuses a %s solution: 400, no account, no mail', async (_label, captcha, message) => {
    const email = uniqueEmail('bot');
    const { res } = await signUp(t, { email, captcha });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect(await countUsers(email)).toBe(0);
    // Refused before any account existed: nothing queued, and a delivery pass sends nothing.
    expect(await countOutbox(email)).toBe(0);
    await t.mailer.deliverDue();
    expect(mailbox.mailsTo(email)).toHaveLength(0);
  });

  it('refuses an expired solution', async () => {
    const captcha = await solveCaptcha(t);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    const email = uniqueEmail('late');
    const { res } = await signUp(t, { email, captcha });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(messages.captchaInvalid);
    expect(await countUsers(email)).toBe(0);
    expect(await countOutbox(email)).toBe(0);
    await t.mailer.deliverDue();
    expect(mailbox.mailsTo(email)).toHaveLength(0);
  });

  it('refuses a replayed solution', async () => {
    const captcha = await solveCaptcha(t);
    expect((await signUp(t, { captcha })).res.status).toBe(200);
    const email = uniqueEmail('replay');
    const { res } = await signUp(t, { email, captcha });
    expect(res.status).toBe(400);
    expect(await countUsers(email)).toBe(0);
    expect(mailbox.mailsTo(email)).toHaveLength(0);
  });
});

describe('passwords', () => {
  it('refuses every one of the 1,000 most common passwords with a clear message', async () => {
    const common = (dictionary['passwords-common'] as string[]).slice(0, 1000);
    const unexpected: string[] = [];
    for (const password of common) {
      const res = await post(
        '/api/auth/sign-up/email',
        { name: 'Common', email: uniqueEmail('common'), password, confirmPassword: password },
        { 'x-captcha': 'present' },
      );
      const expected = password.length < 6 ? messages.passwordTooShort : messages.passwordTooCommon;
      if (res.status !== 400 || (await res.json()).message !== expected) unexpected.push(password);
    }
    expect(unexpected).toEqual([]);
  }, 60_000);

  it('checks all 128 characters of a long password, and refuses 129', async () => {
    const long = `${'abcdefgh'.repeat(15)}1234567x`;
    expect(long).toHaveLength(128);
    const { email } = await signUp(t, { password: long });
    expect((await signIn(t, email, long)).res.status).toBe(200);
    expect((await signIn(t, email, `${long.slice(0, 127)}y`)).res.status).toBe(401);
    const tooLong = await signUp(t, { password: `${long}z` });
    expect(tooLong.res.status).toBe(400);
    expect((await tooLong.res.json()).message).toBe(messages.passwordTooLong);
  });
});

describe('reset and verification tokens', () => {
  it('lets exactly one of 20 concurrent uses of a reset token through', async () => {
    const { email } = await signUp(t);
    await post('/api/auth/request-password-reset', { email });
    const token = await resetToken(email);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post('/api/auth/reset-password', {
          token,
          newPassword: `concurrent-pass-${i}-x`,
          confirmPassword: `concurrent-pass-${i}-x`,
        }),
      ),
    );
    const statuses = results.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(19);
  });

  it('voids an older reset link when a new one is requested', async () => {
    const { email } = await signUp(t);
    await post('/api/auth/request-password-reset', { email });
    const first = await resetToken(email, 1);
    await post('/api/auth/request-password-reset', { email });
    const second = await resetToken(email, 2);
    expect(second).not.toBe(first);
    const old = await post('/api/auth/reset-password', { token: first, newPassword: 'first-link-pass-42' });
    expect(old.status).toBe(400);
    const fresh = await post('/api/auth/reset-password', {
      token: second,
      newPassword: 'second-link-pass-42',
    });
    expect(fresh.status).toBe(200);
  });

  it('builds links from APP_URL, never from the Host header of the request', async () => {
    const email = uniqueEmail('host');
    await signUp(t, { email, headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } });
    await post(
      '/api/auth/request-password-reset',
      { email },
      { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    );
    await mailbox.waitFor((m) => m.to === email && m.subject.includes('Reset'));
    for (const mail of mailbox.mailsTo(email)) {
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) expect(new URL(link).origin).toBe(TEST_APP_URL);
      expect(mail.html).not.toContain('evil.example');
    }
  });

  it('uses reset tokens of at least 128 random bits', async () => {
    const { email } = await signUp(t);
    await post('/api/auth/request-password-reset', { email });
    const token = await resetToken(email);
    // 24 characters from a 62-letter alphabet: log2(62^24) ≈ 143 bits.
    expect(token).toMatch(/^[A-Za-z0-9]{24,}$/);
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, not Secure over http, and renewed at every sign-in', async () => {
    const { email, res } = await signUp(t);
    const cookieOf = (response: Response) =>
      response.headers.getSetCookie().find((line) => line.startsWith('tutorlane.session_token=')) ?? '';
    const first = cookieOf(res);
    expect(first).toMatch(/; HttpOnly/);
    expect(first).toMatch(/; SameSite=Lax/);
    expect(first).toMatch(/; Path=\//);
    expect(first).not.toMatch(/Secure/);
    const again = await signIn(t, email);
    const second = cookieOf(again.res);
    expect(second.split(';')[0]).not.toBe(first.split(';')[0]);
  });

  it('is Secure when APP_URL is https', async () => {
    const secure = await createTestApp({ env: { APP_URL: 'https://tutorlane.example' } });
    try {
      const res = await secure.request('https://tutorlane.example/api/auth/sign-in/email', {
        method: 'POST',
        headers: { origin: 'https://tutorlane.example' },
        body: JSON.stringify({ email: uniqueEmail(), password: TEST_PASSWORD }),
      });
      expect(res.status).toBe(401);
      const signedUp = await signUp(secure, { headers: { origin: 'https://tutorlane.example' } });
      expect(signedUp.res.status).toBe(200);
      const cookie =
        signedUp.res.headers.getSetCookie().find((line) => line.includes('session_token=')) ?? '';
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; HttpOnly/);
    } finally {
      await secure.close();
    }
  });

  it('stops working after logout, even if someone kept a copy', async () => {
    const { jar } = await signUp(t);
    const copy = new CookieJar();
    copy.store(new Response(null, { headers: { 'set-cookie': `${jar.header()}; Path=/` } }));
    await send(t, 'POST', '/api/auth/sign-out', {}, jar);
    expect((await get(t, '/api/profile', copy)).status).toBe(401);
  });
});

// The calendar address is a key of its own (calendar apps send no cookies): whoever copied it
// keeps reading the lessons until it changes. The account's owner resetting their password, or a
// suspension, must take it from them as it takes their sessions.
describe('calendar feed address', () => {
  async function withFeed() {
    const account = await verifiedUser(t, mailbox);
    const made = await send(t, 'POST', '/api/calendar-feed', {}, account.jar);
    const path = new URL((await made.json()).url).pathname;
    expect((await t.request(path)).status).toBe(200);
    return { ...account, path };
  }

  it('moves to a new address when the password is reset: the old one answers 404', async () => {
    const { email, path } = await withFeed();
    await post('/api/auth/request-password-reset', { email });
    const token = await resetToken(email);
    const reset = await post('/api/auth/reset-password', { token, newPassword: 'fresh-start-pass-42' });
    expect(reset.status).toBe(200);
    expect((await t.request(path)).status).toBe(404);
    // The owner, signed in again, finds the new address in their settings, and it works.
    const { jar } = await signIn(t, email, 'fresh-start-pass-42');
    const { url } = await (await get(t, '/api/calendar-feed', jar)).json();
    expect(new URL(url).pathname).not.toBe(path);
    expect((await t.request(new URL(url).pathname)).status).toBe(200);
  });

  it('moves to a new address when the account is suspended: the old one answers 404', async () => {
    const { email, path } = await withFeed();
    const admin = await verifiedUser(t, mailbox);
    await grantAdmin(t.database.db, admin.email);
    const id = (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;
    const suspended = await send(t, 'POST', `/api/admin/users/${id}/suspend`, { reason: 'Abuse' }, admin.jar);
    expect(suspended.status).toBe(200);
    expect((await t.request(path)).status).toBe(404);
  });
});
