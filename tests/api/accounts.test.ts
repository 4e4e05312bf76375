/** Accounts: every rule holds when the browser is bypassed. */
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeExpired } from '../../src/server/maintenance/cleanup';
import * as messages from '../../src/shared/messages';
import {
  CookieJar,
  get,
  type SignUpInput,
  send,
  signIn,
  signUp,
  solveCaptcha,
  TEST_PASSWORD,
  uniqueEmail,
  verificationToken,
  verifiedUser,
} from '../support/accounts';
import { mailbox, setUpApiTest, t } from '../support/api-app';
import { linkIn } from '../support/mail-catcher';
import { TEST_APP_URL } from '../support/test-app';

setUpApiTest();
afterEach(() => {
  vi.useRealTimers();
});

const verifyMailTo = (email: string) =>
  mailbox.waitFor((mail) => mail.to === email && mail.subject === 'Verify your email for Tutorlane');
const resetMailTo = (email: string) =>
  mailbox.waitFor((mail) => mail.to === email && mail.subject === 'Reset your Tutorlane password');

async function countUsers(email: string) {
  const row = await t.database.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('email', '=', email.toLowerCase())
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('sign-up', () => {
  it('creates the account and the profile in one row, signs the user in and mails a verification link', async () => {
    const { res, email, jar } = await signUp(t, { role: 'tutor', name: '  Grace Hopper ' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user).toMatchObject({
      email,
      displayName: 'Grace Hopper',
      role: 'tutor',
      emailVerified: false,
    });
    expect(JSON.stringify(body)).not.toMatch(/token/i);

    const cookie = res.headers.getSetCookie().find((line) => line.startsWith('tutorlane.session_token='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(res.headers.get('cache-control')).toBe('no-store');

    const session = await (await get(t, '/api/session', jar)).json();
    expect(session.user).toMatchObject({ email, role: 'tutor', emailVerified: false, timeZone: null });

    const mail = await verifyMailTo(email);
    expect(mail.text).toContain('Hi Grace Hopper');
    expect(mail.html).toContain('Verify my email');
    const link = new URL(linkIn(mail, '/verify-email?token='));
    expect(link.origin).toBe(TEST_APP_URL);
    // 32 random bytes, base64url: at least 128 bits.
    expect(verificationToken(mail).length).toBeGreaterThanOrEqual(43);
  });

  it('makes a student by default, and stores the email trimmed and lower-cased', async () => {
    const email = uniqueEmail('Mixed.Case');
    const { res } = await signUp(t, { email: `  ${email.toUpperCase()} ` });
    expect(res.status).toBe(200);
    expect((await res.json()).user).toMatchObject({ email: email.toLowerCase(), role: 'student' });
  });

  it('hashes the password with argon2id at OWASP parameters', async () => {
    const { email } = await signUp(t);
    const row = await t.database.db
      .selectFrom('accounts')
      .innerJoin('users', 'users.id', 'accounts.user_id')
      .select('accounts.password')
      .where('users.email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it.each<[string, SignUpInput, string]>([
    [
      'no captcha, and everything else wrong too',
      { captcha: null, confirmPassword: 'x', password: '1', name: '' },
      messages.captchaRequired,
    ],
    [
      'passwords that differ, and a short one',
      { confirmPassword: 'different-42', password: 'abc' },
      messages.passwordsDoNotMatch,
    ],
    ['a short password with an empty name', { password: 'abc', name: '' }, messages.passwordTooShort],
    ['an empty name', { name: '   ' }, messages.fillAllFields],
    ['an empty email', { email: '' }, messages.fillAllFields],
    ['a malformed email', { email: 'not-an-email' }, messages.invalidEmail],
    ['a password over 128 characters', { password: 'x'.repeat(129) }, messages.passwordTooLong],
    ['one of the most common passwords', { password: 'password1' }, messages.passwordTooCommon],
    [
      'an invalid captcha solution',
      { captcha: btoa('{"challenge":{},"solution":{}}') },
      messages.captchaInvalid,
    ],
    ['the role admin', { role: 'admin' }, 'Role must be student, tutor or parent'],
  ])(
    'refuses %s with 400 and the first message in the product order, creating nothing',
    async (_label, input, message) => {
      const email = input.email ?? uniqueEmail('refused');
      const { res } = await signUp(t, { ...input, email });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(message);
      if (email.includes('@')) expect(await countUsers(email.trim())).toBe(0);
    },
  );

  it('holds the full name to the profile rules (at most 80 characters, one line): 400, no account, no mail', async () => {
    const refused: Array<[string, string]> = [
      ['x'.repeat(81), 'Name must be at most 80 characters'],
      ['Ada\r\nBcc: victim@example.com', 'Name must not contain control characters'],
      ['Ada\nLovelace', 'Name must not contain control characters'],
    ];
    // Characters that change how the text around them shows, so one name could pose as another.
    const invisible = 'Name must not contain invisible formatting characters (such as text direction marks)';
    for (const character of ['\u202e', '\u202a', '\u2066', '\u200b', '\u200d', '\u200f', '\ufeff']) {
      refused.push([`Ada${character}Lovelace`, invisible]);
    }
    const emails: string[] = [];
    for (const [name, message] of refused) {
      const { res, email } = await signUp(t, { name, email: uniqueEmail('bad-name') });
      emails.push(email);
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect((await res.json()).message).toBe(message);
      expect(await countUsers(email)).toBe(0);
    }
    // A name of exactly 80 characters is fine; once its mail has arrived, the refused ones would have too.
    const accepted = await signUp(t, { name: 'y'.repeat(80) });
    expect(accepted.res.status).toBe(200);
    await verifyMailTo(accepted.email);
    for (const email of emails) {
      expect(mailbox.mailsTo(email)).toEqual([]);
      const queued = await t.database.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('recipient', '=', email)
        .execute();
      expect(queued).toEqual([]);
    }
  });

  it('accepts a captcha solution once only', async () => {
    const captcha = await solveCaptcha(t);
    expect((await signUp(t, { captcha })).res.status).toBe(200);
    const replay = await signUp(t, { captcha });
    expect(replay.res.status).toBe(400);
    expect((await replay.res.json()).message).toBe(messages.captchaInvalid);
    expect(await countUsers(replay.email)).toBe(0);
  });

  it('says plainly that an email is already in use, whatever its case', async () => {
    const { email } = await signUp(t);
    const again = await signUp(t, { email: email.toUpperCase() });
    expect(again.res.status).toBe(422);
    expect((await again.res.json()).message).toBe(messages.emailInUse);
    expect(await countUsers(email)).toBe(1);
  });
});

describe('a sign-up the database cannot store', () => {
  it('reads as a temporary failure (503), not as an email in use', async () => {
    // A refusal that has nothing to do with a duplicate email, where Better Auth inserts the user.
    await sql`
      CREATE FUNCTION refuse_test_user() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.email LIKE 'db-refuses-%' THEN RAISE EXCEPTION 'refused for the test'; END IF;
        RETURN NEW;
      END $$`.execute(t.database.db);
    await sql`CREATE TRIGGER refuse_test_user BEFORE INSERT ON users
      FOR EACH ROW EXECUTE FUNCTION refuse_test_user()`.execute(t.database.db);
    try {
      const { res, email } = await signUp(t, { email: uniqueEmail('db-refuses') });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).not.toBeNull();
      expect((await res.json()).message).toBe(messages.serviceUnavailable);
      expect(await countUsers(email)).toBe(0);
    } finally {
      await sql`DROP TRIGGER refuse_test_user ON users`.execute(t.database.db);
      await sql`DROP FUNCTION refuse_test_user()`.execute(t.database.db);
    }
  });

  it('still says "in use" to every sign-up that loses a race for its email', async () => {
    const email = uniqueEmail('race');
    const captchas = await Promise.all(Array.from({ length: 8 }, () => solveCaptcha(t)));
    const results = await Promise.all(captchas.map((captcha) => signUp(t, { email, captcha })));
    const refusals = results.filter((result) => result.res.status !== 200);
    expect(refusals).toHaveLength(7);
    for (const { res } of refusals) {
      expect(res.status).toBe(422);
      expect((await res.json()).message).toBe(messages.emailInUse);
    }
  });
});

describe('email verification', () => {
  it('verifies with the mailed link once, and the signed-in browser goes on to the dashboard', async () => {
    const { email, jar } = await signUp(t);
    const token = verificationToken(await verifyMailTo(email));
    const res = await send(t, 'POST', '/api/account/verify-email', { token }, jar);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ verified: true, signedIn: true });
    expect((await (await get(t, '/api/session', jar)).json()).user.emailVerified).toBe(true);

    // Opened again, the link says the email is verified, to this browser and to any other.
    const again = await send(t, 'POST', '/api/account/verify-email', { token }, jar);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ verified: true, signedIn: true, alreadyVerified: true });
    const elsewhere = await send(t, 'POST', '/api/account/verify-email', { token });
    expect(await elsewhere.json()).toEqual({ verified: true, signedIn: false, alreadyVerified: true });
  });

  it('answers a link it never issued as invalid', async () => {
    const res = await send(t, 'POST', '/api/account/verify-email', { token: 'x'.repeat(43) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: messages.verificationLinkInvalid, code: 'INVALID_TOKEN' });
  });

  it('tells a browser that is not signed in as that account to sign in', async () => {
    const { email } = await signUp(t);
    const token = verificationToken(await verifyMailTo(email));
    const res = await send(t, 'POST', '/api/account/verify-email', { token });
    expect(await res.json()).toEqual({ verified: true, signedIn: false });
  });

  it('refuses a link older than 24 hours', async () => {
    const { email, res: signedUp } = await signUp(t);
    expect(signedUp.status).toBe(200);
    const token = verificationToken(await verifyMailTo(email));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000 + 1000);
    const res = await send(t, 'POST', '/api/account/verify-email', { token });
    expect(res.status).toBe(400);
    // Said as it is, so the page can offer a new link.
    expect(await res.json()).toEqual({ message: messages.verificationLinkExpired, code: 'EXPIRED_TOKEN' });
    vi.useRealTimers();
    expect((await (await signIn(t, email)).res.json()).user.emailVerified).toBe(false);
  });

  it('still calls a link expired after housekeeping, for a week', async () => {
    const { email } = await signUp(t);
    const token = verificationToken(await verifyMailTo(email));
    const expiredDaysAgo = (days: number) =>
      t.database.db
        .updateTable('email_verification_tokens')
        .set({ expires_at: new Date(Date.now() - days * 24 * 60 * 60 * 1000) })
        .where('user_id', '=', t.database.db.selectFrom('users').select('id').where('email', '=', email))
        .execute();
    await expiredDaysAgo(3);
    await removeExpired(t.database.db);
    const res = await send(t, 'POST', '/api/account/verify-email', { token });
    expect(await res.json()).toEqual({ message: messages.verificationLinkExpired, code: 'EXPIRED_TOKEN' });
    await expiredDaysAgo(8);
    await removeExpired(t.database.db);
    const later = await send(t, 'POST', '/api/account/verify-email', { token });
    expect(await later.json()).toEqual({ message: messages.verificationLinkInvalid, code: 'INVALID_TOKEN' });
  });

  it('resends the verification mail to the signed-in user', async () => {
    const { email, jar } = await signUp(t);
    await verifyMailTo(email);
    const res = await send(t, 'POST', '/api/auth/send-verification-email', { email }, jar);
    expect(res.status).toBe(200);
    await mailbox.waitFor((mail) => mail.to === email && mailbox.mailsTo(email).length === 2);
  });
});

