/**
 * Two-factor sign-in over the API, on both stores, under the default ADMIN_TWO_FACTOR (required):
 * setting it up with an authenticator code, a password sign-in that waits for the code, codes
 * that work once (backup codes, and an authenticator code per account), five wrong codes shutting
 * one account's code routes (429) and not another's, turning it off only with a code, every other
 * session ended when it changes, and the console and the support conversations closed to an admin
 * without it, or to a session that did not prove it.
 */
import { TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/server/admin/admin-command';
import { ConfigError } from '../../src/server/config/config';
import { mailUnread } from '../../src/server/messages/unread-mail';
import { createRateLimiters, rateLimitRules } from '../../src/server/rate-limit/rate-limits';
import { type CookieJar, get, send, signIn, TEST_PASSWORD, verifiedPerson } from '../support/accounts';
import { mailbox, type Person, person, server, setUpApiTest, t } from '../support/api-app';
import { openChannel } from '../support/live-channel';
import { createTestApp, TEST_APP_URL, type TestApp, testConfig } from '../support/test-app';
import { createTestDatabase } from '../support/test-database';

setUpApiTest({ env: { ADMIN_TWO_FACTOR: 'required' }, listen: true });

interface Setup {
  totpURI: string;
  secret: string;
  backupCodes: string[];
}

/** The code an authenticator app shows now for `secret`; `offset` periods away for a stale one. */
const codeFor = (secret: string, offset = 0) =>
  new TOTP({ secret, digits: 6, period: 30 }).generate({ timestamp: Date.now() + offset * 30_000 });

/**
 * A right code not used before: the server takes each code once per account, so a test that needs
 * several within one 30-second period takes the next period's (accepted a period either side).
 */
const usedCodes = new Set<string>();
const freshCodeFor = (secret: string) => {
  for (const offset of [0, 1, -1]) {
    const code = codeFor(secret, offset);
    if (usedCodes.has(code)) continue;
    usedCodes.add(code);
    return code;
  }
  throw new Error('three codes of this secret used within a period');
};

/** A code that is not right now (nor within the window the server allows either side). */
const wrongCodeFor = (secret: string) => {
  const near = new Set([-1, 0, 1].map((offset) => codeFor(secret, offset)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!near.has(candidate)) return candidate;
  }
};

/** Turns two-factor on for `who`: the setup's answer, after the first code confirmed it. */
async function turnOn(app: TestApp, who: { jar: CookieJar }): Promise<Setup> {
  const enabled = await send(
    app,
    'POST',
    '/api/auth/two-factor/enable',
    { password: TEST_PASSWORD },
    who.jar,
  );
  expect(enabled.status).toBe(200);
  who.jar.store(enabled);
  const setup = (await enabled.json()) as Setup;
  expect(setup.totpURI).toMatch(/^otpauth:\/\/totp\//);
  expect(setup.totpURI).toContain(`secret=${setup.secret}`);
  expect(setup.backupCodes.length).toBeGreaterThanOrEqual(8);
  const verified = await send(
    app,
    'POST',
    '/api/auth/two-factor/verify-totp',
    { code: freshCodeFor(setup.secret) },
    who.jar,
  );
  expect(verified.status).toBe(200);
  who.jar.store(verified);
  expect(((await verified.json()) as { user: { twoFactorEnabled: boolean } }).user.twoFactorEnabled).toBe(
    true,
  );
  return setup;
}

/** A password sign-in of an account with two-factor on: the jar holds the pending sign-in's cookie. */
async function passwordStep(email: string) {
  const { res, jar } = await signIn(t, email);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
  return jar;
}

/** The devices trusted for `who` ("Trust this device"), as the plugin keeps them. */
const trustedDevices = async (who: { id: string }) =>
  (
    await t.database.db
      .selectFrom('verifications')
      .select('id')
      .where('value', '=', who.id)
      .where('identifier', 'like', 'trust-device-%')
      .execute()
  ).length;

const sessionOf = async (jar: CookieJar) =>
  (
    (await (await get(t, '/api/session', jar)).json()) as {
      user: { email: string; twoFactorEnabled: boolean } | null;
    }
  ).user;

describe('two-factor sign-in', () => {
  it('is set up with an authenticator code; a password sign-in then waits for the code', async () => {
    const who = await person('student');
    expect((await sessionOf(who.jar))?.twoFactorEnabled).toBe(false);
    const setup = await turnOn(t, who);
    expect(await sessionOf(who.jar)).toMatchObject({ email: who.email, twoFactorEnabled: true });

    expect((await send(t, 'POST', '/api/auth/sign-out', {}, who.jar)).status).toBe(200);
    const jar = await passwordStep(who.email);
    // The right password alone makes no session.
    expect(await sessionOf(jar)).toBeNull();
    expect((await get(t, '/api/profile/details', jar)).status).toBe(401);

    const verified = await send(
      t,
      'POST',
      '/api/auth/two-factor/verify-totp',
      { code: freshCodeFor(setup.secret) },
      jar,
    );
    expect(verified.status).toBe(200);
    jar.store(verified);
    const body = (await verified.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ user: { email: who.email } });
    // The session token stays in its cookie.
    expect(body).not.toHaveProperty('token');
    expect(await sessionOf(jar)).toMatchObject({ email: who.email });
  });

  it('takes a backup code once', async () => {
    const who = await person('student');
    const setup = await turnOn(t, who);
    const code = setup.backupCodes[0] as string;

    const first = await passwordStep(who.email);
    const used = await send(t, 'POST', '/api/auth/two-factor/verify-backup-code', { code }, first);
    expect(used.status).toBe(200);
    first.store(used);
    expect(await sessionOf(first)).toMatchObject({ email: who.email });

    const second = await passwordStep(who.email);
    const again = await send(t, 'POST', '/api/auth/two-factor/verify-backup-code', { code }, second);
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ code: 'INVALID_BACKUP_CODE' });
    expect(await sessionOf(second)).toBeNull();
  });

  it('takes an authenticator code once per account, from one sign-in or several at once', async () => {
    const who = await person('student');
    const setup = await turnOn(t, who);
    const code = freshCodeFor(setup.secret);
    const first = await passwordStep(who.email);
    expect((await send(t, 'POST', '/api/auth/two-factor/verify-totp', { code }, first)).status).toBe(200);
    const second = await passwordStep(who.email);
    const again = await send(t, 'POST', '/api/auth/two-factor/verify-totp', { code }, second);
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ code: 'INVALID_CODE' });
    expect(await sessionOf(second)).toBeNull();

    // Four sign-ins waiting for their code send the same one at once: one gets in.
    const racing = await Promise.all([1, 2, 3, 4].map(() => passwordStep(who.email)));
    const next = freshCodeFor(setup.secret);
    const answers = await Promise.all(
      racing.map((jar) => send(t, 'POST', '/api/auth/two-factor/verify-totp', { code: next }, jar)),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401, 401, 401]);
    for (const res of answers.filter((answer) => answer.status === 401))
      expect(await res.json()).toMatchObject({ code: 'INVALID_CODE' });
  });

  it('lets one of 20 sign-ins racing with the same backup code through, and tells the others it is used', async () => {
    // Twenty codes at once would pass the wrong-code limit (five), which is not what this is about.
    const database = await createTestDatabase();
    const limiters = createRateLimiters({
      database,
      rules: { twoFactorCodes: { ...rateLimitRules.twoFactorCodes, points: 100 } },
    });
    const app = await createTestApp({
      env: { ADMIN_TWO_FACTOR: 'required', SMTP_URL: mailbox.smtpUrl },
      database,
      overrides: { limiters },
    });
    try {
      const who = await verifiedPerson(app, mailbox, 'student', 'Racing Backup');
      const setup = await turnOn(app, who);
      const jars = [];
      for (let i = 0; i < 20; i++) {
        const { res, jar } = await signIn(app, who.email);
        expect(await res.json()).toMatchObject({ twoFactorRedirect: true });
        jars.push(jar);
      }
      const code = setup.backupCodes[0] as string;
      const answers = await Promise.all(
        jars.map((jar) => send(app, 'POST', '/api/auth/two-factor/verify-backup-code', { code }, jar)),
      );
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 401)).toHaveLength(19);
      for (const res of answers.filter((answer) => answer.status === 401))
        expect(await res.json()).toMatchObject({ code: 'INVALID_BACKUP_CODE' });
    } finally {
      await app.close();
    }
  });

  it('answers 429 after five wrong codes for that account, whichever code route, and not for another account', async () => {
    const who = await person('student');
    const setup = await turnOn(t, who);
    const other = await person('student');
    const otherSetup = await turnOn(t, other);

    const jar = await passwordStep(who.email);
    const wrong = wrongCodeFor(setup.secret);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const res = await send(t, 'POST', '/api/auth/two-factor/verify-totp', { code: wrong }, jar);
      expect(res.status, `wrong code ${attempt}`).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'INVALID_CODE' });
    }
    const refused = await send(
      t,
      'POST',
      '/api/auth/two-factor/verify-totp',
      { code: freshCodeFor(setup.secret) },
      jar,
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect(await refused.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    // A new sign-in from elsewhere, and the backup route, are shut for the account too.
    const fresh = await passwordStep(who.email);
    const backup = await send(
      t,
      'POST',
      '/api/auth/two-factor/verify-backup-code',
      { code: setup.backupCodes[1] },
      fresh,
    );
    expect(backup.status).toBe(429);
    expect(await sessionOf(fresh)).toBeNull();

    // The other account signs in as ever.
    const otherJar = await passwordStep(other.email);
    const otherIn = await send(
      t,
      'POST',
      '/api/auth/two-factor/verify-totp',
      { code: freshCodeFor(otherSetup.secret) },
      otherJar,
    );
    expect(otherIn.status).toBe(200);
  });

  it('forgives wrong codes once a right one comes', async () => {
    const who = await person('student');
    const setup = await turnOn(t, who);
    const wrong = wrongCodeFor(setup.secret);
    for (let round = 0; round < 2; round++) {
      const jar = await passwordStep(who.email);
      for (let attempt = 0; attempt < 4; attempt++) {
        expect((await send(t, 'POST', '/api/auth/two-factor/verify-totp', { code: wrong }, jar)).status).toBe(
          401,
        );
      }
      const right = await send(
        t,
        'POST',
        '/api/auth/two-factor/verify-totp',
        { code: freshCodeFor(setup.secret) },
        jar,
      );
      expect(right.status, `round ${round}`).toBe(200);
    }
  });

  it('is turned off only with the password and a current code', async () => {
    const who = await person('student');
    const setup = await turnOn(t, who);
    const withoutCode = await send(
      t,
      'POST',
      '/api/auth/two-factor/disable',
      { password: TEST_PASSWORD },
      who.jar,
    );
    expect(withoutCode.status).toBe(400);
    expect(await withoutCode.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'code' });
    const wrongCode = await send(
      t,
      'POST',
      '/api/auth/two-factor/disable',
      { password: TEST_PASSWORD, code: wrongCodeFor(setup.secret) },
      who.jar,
    );
    expect(wrongCode.status).toBe(401);
    expect(await sessionOf(who.jar)).toMatchObject({ twoFactorEnabled: true });

    const off = await send(
      t,
      'POST',
      '/api/auth/two-factor/disable',
      { password: TEST_PASSWORD, code: freshCodeFor(setup.secret) },
      who.jar,
    );
    expect(off.status).toBe(200);
    who.jar.store(off);
    expect(await sessionOf(who.jar)).toMatchObject({ twoFactorEnabled: false });
    const { res } = await signIn(t, who.email);
    expect(await res.json()).toMatchObject({ user: { email: who.email } });
  });

  it('refuses bad input with 400 and a message', async () => {
    const who = await person('student');
    for (const [path, body] of [
      ['/api/auth/two-factor/enable', {}],
      ['/api/auth/two-factor/verify-totp', { code: 'abc' }],
      ['/api/auth/two-factor/verify-totp', { code: 123456 }],
      ['/api/auth/two-factor/verify-backup-code', { code: '\u0000' }],
      ['/api/auth/two-factor/disable', { password: TEST_PASSWORD, code: '' }],
    ] as const) {
      const res = await send(t, 'POST', path, body, who.jar);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { message: string }).message.length).toBeGreaterThan(0);
    }
    const wrongPassword = await send(
      t,
      'POST',
      '/api/auth/two-factor/enable',
      { password: 'not-it-at-all' },
      who.jar,
    );
    expect(wrongPassword.status).toBe(400);
    expect(await wrongPassword.json()).toMatchObject({ code: 'INVALID_PASSWORD' });
  });
});

