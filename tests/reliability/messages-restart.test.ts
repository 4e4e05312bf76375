/**
 * A server restarted in the middle of a conversation loses nothing it acknowledged: two people keep
 * writing while it stops (SIGTERM) and starts again on the same data, and both of their open
 * browser tabs, never reloaded, reconnect by themselves and end up showing every acknowledged
 * message once, in order, including those sent while the tabs were still reconnecting.
 */
import { type Browser, type BrowserContext, chromium } from '@playwright/test';
import { afterAll, expect, it, onTestFinished } from 'vitest';
import {
  PASSWORD,
  postHeaders,
  sessionCookieOf,
  signIn,
  solvedCaptcha,
  uniqueEmail,
} from '../support/http-accounts';
import { linkIn, type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { recordFinding, seconds } from './findings';
import { expectRunning, signalServer, sleep, startServer, tempDataDir } from './reliability-server';

let browser: Browser | undefined;
afterAll(() => browser?.close());

/** A verified account signed in twice: in a browser context (the tab) and as a Cookie header. */
async function person(url: string, mail: MailCatcher, role: 'student' | 'tutor', name: string) {
  const email = uniqueEmail(`restart-${role}`);
  const up = await fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { ...postHeaders(url), 'x-captcha': await solvedCaptcha(url) },
    body: JSON.stringify({ name, email, password: PASSWORD, confirmPassword: PASSWORD, role }),
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
  const [cookieName, cookieValue] = [
    cookie.slice(0, cookie.indexOf('=')),
    cookie.slice(cookie.indexOf('=') + 1),
  ];
  browser ??= await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  const context: BrowserContext = await browser.newContext({ baseURL: url });
  await context.addCookies([{ name: cookieName, value: cookieValue, url }]);
  return { email, cookie, context };
}

it('loses no acknowledged message across a restart, and open tabs catch up by themselves', async ({
  task,
}) => {
  const mail = await startMailCatcher();
  onTestFinished(() => mail.close());
  const dataDir = tempDataDir();
  const first = await startServer({ DATA_DIR: dataDir, SMTP_URL: mail.smtpUrl });
  const { url } = first;
  const port = new URL(url).port;

  const tutor = await person(url, mail, 'tutor', 'Ravi Restart');
  const student = await person(url, mail, 'student', 'Stella Steady');
  const published = await fetch(`${url}/api/profile/details`, {
    method: 'PATCH',
    headers: { ...postHeaders(url), cookie: tutor.cookie },
    body: JSON.stringify({
      headline: 'Physics that sticks',
      about: 'Patient lessons.',
      subjects: ['Physics'],
      hourlyRate: 45,
      languages: ['English'],
    }),
  });
  expect(published.status, await published.text()).toBe(200);
  const opened = await fetch(`${url}/api/conversations`, {
    method: 'POST',
    headers: { ...postHeaders(url), cookie: student.cookie },
    body: JSON.stringify({ tutorId: (await whoIs(url, tutor.cookie)).id, text: 'line 0' }),
  });
  expect(opened.status, await opened.clone().text()).toBe(201);
  const conversationId = ((await opened.json()) as { id: string }).id;
  const acknowledged = ['line 0'];

  // Both tabs open on the conversation, never reloaded from here on.
  const tabs = await Promise.all(
    [tutor, student].map(async (who) => {
      const page = await who.context.newPage();
      await page.goto(`/messages/${conversationId}`);
      const log = page.getByRole('log');
      await log.getByText('line 0').waitFor();
      return { page, log };
    }),
  );

  /** Sends one line; true when the server acknowledged it (201). */
  const send = async (from: { cookie: string }, text: string) => {
    try {
      const res = await fetch(`${url}/api/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { ...postHeaders(url), cookie: from.cookie },
        body: JSON.stringify({ text }),
        signal: AbortSignal.timeout(5000),
      });
      await res.body?.cancel();
      if (res.status === 201) acknowledged.push(text);
      return res.status === 201;
    } catch {
      return false;
    }
  };

  // Lines keep coming, one side then the other, while the server stops and starts again. Each
  // side stays well under its 30 messages a minute.
  let line = 1;
  const writer = (async () => {
    for (; line <= 16; line++) {
      await send(line % 2 ? student : tutor, `line ${line}`);
      await sleep(150);
    }
  })();
  while (line < 4) await sleep(20);
  const stoppedAt = Date.now();
  signalServer(first, 'SIGTERM');
  expect(await first.exited).toBe(0);
  const second = await startServer({ DATA_DIR: dataDir, SMTP_URL: mail.smtpUrl, PORT: port, APP_URL: url });
  const downMs = Date.now() - stoppedAt;
  await writer;
  // Sent at once after the restart, before the tabs' next try to reconnect: only catching up shows these.
  for (let extra = 0; extra < 4; extra++) await send(extra % 2 ? student : tutor, `after ${extra}`);

  const lost = 16 + 4 + 1 - acknowledged.length;
  expect(acknowledged.length).toBeGreaterThan(8);
  const caughtUpAt = Date.now();
  for (const { log } of tabs) {
    await expect
      .poll(async () => (await log.getByRole('listitem').allInnerTexts()).map(lineOf), { timeout: 45_000 })
      .toEqual(acknowledged);
  }
  const stored = await fetch(`${url}/api/conversations/${conversationId}/messages`, {
    headers: { cookie: student.cookie },
  });
  const { messages } = (await stored.json()) as { messages: { text: string }[] };
  expect(messages.map((message) => message.text)).toEqual(acknowledged);

  recordFinding(task, {
    short: 'messages across a restart',
    detail: `down ${seconds(downMs)}; ${acknowledged.length} acknowledged lines, ${lost} refused while down; both tabs showed all of them ${seconds(Date.now() - caughtUpAt)} after the last send`,
  });
  expectRunning(second);
  signalServer(second, 'SIGTERM');
  expect(await second.exited).toBe(0);
});

async function whoIs(url: string, cookie: string): Promise<{ id: string }> {
  const res = await fetch(`${url}/api/session`, { headers: { cookie } });
  return ((await res.json()) as { user: { id: string } }).user;
}

/** A line as the tab shows it, without its screen-reader prefix, time and Report button. */
function lineOf(text: string): string {
  return text.match(/(line \d+|after \d+)/)?.[1] ?? text;
}