describe('sign-in and sign-out', () => {
  it('asks for both fields', async () => {
    const res = await send(t, 'POST', '/api/auth/sign-in/email', { email: '', password: '' });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(messages.fillAllFields);
  });

  it('refuses a password over 128 characters before checking anything', async () => {
    const { email } = await signUp(t);
    const res = await send(t, 'POST', '/api/auth/sign-in/email', { email, password: 'x'.repeat(129) });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(messages.passwordTooLong);
  });

  it('answers an unknown email and a wrong password the same way', async () => {
    const { email } = await signUp(t);
    const unknown = await signIn(t, uniqueEmail('nobody'), TEST_PASSWORD);
    const wrong = await signIn(t, email, 'not-the-password-42');
    expect(unknown.res.status).toBe(401);
    expect(wrong.res.status).toBe(401);
    expect(await unknown.res.json()).toEqual(await wrong.res.json());
  });

  it('signs in with any case of the email, and signing out ends the session', async () => {
    const { email } = await signUp(t);
    const { res, jar } = await signIn(t, email.toUpperCase());
    expect(res.status).toBe(200);
    const stolen = jar.header();
    expect((await get(t, '/api/profile', jar)).status).toBe(200);
    const out = await send(t, 'POST', '/api/auth/sign-out', {}, jar);
    expect(out.status).toBe(200);
    expect((await t.request('/api/profile', { headers: { cookie: stolen } })).status).toBe(401);
  });
});

