/**
 * An account to measure with, made through the public API the way the browser makes it: an ALTCHA
 * challenge solved with altcha-lib, sign-up, then sign-in for the session cookie.
 */
import { randomBytes } from 'node:crypto';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge } from 'altcha-lib/types';

export const PASSWORD = 'correct-horse-battery-42';
export const SESSION_COOKIE = 'tutorlane.session_token';

export interface BenchAccount {
  email: string;
  password: string;
  /** The Cookie header of a signed-in browser. */
  cookie: string;
}

export function randomClientAddress(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${(a ?? 0) % 254}.${(b ?? 0) % 254}.${((c ?? 0) % 253) + 1}`;
}

/** Headers of a state-changing request from the app's own origin, from a fresh client address. */
export function postHeaders(url: string): Record<string, string> {
  return { 'content-type': 'application/json', origin: url, 'x-forwarded-for': randomClientAddress() };
}

async function expectOk(res: Response, what: string): Promise<void> {
  if (res.ok) return;
  throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
}

export async function createAccount(url: string): Promise<BenchAccount> {
  const email = `bench-${Date.now()}-${randomBytes(4).toString('hex')}@example.com`;
  const challengeRes = await fetch(`${url}/api/captcha/challenge`, {
    headers: { 'x-forwarded-for': randomClientAddress() },
  });
  await expectOk(challengeRes, 'GET /api/captcha/challenge');
  const challenge = (await challengeRes.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  const signUp = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { ...postHeaders(url), 'x-captcha': btoa(JSON.stringify({ challenge, solution })) },
    body: JSON.stringify({ name: 'Bench Bea', email, password: PASSWORD, confirmPassword: PASSWORD }),
  });
  await expectOk(signUp, 'sign-up');

  const signIn = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: postHeaders(url),
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  await expectOk(signIn, 'sign-in');
  const cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .filter(Boolean)
    .join('; ');
  if (!cookie.includes(`${SESSION_COOKIE}=`)) throw new Error(`sign-in set no ${SESSION_COOKIE} cookie`);

  const session = await fetch(`${url}/api/session`, { headers: { cookie } });
  const body = (await session.json()) as { user: { email: string } | null };
  if (body.user?.email !== email) throw new Error('the session cookie does not sign the account in');
  return { email, password: PASSWORD, cookie };
}
