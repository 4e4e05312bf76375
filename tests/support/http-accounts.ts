/**
 * Accounts over real HTTP, for tests that drive the server as a process: solve the ALTCHA
 * challenge as the browser widget does, sign up, sign in, and read the session cookie. Every
 * request comes from a fresh client address (the server runs with TRUST_PROXY=1), so long streams
 * of sign-ups and sign-ins are not throttled by the per-address rate limits.
 */
import { randomBytes } from 'node:crypto';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge } from 'altcha-lib/types';

export const PASSWORD = 'correct-horse-battery-42';
export const SESSION_COOKIE = 'tutorlane.session_token';

export function randomClientAddress(): string {
  const [a = 0, b = 0, c = 0] = randomBytes(3);
  return `10.${a % 254}.${b % 254}.${(c % 253) + 1}`;
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}@example.com`;
}

/** Headers of a state-changing request from the app's own page, from a fresh client address. */
export function postHeaders(url: string): Record<string, string> {
  return { 'content-type': 'application/json', origin: url, 'x-forwarded-for': randomClientAddress() };
}

/** The x-captcha header value of a freshly solved challenge. */
export async function solvedCaptcha(url: string): Promise<string> {
  const res = await fetch(`${url}/api/captcha/challenge`, {
    headers: { 'x-forwarded-for': randomClientAddress() },
  });
  if (!res.ok) throw new Error(`GET /api/captcha/challenge answered ${res.status}`);
  const challenge = (await res.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the captcha challenge');
  return btoa(JSON.stringify({ challenge, solution }));
}

export async function signUp(url: string, email: string, captcha?: string): Promise<Response> {
  return fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { ...postHeaders(url), 'x-captcha': captcha ?? (await solvedCaptcha(url)) },
    body: JSON.stringify({ name: 'Reliable Rae', email, password: PASSWORD, confirmPassword: PASSWORD }),
  });
}

export function signIn(url: string, email: string): Promise<Response> {
  return fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: postHeaders(url),
    body: JSON.stringify({ email, password: PASSWORD }),
  });
}

/** The Cookie header a browser would send after this response, or undefined without a session. */
export function sessionCookieOf(res: Response): string | undefined {
  const pair = res.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((part) => part.startsWith(`${SESSION_COOKIE}=`) && part.length > SESSION_COOKIE.length + 1);
  return pair;
}

/** Signs a new account up and in; returns its email and the signed-in Cookie header. */
export async function signedInAccount(
  url: string,
  prefix: string,
): Promise<{ email: string; cookie: string }> {
  const email = uniqueEmail(prefix);
  const up = await signUp(url, email);
  if (up.status !== 200) throw new Error(`sign-up answered ${up.status}: ${await up.text()}`);
  const res = await signIn(url, email);
  const cookie = sessionCookieOf(res);
  if (res.status !== 200 || !cookie) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return { email, cookie };
}

/** The email of the user the cookie signs in, as GET /api/session tells the browser. */
export async function sessionEmail(url: string, cookie: string): Promise<string | null> {
  const res = await fetch(`${url}/api/session`, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`GET /api/session answered ${res.status}`);
  const body = (await res.json()) as { user: { email: string } | null };
  return body.user?.email ?? null;
}