describe('forgot and reset password', () => {
  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const { email } = await signUp(t);
    const known = await send(t, 'POST', '/api/auth/request-password-reset', { email });
    const unknownEmail = uniqueEmail('ghost');
    const unknown = await send(t, 'POST', '/api/auth/request-password-reset', { email: unknownEmail });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await known.json()).toEqual(await unknown.json());
    await resetMailTo(email);
    expect(mailbox.mailsTo(unknownEmail)).toHaveLength(0);
  });

  it('resets with the mailed link once, signs out every other session, and the new password works at once', async () => {
    const { email, jar: otherDevice } = await signUp(t);
    await send(t, 'POST', '/api/auth/request-password-reset', { email });
    const link = new URL(linkIn(await resetMailTo(email), '/reset-password?token='));
    expect(link.origin).toBe(TEST_APP_URL);
    const token = link.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThanOrEqual(22);

    const mismatch = await send(t, 'POST', '/api/auth/reset-password', {
      token,
      newPassword: 'brand-new-pass-42',
      confirmPassword: 'other-pass-42',
    });
    expect((await mismatch.json()).message).toBe(messages.passwordsDoNotMatch);

    const res = await send(t, 'POST', '/api/auth/reset-password', {
      token,
      newPassword: 'brand-new-pass-42',
      confirmPassword: 'brand-new-pass-42',
    });
    expect(res.status).toBe(200);
    expect((await get(t, '/api/profile', otherDevice)).status).toBe(401);
    expect((await signIn(t, email, 'brand-new-pass-42')).res.status).toBe(200);
    expect((await signIn(t, email, TEST_PASSWORD)).res.status).toBe(401);

    const reuse = await send(t, 'POST', '/api/auth/reset-password', { token, newPassword: 'third-pass-42' });
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).message).toBe(messages.resetLinkInvalid);
  });

  it('refuses a reset link after one hour', async () => {
    const { email } = await signUp(t);
    await send(t, 'POST', '/api/auth/request-password-reset', { email });
    const token = new URL(linkIn(await resetMailTo(email), '/reset-password?token=')).searchParams.get(
      'token',
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60 * 60 * 1000 + 1000);
    expect(token).toBeTruthy();
    const res = await send(t, 'POST', '/api/auth/reset-password', { token, newPassword: 'late-pass-42' });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(messages.resetLinkInvalid);
  });

  it('refuses a common or over-long new password', async () => {
    const common = await send(t, 'POST', '/api/auth/reset-password', {
      token: 'x'.repeat(24),
      newPassword: 'qwerty123',
    });
    expect((await common.json()).message).toBe(messages.passwordTooCommon);
    const long = await send(t, 'POST', '/api/auth/reset-password', {
      token: 'x'.repeat(24),
      newPassword: 'y'.repeat(129),
    });
    expect((await long.json()).message).toBe(messages.passwordTooLong);
  });
});

