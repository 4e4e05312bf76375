/**
 * Accounts to measure with, made through the public API the way a browser makes them: an ALTCHA
 * challenge solved with altcha-lib, sign-up (which signs in), and the verification link the server
 * mails. Without SMTP_URL the server saves every mail under DATA_DIR/mail, a .txt copy beside each
 * .eml, which is where the link is read from.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge } from 'altcha-lib/types';

export const PASSWORD = 'correct-horse-battery-42';
export const SESSION_COOKIE = 'tutorlane.session_token';

export type Role = 'student' | 'tutor';

export interface BenchAccount {
  id: string;
  email: string;
  password: string;
  role: Role;
  /** The Cookie header of this account's signed-in browser. */
  cookie: string;
}

/** A server to make accounts on: its URL, and its data folder, where it saves mail. */
export interface AccountServer {
  url: string;
  dataDir: string;
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

/** The browser's cookies after `res`: `cookie` with every Set-Cookie of `res` applied. */
function withSetCookies(cookie: string, res: Response): string {
  const jar = new Map(
    cookie
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair] as const),
  );
  for (const line of res.headers.getSetCookie()) {
    const pair = line.split(';')[0] ?? '';
    const name = pair.slice(0, pair.indexOf('='));
    if (/=(;|$)/.test(pair) || /max-age=0/i.test(line)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join('; ');
}

/** Sends a JSON request as a signed-in browser of the app's origin would; rejects unless 2xx. */
export async function callApi(
  url: string,
  path: string,
  options: { method?: string; cookie?: string; body?: unknown } = {},
): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      ...(options.body === undefined ? {} : postHeaders(url)),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  await expectOk(res, `${options.method ?? 'GET'} ${path}`);
  return res.json();
}

/** Runs `work` on every item, at most `limit` at a time; resolves with the results in order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Sign-up through the captcha: the account, signed in, its email not yet verified. */
async function signUp(url: string, email: string, name: string, role: Role): Promise<BenchAccount> {
  const challengeRes = await fetch(`${url}/api/captcha/challenge`, {
    headers: { 'x-forwarded-for': randomClientAddress() },
  });
  await expectOk(challengeRes, 'GET /api/captcha/challenge');
  const challenge = (await challengeRes.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  const res = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { ...postHeaders(url), 'x-captcha': btoa(JSON.stringify({ challenge, solution })) },
    body: JSON.stringify({ name, email, password: PASSWORD, confirmPassword: PASSWORD, role }),
  });
  await expectOk(res, 'sign-up');
  const { user } = (await res.json()) as { user: { id: string } };
  const cookie = withSetCookies('', res);
  if (!cookie.includes(`${SESSION_COOKIE}=`)) throw new Error(`sign-up set no ${SESSION_COOKIE} cookie`);
  return { id: user.id, email, password: PASSWORD, role, cookie };
}

/** Verification tokens found in the saved mail, by recipient. */
function verificationTokens(dataDir: string): Map<string, string> {
  const mailDir = join(dataDir, 'mail');
  const tokens = new Map<string, string>();
  let files: string[] = [];
  try {
    files = readdirSync(mailDir).filter((file) => file.endsWith('.txt'));
  } catch {
    return tokens;
  }
  for (const file of files) {
    const text = readFileSync(join(mailDir, file), 'utf8');
    const to = /^To: (.+)$/m.exec(text)?.[1]?.trim();
    const token = /\/verify-email\?token=([\w-]+)/.exec(text)?.[1];
    if (to && token) tokens.set(to, token);
  }
  return tokens;
}

/** Waits until the server has saved a verification mail for every account. */
async function waitForVerificationMail(dataDir: string, emails: string[]): Promise<Map<string, string>> {
  const deadline = performance.now() + 120_000;
  for (;;) {
    const tokens = verificationTokens(dataDir);
    const missing = emails.filter((email) => !tokens.has(email));
    if (missing.length === 0) return tokens;
    if (performance.now() > deadline)
      throw new Error(`no verification mail for ${missing.length} account(s), e.g. ${missing[0]}`);
    await sleep(250);
  }
}

/** Opens the verification link in the account's own browser, which keeps it signed in. */
async function verify(url: string, account: BenchAccount, token: string): Promise<BenchAccount> {
  const res = await fetch(`${url}/api/account/verify-email`, {
    method: 'POST',
    headers: { ...postHeaders(url), cookie: account.cookie },
    body: JSON.stringify({ token }),
  });
  await expectOk(res, 'POST /api/account/verify-email');
  const body = (await res.json()) as { signedIn: boolean };
  if (!body.signedIn) throw new Error(`verifying ${account.email} did not keep it signed in`);
  return { ...account, cookie: withSetCookies(account.cookie, res) };
}

export interface AccountRequest {
  role: Role;
  name: string;
}

/**
 * Signs up one account per request, `concurrency` at a time (the captcha's work is the client's,
 * and most of the time), then verifies each email through its mailed link.
 */
export async function createAccounts(
  server: AccountServer,
  requests: AccountRequest[],
  options: { concurrency?: number; verified?: boolean } = {},
): Promise<BenchAccount[]> {
  const run = randomBytes(4).toString('hex');
  const signedUp = await mapLimited(requests, options.concurrency ?? 4, (request, index) =>
    signUp(server.url, `bench-${run}-${index + 1}@example.com`, request.name, request.role),
  );
  if (options.verified === false) return signedUp;
  const tokens = await waitForVerificationMail(
    server.dataDir,
    signedUp.map((account) => account.email),
  );
  return mapLimited(signedUp, 8, (account) =>
    verify(server.url, account, tokens.get(account.email) as string),
  );
}

/** One verified student, signed in. */
export async function createAccount(server: AccountServer): Promise<BenchAccount> {
  const [account] = await createAccounts(server, [{ role: 'student', name: 'Bench Bea' }]);
  return account as BenchAccount;
}

/** A tutor's profile, complete enough to be published (listed in search, bookable). */
export async function publishTutor(url: string, tutor: BenchAccount, timeZone = 'UTC'): Promise<void> {
  await callApi(url, '/api/profile/details', {
    method: 'PATCH',
    cookie: tutor.cookie,
    body: {
      timeZone,
      headline: 'Algebra and calculus, step by step',
      about: 'I teach algebra and calculus to high school and university students.',
      subjects: ['Algebra', 'Calculus'],
      hourlyRate: 40,
      languages: ['English'],
    },
  });
}

/** Signs in with a password as a browser would; the account's Cookie header. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  return (await signInAs(url, email, password, 'student')).cookie;
}

/** Signs in an account the store already holds (a demo person of seed:demo) as its browser would. */
export async function signInAs(
  url: string,
  email: string,
  password: string,
  role: Role,
): Promise<BenchAccount> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: postHeaders(url),
    body: JSON.stringify({ email, password }),
  });
  await expectOk(res, `sign-in as ${email}`);
  const { user } = (await res.json()) as { user: { id: string } };
  const cookie = withSetCookies('', res);
  if (!cookie.includes(`${SESSION_COOKIE}=`)) throw new Error(`signing in as ${email} set no session cookie`);
  return { id: user.id, email, password, role, cookie };
}
