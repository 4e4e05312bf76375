/**
 * Account helpers for API tests: solve a captcha the way the browser widget does, sign up, sign
 * in, and keep cookies like a browser.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge } from 'altcha-lib/types';
import type { CaughtMail } from './mail-catcher';
import { linkIn } from './mail-catcher';
import type { TestApp } from './test-app';

export const TEST_PASSWORD = 'correct-horse-battery-42';
let counter = 0;

export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** A browser's cookie jar, reduced to what these tests need. */
export class CookieJar {
  private cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (!pair || index < 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

export async function solveCaptcha(t: TestApp): Promise<string> {
  const res = await t.request('/api/captcha/challenge');
  const challenge = (await res.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the captcha challenge');
  return btoa(JSON.stringify({ challenge, solution }));
}

export interface SignUpInput {
  email?: string;
  password?: string;
  confirmPassword?: string;
  name?: string;
  role?: string;
  captcha?: string | null;
  jar?: CookieJar;
  headers?: Record<string, string>;
}

export async function signUp(t: TestApp, input: SignUpInput = {}) {
  const email = input.email ?? uniqueEmail();
  const password = input.password ?? TEST_PASSWORD;
  const jar = input.jar ?? new CookieJar();
  const captcha = input.captcha === undefined ? await solveCaptcha(t) : input.captcha;
  const headers: Record<string, string> = { ...input.headers };
  if (captcha !== null) headers['x-captcha'] = captcha;
  const res = await t.request('/api/auth/sign-up/email', {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: input.name ?? 'Ada Lovelace',
      email,
      password,
      confirmPassword: input.confirmPassword ?? password,
      ...(input.role === undefined ? {} : { role: input.role }),
    }),
  });
  jar.store(res);
  return { res, email, password, jar };
}

export async function signIn(t: TestApp, email: string, password = TEST_PASSWORD, jar = new CookieJar()) {
  const res = await t.request('/api/auth/sign-in/email', {
    method: 'POST',
    body: JSON.stringify({ email, password }),
    headers: { cookie: jar.header() },
  });
  jar.store(res);
  return { res, jar };
}

export function get(t: TestApp, path: string, jar?: CookieJar) {
  return t.request(path, { headers: jar ? { cookie: jar.header() } : {} });
}

export function send(t: TestApp, method: string, path: string, body: unknown, jar?: CookieJar) {
  return t.request(path, {
    method,
    body: JSON.stringify(body),
    headers: jar ? { cookie: jar.header() } : {},
  });
}

/** The token of the verification link in a mail. */
export function verificationToken(mail: CaughtMail): string {
  const token = new URL(linkIn(mail, '/verify-email?token=')).searchParams.get('token');
  if (!token) throw new Error('no token in the verification link');
  return token;
}

/** Signs up and verifies through the mailed link; returns a signed-in, verified jar. */
export async function verifiedUser(
  t: TestApp,
  mailbox: { waitFor: (m: (mail: CaughtMail) => boolean) => Promise<CaughtMail> },
  input: SignUpInput = {},
) {
  const result = await signUp(t, input);
  if (result.res.status !== 200)
    throw new Error(`sign-up failed: ${result.res.status} ${await result.res.text()}`);
  const mail = await mailbox.waitFor((m) => m.to === result.email && m.subject.includes('Verify'));
  const res = await send(
    t,
    'POST',
    '/api/account/verify-email',
    { token: verificationToken(mail) },
    result.jar,
  );
  if (res.status !== 200) throw new Error(`verification failed: ${res.status}`);
  result.jar.store(res);
  return result;
}

/** A verified, signed-in account with its id and name: where most API tests begin. */
export async function verifiedPerson(
  t: TestApp,
  mailbox: Parameters<typeof verifiedUser>[1],
  role: 'student' | 'tutor' | 'parent',
  name: string,
) {
  const account = await verifiedUser(t, mailbox, { role, name });
  const id = (await (await get(t, '/api/session', account.jar)).json()).user.id as string;
  return { jar: account.jar, id, email: account.email, name };
}
