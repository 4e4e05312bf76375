/**
 * The people of the money tests against a real server: verified accounts signed in through the
 * HTTP API as a browser would, the admin granted by the admin command, and calls made as one of them.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import {
  PASSWORD,
  postHeaders,
  sessionCookieOf,
  signIn,
  solvedCaptcha,
  uniqueEmail,
} from '../support/http-accounts';
import { linkIn, type MailCatcher } from '../support/mail-catcher';
import { projectRoot } from '../support/server-process';

const run = promisify(execFile);

export interface Person {
  id: string;
  email: string;
  cookie: string;
}

export async function call(url: string, who: Person, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...postHeaders(url), cookie: who.cookie },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

/** A verified account, signed in: sign-up, the mailed link, sign-in. */
export async function person(url: string, mail: MailCatcher, role: 'student' | 'tutor'): Promise<Person> {
  const email = uniqueEmail(`money-${role}`);
  const up = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { ...postHeaders(url), 'x-captcha': await solvedCaptcha(url) },
    body: JSON.stringify({ name: `Mo ${role}`, email, password: PASSWORD, confirmPassword: PASSWORD, role }),
  });
  expect(up.status, await up.text()).toBe(200);
  const link = linkIn(await mail.waitFor((m) => m.to === email), '/verify-email?token=');
  const verified = await fetch(`${url}/api/account/verify-email`, {
    method: 'POST',
    headers: postHeaders(url),
    body: JSON.stringify({ token: new URL(link).searchParams.get('token') }),
  });
  expect(verified.status).toBe(200);
  const cookie = sessionCookieOf(await signIn(url, email));
  if (!cookie) throw new Error('sign-in set no session cookie');
  const session = await fetch(`${url}/api/session`, { headers: { cookie } });
  const { user } = (await session.json()) as { user: { id: string } };
  return { id: user.id, email, cookie };
}

/**
 * The admin command, as `npm run admin -- grant <email>` runs it, on the server's store: a stopped
 * server's data folder (the embedded store has one user at a time), or a PostgreSQL database.
 */
export async function grantAdmin(store: { DATA_DIR: string } | { DATABASE_URL: string }, email: string) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'grant', email], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...store },
  });
  return stdout;
}

/** The seven finance totals summed: zero whenever the ledger is whole. */
export function totalsSum(totals: {
  studentBalances: { amountCents: number };
  held: { amountCents: number };
  packages?: { amountCents: number };
  tutorPayable: { amountCents: number };
  schoolRevenue: { amountCents: number };
  clearing: { manual: { amountCents: number }; stripe: { amountCents: number } };
}): number {
  return (
    totals.studentBalances.amountCents +
    totals.held.amountCents +
    (totals.packages?.amountCents ?? 0) +
    totals.tutorPayable.amountCents +
    totals.schoolRevenue.amountCents +
    totals.clearing.manual.amountCents +
    totals.clearing.stripe.amountCents
  );
}