describe('sessions when two-factor changes', () => {
  const signedInWithCode = async (who: Person, secret: string, trustDevice = false) => {
    const jar = await passwordStep(who.email);
    const res = await send(
      t,
      'POST',
      '/api/auth/two-factor/verify-totp',
      { code: freshCodeFor(secret), trustDevice },
      jar,
    );
    expect(res.status).toBe(200);
    jar.store(res);
    return jar;
  };
  const readsProfile = async (jar: CookieJar) => (await get(t, '/api/profile/details', jar)).status;

  it('turning it off and making new backup codes end every other session of the account, and turning it off forgets trusted devices', async () => {
    const who = await person('student');
    const setup = await turnOn(t, who);
    const elsewhere = await signedInWithCode(who, setup.secret, true);
    expect(await trustedDevices(who)).toBe(1);
    expect(await readsProfile(elsewhere)).toBe(200);

    const codes = await send(
      t,
      'POST',
      '/api/auth/two-factor/generate-backup-codes',
      { password: TEST_PASSWORD, code: setup.backupCodes[0] },
      who.jar,
    );
    expect(codes.status).toBe(200);
    who.jar.store(codes);
    const { backupCodes } = (await codes.json()) as { backupCodes: string[] };
    expect(await readsProfile(elsewhere)).toBe(401);
    expect(await readsProfile(who.jar)).toBe(200);

    // Signed in with a backup code this time: a test has three authenticator codes a period.
    const another = await passwordStep(who.email);
    const backup = await send(
      t,
      'POST',
      '/api/auth/two-factor/verify-backup-code',
      { code: backupCodes[0] },
      another,
    );
    expect(backup.status).toBe(200);
    another.store(backup);
    expect(await readsProfile(another)).toBe(200);
    const off = await send(
      t,
      'POST',
      '/api/auth/two-factor/disable',
      { password: TEST_PASSWORD, code: freshCodeFor(setup.secret) },
      who.jar,
    );
    expect(off.status).toBe(200);
    who.jar.store(off);
    expect(await readsProfile(another)).toBe(401);
    expect(await readsProfile(who.jar)).toBe(200);
    // The device another browser trusted is forgotten with it.
    expect(await trustedDevices(who)).toBe(0);
  });

  it("a reset asked for by anyone leaves the account's trusted devices and a sign-in waiting for its code", async () => {
    const who = await person('student');
    const setup = await turnOn(t, who);
    await signedInWithCode(who, setup.secret, true);
    const waiting = await passwordStep(who.email);
    const asked = await send(t, 'POST', '/api/auth/request-password-reset', { email: who.email });
    expect(asked.status).toBe(200);
    await mailbox.waitFor((m) => m.to === who.email && /reset/i.test(m.subject));
    expect(await trustedDevices(who)).toBe(1);
    const verified = await send(
      t,
      'POST',
      '/api/auth/two-factor/verify-totp',
      { code: freshCodeFor(setup.secret) },
      waiting,
    );
    expect(verified.status, await verified.clone().text()).toBe(200);
  });

  it('the authenticator key and new backup codes take a current code as well as the password', async () => {
    const who = await person('student');
    for (const path of ['/api/auth/two-factor/get-totp-uri', '/api/auth/two-factor/generate-backup-codes']) {
      const notOn = await send(t, 'POST', path, { password: TEST_PASSWORD, code: '123456' }, who.jar);
      expect(notOn.status, path).toBe(400);
    }
    const setup = await turnOn(t, who);
    for (const path of ['/api/auth/two-factor/get-totp-uri', '/api/auth/two-factor/generate-backup-codes']) {
      const passwordOnly = await send(t, 'POST', path, { password: TEST_PASSWORD }, who.jar);
      expect(passwordOnly.status, path).toBe(400);
      expect(await passwordOnly.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'code' });
      const wrongCode = await send(
        t,
        'POST',
        path,
        { password: TEST_PASSWORD, code: wrongCodeFor(setup.secret) },
        who.jar,
      );
      expect(wrongCode.status, path).toBe(401);
      expect(await wrongCode.json()).toMatchObject({ code: 'INVALID_CODE' });
    }
    const uri = await send(
      t,
      'POST',
      '/api/auth/two-factor/get-totp-uri',
      { password: TEST_PASSWORD, code: freshCodeFor(setup.secret) },
      who.jar,
    );
    expect(uri.status).toBe(200);
    expect(await uri.json()).toMatchObject({ totpURI: setup.totpURI, secret: setup.secret });
    const codes = await send(
      t,
      'POST',
      '/api/auth/two-factor/generate-backup-codes',
      { password: TEST_PASSWORD, code: setup.backupCodes[0] },
      who.jar,
    );
    expect(codes.status).toBe(200);
    const { backupCodes } = (await codes.json()) as { backupCodes: string[] };
    expect(backupCodes).toHaveLength(setup.backupCodes.length);
    expect(backupCodes).not.toContain(setup.backupCodes[1]);
  });
});