describe('profile', () => {
  it('reads your own profile: uid, email, displayName, role, emailVerified, createdAt, language', async () => {
    const { email, jar } = await signUp(t, { role: 'tutor', name: 'Alan Turing' });
    const res = await get(t, '/api/profile', jar);
    expect(res.status).toBe(200);
    const profile = await res.json();
    expect(Object.keys(profile).sort()).toEqual([
      'createdAt',
      'displayName',
      'email',
      'emailVerified',
      'language',
      'role',
      'uid',
    ]);
    expect(profile).toMatchObject({
      email,
      displayName: 'Alan Turing',
      role: 'tutor',
      emailVerified: false,
      // Never chosen: pages follow the browser, mails the school's default.
      language: null,
    });
    expect(new Date(profile.createdAt).toISOString()).toBe(profile.createdAt);
  });

  it('changes the display name, and refuses role, email, emailVerified and uid', async () => {
    const { jar } = await signUp(t);
    const ok = await send(t, 'PATCH', '/api/profile', { displayName: 'New Name' }, jar);
    expect(ok.status).toBe(200);
    expect((await ok.json()).displayName).toBe('New Name');
    for (const field of ['role', 'email', 'emailVerified', 'uid']) {
      const value = field === 'emailVerified' ? true : field === 'role' ? 'tutor' : 'x@example.com';
      const res = await send(t, 'PATCH', '/api/profile', { displayName: 'Sneaky', [field]: value }, jar);
      expect(res.status, field).toBe(400);
    }
    const after = await (await get(t, '/api/profile', jar)).json();
    expect(after).toMatchObject({ displayName: 'New Name', role: 'student', emailVerified: false });
    const session = await (await get(t, '/api/session', jar)).json();
    expect(session.user.displayName).toBe('New Name');
    // A later change of name is held to the same rules: no text direction trick.
    const posing = await send(t, 'PATCH', '/api/profile', { displayName: 'Ada\u202eecalevoL' }, jar);
    expect(posing.status).toBe(400);
    expect((await get(t, '/api/profile', jar).then((res) => res.json())).displayName).toBe('New Name');
  });

  // Names that look empty, or hide formatting a reader cannot see: refused at sign-up and later.
  const unseen = {
    'a Hangul filler': '\u3164',
    'a soft hyphen': 'Ada\u00ADLovelace',
    'tag characters': 'Ada\u{E0067}\u{E0062}\u{E007F}',
    'a line separator': 'Ada\u2028Lovelace',
    'a blank Braille pattern': '\u2800',
    'a lone combining mark': '\u0301',
  };

  it.each(Object.entries(unseen))(
    'refuses a name with %s at sign-up: 400, no account',
    async (_label, name) => {
      const { res, email } = await signUp(t, { name, email: uniqueEmail('unseen') });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(/^Name must /);
      expect(await countUsers(email)).toBe(0);
    },
  );

  it('refuses a later change to a name that shows nothing or hides formatting, and keeps real names', async () => {
    const { jar } = await signUp(t, { name: 'Plain Name' });
    for (const name of Object.values(unseen)) {
      const res = await send(t, 'PATCH', '/api/profile', { displayName: name }, jar);
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect((await res.json()).message).toMatch(/^Name must /);
    }
    expect((await get(t, '/api/profile', jar).then((res) => res.json())).displayName).toBe('Plain Name');
    for (const name of ['Zoë Ångström', '김하늘', 'Ana ❤️']) {
      const res = await send(t, 'PATCH', '/api/profile', { displayName: name }, jar);
      expect(res.status, name).toBe(200);
      expect((await res.json()).displayName).toBe(name);
    }
  });

  it('needs a signed-in user', async () => {
    expect((await get(t, '/api/profile')).status).toBe(401);
    expect((await send(t, 'PATCH', '/api/profile', { displayName: 'x' })).status).toBe(401);
  });
});

