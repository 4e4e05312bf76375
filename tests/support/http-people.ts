/**
 * People and calls for the tests that drive the real server over HTTP and run the project's own
 * commands (npm run admin, backup, restore, move-to-postgres) as an operator would.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { PASSWORD, postHeaders, sessionCookieOf, signIn, solvedCaptcha, uniqueEmail } from './http-accounts';
import { linkIn, type MailCatcher } from './mail-catcher';
import { projectRoot } from './server-process';

const run = promisify(execFile);

export interface Person {
  id: string;
  email: string;
  cookie: string;
}

export async function call(
  url: string,
  who: Person | undefined,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...postHeaders(url), ...(who ? { cookie: who.cookie } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  // biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, checked by each test line
  return { status: res.status, body: parsed as any, text };
}

export async function person(
  url: string,
  mail: MailCatcher,
  role: 'student' | 'tutor',
  name: string,
): Promise<Person> {
  const email = uniqueEmail(`backup-${role}`);
  const up = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { ...postHeaders(url), 'x-captcha': await solvedCaptcha(url) },
    body: JSON.stringify({ name, email, password: PASSWORD, confirmPassword: PASSWORD, role }),
  });
  expect(up.status, await up.text()).toBe(200);
  const link = linkIn(await mail.waitFor((m) => m.to === email), '/verify-email?token=');
  const verified = await call(url, undefined, 'POST', '/api/account/verify-email', {
    token: new URL(link).searchParams.get('token'),
  });
  expect(verified.status, verified.text).toBe(200);
  const cookie = sessionCookieOf(await signIn(url, email));
  if (!cookie) throw new Error('sign-in set no session cookie');
  const session = await call(url, { id: '', email, cookie }, 'GET', '/api/session');
  return { id: session.body.user.id, email, cookie };
}

/** A project script run as `npm run NAME -- ...` runs it, with only the given environment. */
export async function script(name: string, args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', `scripts/${name}.ts`, ...args],
      {
        cwd: projectRoot,
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