describe('admins and two-factor', () => {
  const admin = async (app: TestApp, who: Person) => {
    const granted = await runAdminCommand(['grant', who.email], async () => ({
      ...app.database,
      close: async () => {},
    }));
    expect(granted.exitCode).toBe(0);
  };

  it('closes the console to an admin without two-factor under the default, until it is on', async () => {
    const who = await person('student');
    await admin(t, who);
    for (const path of ['/api/admin/overview', '/api/admin/verifications', '/api/admin/audit']) {
      const res = await get(t, path, who.jar);
      expect(res.status, path).toBe(403);
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe('TWO_FACTOR_REQUIRED');
      expect(body.message).toMatch(/two-factor/i);
    }
    expect((await send(t, 'PATCH', '/api/admin/settings', {}, who.jar)).status).toBe(403);
    await turnOn(t, who);
    expect((await get(t, '/api/admin/overview', who.jar)).status).toBe(200);
  });

  it('keeps support conversations from an admin without two-factor, live and by mail too, until it is on', async () => {
    const [without, withIt, student] = [
      await person('student'),
      await person('student'),
      await person('student'),
    ];
    await admin(t, without);
    await admin(t, withIt);
    await turnOn(t, withIt);
    const opened = await send(t, 'POST', '/api/support/conversation', {}, student.jar);
    const id = (await opened.json()).conversationId as string;
    const tabs = [await openChannel(server.url, without.jar), await openChannel(server.url, withIt.jar)];
    for (const tab of tabs) await tab.next((frame) => frame.type === 'ready');
    const [withoutTab, withTab] = tabs as [(typeof tabs)[number], (typeof tabs)[number]];
    const write = (who: Person, text: string) =>
      send(t, 'POST', `/api/conversations/${id}/messages`, { text }, who.jar);
    const listed = async (who: Person) =>
      (
        (await (await get(t, '/api/conversations', who.jar)).json()) as { conversations: { id: string }[] }
      ).conversations.map((conversation) => conversation.id);

    expect((await write(student, 'My refund has not arrived')).status).toBe(201);
    await withTab.next((frame) => frame.type === 'message');
    expect(await listed(withIt)).toContain(id);
    expect(withoutTab.frames.some((frame) => frame.type === 'message')).toBe(false);
    expect(await listed(without)).not.toContain(id);
    for (const path of [`/api/conversations/${id}`, `/api/conversations/${id}/messages`])
      expect((await get(t, path, without.jar)).status, path).toBe(404);
    expect((await write(without, 'Looking into it')).status).toBe(404);
    expect((await send(t, 'POST', `/api/conversations/${id}/read`, {}, without.jar)).status).toBe(404);

    // Left unread, it is mailed to the admins who answer support, not to the one without two-factor.
    const subject = `${student.name} wrote to Support on Tutorlane`;
    const deps = { db: t.database.db, mailer: t.mailer, appUrl: TEST_APP_URL, requireTwoFactor: true };
    await mailUnread(deps, Date.now() + 11 * 60_000);
    await mailbox.waitFor((mail) => mail.to === withIt.email && mail.subject === subject);
    await t.mailer.deliverDue();
    expect(mailbox.mailsTo(without.email).filter((mail) => mail.subject === subject)).toHaveLength(0);

    await turnOn(t, without);
    expect(await listed(without)).toContain(id);
    expect((await write(without, 'Looking into it')).status).toBe(201);
    for (const tab of tabs) tab.socket.close();
  });

  it('ends a session made with the password alone when two-factor is turned on: it reads nothing after', async () => {
    const owner = await person('student');
    await admin(t, owner);
    // Someone else signed in with the admin's password before two-factor was on.
    const { jar: intruder } = await signIn(t, owner.email);
    expect((await get(t, '/api/admin/overview', intruder)).status).toBe(403);
    const tab = await openChannel(server.url, intruder);
    await tab.next((frame) => frame.type === 'ready');

    const setup = await turnOn(t, owner);
    expect((await get(t, '/api/admin/overview', owner.jar)).status).toBe(200);
    const stillOpen = new Promise((resolve) => setTimeout(() => resolve('still open'), 5000));
    expect(await Promise.race([tab.closed, stillOpen])).toBe(4001);
    for (const path of ['/api/admin/overview', '/api/conversations', '/api/profile/details'])
      expect((await get(t, path, intruder)).status, path).toBe(401);
    for (const path of ['/api/auth/two-factor/get-totp-uri', '/api/auth/two-factor/generate-backup-codes']) {
      const res = await send(
        t,
        'POST',
        path,
        { password: TEST_PASSWORD, code: setup.backupCodes[0] },
        intruder,
      );
      expect(res.status, path).toBe(401);
    }
    expect((await send(t, 'POST', '/api/support/conversation', {}, intruder)).status).toBe(401);
  });

  it('opens the console and Support only to a session that proved the second factor', async () => {
    const who = await person('student');
    await admin(t, who);
    const setup = await turnOn(t, who);
    const student = await person('student');
    const opened = await send(t, 'POST', '/api/support/conversation', {}, student.jar);
    const id = (await opened.json()).conversationId as string;
    expect(
      (await send(t, 'POST', `/api/conversations/${id}/messages`, { text: 'Hello?' }, student.jar)).status,
    ).toBe(201);

    // A code with "Trust this device": the next password sign-in of this browser proves it too.
    const trusted = await passwordStep(who.email);
    const verified = await send(
      t,
      'POST',
      '/api/auth/two-factor/verify-totp',
      { code: freshCodeFor(setup.secret), trustDevice: true },
      trusted,
    );
    expect(verified.status).toBe(200);
    trusted.store(verified);
    expect((await send(t, 'POST', '/api/auth/sign-out', {}, trusted)).status).toBe(200);
    const again = await signIn(t, who.email, TEST_PASSWORD, trusted);
    expect(await again.res.json()).toMatchObject({ user: { email: who.email } });
    expect((await get(t, '/api/admin/overview', trusted)).status).toBe(200);
    expect((await get(t, `/api/conversations/${id}`, trusted)).status).toBe(200);

    // A session of the account that proved nothing (a password sign-in that raced the switch-on
    // would make one) is refused the console, Support and the live channel.
    const token = decodeURIComponent(trusted.get('tutorlane.session_token') ?? '').split('.')[0] ?? '';
    await t.database.db
      .updateTable('sessions')
      .set({ two_factor_verified: false })
      .where('token', '=', token)
      .execute();
    const refused = await get(t, '/api/admin/overview', trusted);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'TWO_FACTOR_REQUIRED' });
    expect((await get(t, `/api/conversations/${id}`, trusted)).status).toBe(404);
    expect(
      (await send(t, 'POST', `/api/conversations/${id}/messages`, { text: 'On it' }, trusted)).status,
    ).toBe(404);
    await expect(openChannel(server.url, trusted)).rejects.toThrow('HTTP 403');
  });

  it('is reset from the command line for someone locked out: the password alone signs in, and it is audited', async () => {
    const who = await person('student');
    await admin(t, who);
    const setup = await turnOn(t, who);
    const trusting = await passwordStep(who.email);
    const trusted = await send(
      t,
      'POST',
      '/api/auth/two-factor/verify-totp',
      { code: freshCodeFor(setup.secret), trustDevice: true },
      trusting,
    );
    expect(trusted.status).toBe(200);
    expect(await trustedDevices(who)).toBe(1);
    const reset = await runAdminCommand(['reset-two-factor', who.email], async () => ({
      ...t.database,
      close: async () => {},
    }));
    expect(reset).toMatchObject({ exitCode: 0, error: '' });
    expect(reset.output).toContain(who.email);
    expect(await trustedDevices(who)).toBe(0);
    const { res, jar } = await signIn(t, who.email);
    expect(await res.json()).toMatchObject({ user: { email: who.email, twoFactorEnabled: false } });
    // Back to the setup before the console.
    expect(await (await get(t, '/api/admin/overview', jar)).json()).toMatchObject({
      code: 'TWO_FACTOR_REQUIRED',
    });
    const audited = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'user.two_factor_reset')
      .execute();
    expect(audited).toHaveLength(1);
  });

  it('lets an admin without two-factor in with ADMIN_TWO_FACTOR=optional', async () => {
    const optional = await createTestApp({
      env: { ADMIN_TWO_FACTOR: 'optional', SMTP_URL: mailbox.smtpUrl },
    });
    try {
      const who = await verifiedPerson(optional, mailbox, 'student', 'Optional Admin');
      await admin(optional, who);
      expect((await get(optional, '/api/admin/overview', who.jar)).status).toBe(200);
    } finally {
      await optional.close();
    }
  });

  it('is required by default, and anything but required or optional stops the server', () => {
    expect(testConfig({ ADMIN_TWO_FACTOR: '' }).adminTwoFactor).toBe('required');
    expect(() => testConfig({ ADMIN_TWO_FACTOR: 'bogus' })).toThrow(ConfigError);
    expect(() => testConfig({ ADMIN_TWO_FACTOR: 'bogus' })).toThrow(
      'Invalid configuration: ADMIN_TWO_FACTOR must be required or optional (got "bogus")',
    );
  });
});