describe('guards', () => {
  it('keeps the dashboard and schedule data for verified users: 401 signed out, 403 unverified', async () => {
    const unverified = await signUp(t);
    for (const path of ['/api/dashboard', '/api/schedule']) {
      expect((await get(t, path)).status, path).toBe(401);
      expect((await get(t, path, unverified.jar)).status, path).toBe(403);
    }
    const tutor = await verifiedUser(t, mailbox, { role: 'tutor' });
    const student = await verifiedUser(t, mailbox);
    expect((await (await get(t, '/api/dashboard', tutor.jar)).json()).role).toBe('tutor');
    expect((await (await get(t, '/api/dashboard', student.jar)).json()).role).toBe('student');
    const tutorSchedule = await (await get(t, '/api/schedule', tutor.jar)).json();
    const studentSchedule = await (await get(t, '/api/schedule', student.jar)).json();
    expect(tutorSchedule.subtitle).not.toBe(studentSchedule.subtitle);
  });

  it('greets a new user as new in the session they verified in, and as back after a later sign-in', async () => {
    const firstVisit = async (jar: CookieJar) =>
      (await (await get(t, '/api/dashboard', jar)).json()).firstVisit as boolean;
    const account = await verifiedUser(t, mailbox, { role: 'tutor' });
    // The session of the sign-up, verified since: "Welcome", and still on a reload.
    expect(await firstVisit(account.jar)).toBe(true);
    expect(await firstVisit(account.jar)).toBe(true);
    // Signed in again (another browser, or after signing out): "Welcome back", in both.
    const later = await signIn(t, account.email);
    expect(later.res.status).toBe(200);
    expect(await firstVisit(later.jar)).toBe(false);
    expect(await firstVisit(account.jar)).toBe(true);
    // The first session signed out: every later sign-in is still "back".
    expect((await send(t, 'POST', '/api/auth/sign-out', {}, account.jar)).status).toBe(200);
    const again = await signIn(t, account.email);
    expect(await firstVisit(again.jar)).toBe(false);
  });

  it('greets a user who signs in elsewhere before opening the dashboard as new there', async () => {
    const account = await verifiedUser(t, mailbox);
    const elsewhere = await signIn(t, account.email);
    // The first session to open the dashboard is the one welcomed, whichever it is.
    expect((await (await get(t, '/api/dashboard', elsewhere.jar)).json()).firstVisit).toBe(true);
    expect((await (await get(t, '/api/dashboard', account.jar)).json()).firstVisit).toBe(false);
  });

  it('exposes only the account endpoints the product uses', async () => {
    const { jar } = await signUp(t);
    for (const [method, path] of [
      ['POST', '/api/auth/update-user'],
      ['GET', '/api/auth/get-session'],
      ['GET', '/api/auth/verify-email'],
      ['POST', '/api/auth/delete-user'],
      ['POST', '/api/auth/change-email'],
      ['GET', '/api/auth/list-sessions'],
    ] as const) {
      const res = await t.request(path, {
        method,
        headers: { cookie: jar.header() },
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      expect(res.status, path).toBe(404);
    }
  });
});

describe('the sign-up sequence', () => {
  it('sends the verification mail through SMTP without the request waiting for it', async () => {
    const jar = new CookieJar();
    const { res, email } = await signUp(t, { jar });
    expect(res.status).toBe(200);
    const mail = await verifyMailTo(email);
    expect(mail.from).toContain('no-reply@localhost');
  });
});

describe('the session check', () => {
  it('refuses a session cookie whose signature does not match', async () => {
    const { jar } = await signUp(t);
    const [name, value] = jar.header().split('=') as [string, string];
    const tampered = `${name}=${encodeURIComponent(`${decodeURIComponent(value).split('.')[0]}x.${decodeURIComponent(value).split('.')[1]}`)}`;
    expect((await t.request('/api/profile', { headers: { cookie: tampered } })).status).toBe(401);
    expect(
      (await (await t.request('/api/session', { headers: { cookie: tampered } })).json()).user,
    ).toBeNull();
  });

  it('renews a session used after a day, as Better Auth would, and sends the renewed cookie', async () => {
    const { jar, email } = await signUp(t);
    const before = await t.database.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('sessions.expires_at')
      .where('users.email', '=', email)
      .executeTakeFirstOrThrow();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 25 * 60 * 60 * 1000);
    const res = await get(t, '/api/session', jar);
    expect((await res.json()).user.email).toBe(email);
    expect(res.headers.getSetCookie().some((line) => line.startsWith('tutorlane.session_token='))).toBe(true);
    const after = await t.database.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select('sessions.expires_at')
      .where('users.email', '=', email)
      .executeTakeFirstOrThrow();
    expect(new Date(after.expires_at).getTime()).toBeGreaterThan(new Date(before.expires_at).getTime());
  });
});
