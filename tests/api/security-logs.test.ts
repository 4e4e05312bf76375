/**
 * Logs: one structured line per sign-in and per 401, 403 and 429, and not a
 * single password, token, cookie, captcha solution or the server's secret anywhere in a run's logs.
 */
import { expect, it } from 'vitest';
import { get, send, signIn, signUp, solveCaptcha, verificationToken } from '../support/accounts';
import { mailbox, setUpApiTest, t } from '../support/api-app';
import { linkIn } from '../support/mail-catcher';

setUpApiTest({ env: { LOG_LEVEL: 'trace' } });

/** A session cookie's value ("token.signature"), and the bare token, which the database keeps. */
function cookieSecrets(res: Response): string[] {
  return res.headers.getSetCookie().flatMap((line) => {
    const value = decodeURIComponent(line.split(';')[0]?.split('=')[1] ?? '');
    return [value, value.slice(0, value.lastIndexOf('.'))];
  });
}

it('logs each sign-in and refusal as one JSON line, and never a secret', async () => {
  const secrets: string[] = [t.config.authSecret];
  const password = 'logged-nowhere-pass-42';
  secrets.push(password);
  const captcha = await solveCaptcha(t);
  secrets.push(captcha, JSON.parse(atob(captcha)).solution.derivedKey);
  const { email, jar, res } = await signUp(t, { password, captcha });
  secrets.push(...cookieSecrets(res));
  const verifyMail = await mailbox.waitFor((m) => m.to === email && m.subject.includes('Verify'));
  const verifyToken = verificationToken(verifyMail);
  secrets.push(verifyToken);
  await send(t, 'POST', '/api/account/verify-email', { token: verifyToken }, jar);

  const wrong = 'wrong-but-secret-42';
  secrets.push(wrong);
  const before = t.logLines.length;
  await signIn(t, email, wrong);
  const signedIn = await signIn(t, email, password);
  secrets.push(...cookieSecrets(signedIn.res));
  const signInLines = t.logLines
    .slice(before)
    .map((line) => JSON.parse(line))
    .filter((line) => line.event === 'sign-in');
  expect(signInLines.map((line) => line.outcome)).toEqual(['failure', 'success']);

  await send(t, 'POST', '/api/auth/request-password-reset', { email });
  const resetMail = await mailbox.waitFor((m) => m.to === email && m.subject.includes('Reset'));
  const resetToken = new URL(linkIn(resetMail, '/reset-password?token=')).searchParams.get('token') ?? '';
  secrets.push(resetToken);
  const newPassword = 'the-next-secret-42';
  secrets.push(newPassword);
  await send(t, 'POST', '/api/auth/reset-password', {
    token: resetToken,
    newPassword,
    confirmPassword: newPassword,
  });

  // A 401, a 403 and a 429, each one line.
  const refusals = t.logLines.length;
  await get(t, '/api/profile');
  const { jar: unverified } = await signUp(t, { password });
  await get(t, '/api/dashboard', unverified);
  // The account's eleventh failure from one address is refused.
  for (let i = 0; i < 11; i++) {
    await t.request('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'x-forwarded-for': '192.0.2.44' },
      body: JSON.stringify({ email, password: wrong }),
    });
  }
  const refused = t.logLines
    .slice(refusals)
    .map((line) => JSON.parse(line))
    .filter((line) => line.msg === 'request refused');
  expect(refused.filter((line) => line.status === 401 && line.path === '/api/profile')).toHaveLength(1);
  expect(refused.filter((line) => line.status === 403)).toHaveLength(1);
  expect(refused.filter((line) => line.status === 429)).toHaveLength(1);

  const everything = t.logLines.join('\n');
  for (const line of t.logLines) expect(() => JSON.parse(line)).not.toThrow();
  // Every one of them is long enough that finding it would not be chance.
  expect(secrets.filter((secret) => secret.length < 16)).toEqual([]);
  for (const secret of secrets) {
    expect(everything.includes(secret), `a secret of ${secret.length} characters is in the logs`).toBe(false);
  }
});

it("never logs a client's text at error level, nor a line a client made long", async () => {
  const before = t.logLines.length;
  const long = `https://evil.example/${'x'.repeat(50_000)}`;
  for (const [path, body] of [
    ['/api/auth/send-verification-email', { email: 'someone@example.com', callbackURL: long }],
    ['/api/auth/request-password-reset', { email: 'someone@example.com', redirectTo: long }],
    [
      '/api/auth/sign-in/email',
      { email: 'someone@example.com', password: 'wrong-pass-42', callbackURL: long },
    ],
  ] as const) {
    const res = await t.request(path, { method: 'POST', body: JSON.stringify(body) });
    expect(res.status, path).toBeLessThan(500);
  }
  const lines = t.logLines.slice(before);
  expect(lines.filter((line) => JSON.parse(line).level >= 50)).toEqual([]);
  for (const line of lines) expect(line.length).toBeLessThan(1000);
});

it('logs a refused input as the request it was, never as a server error', async () => {
  const before = t.logLines.length;
  const common = await signUp(t, { password: 'password123' });
  expect(common.res.status).toBe(400);
  const short = await signUp(t, { password: 'abc' });
  expect(short.res.status).toBe(400);
  const lines = t.logLines.slice(before).map((line) => JSON.parse(line));
  expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  expect(lines.filter((line) => line.path === '/api/auth/sign-up/email').map((line) => line.status)).toEqual([
    400, 400,
  ]);
});
