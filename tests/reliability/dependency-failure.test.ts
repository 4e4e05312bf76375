/** With its database or its mail server down the server answers quickly and honestly, and recovers on its own when they return. */
import { expect, it, onTestFinished } from 'vitest';
import {
  postHeaders,
  sessionCookieOf,
  sessionEmail,
  signedInAccount,
  signIn,
  signUp,
  uniqueEmail,
} from '../support/http-accounts';
import { linkIn, startMailCatcher } from '../support/mail-catcher';
import { createPostgresDatabase, POSTGRES } from '../support/postgres-database';
import { freePort } from '../support/server-process';
import { startTcpProxy } from '../support/tcp-proxy';
import { type Finding, recordFinding, seconds } from './findings';
import { expectRunning, signalServer, sleep, startServer, tempDataDir } from './reliability-server';

async function timed(send: () => Promise<Response>) {
  const started = Date.now();
  const res = await send();
  const body = await res.text();
  return { status: res.status, body, ms: Date.now() - started };
}

it('answers 503 within 2 s while PostgreSQL is down, and recovers when it is back', async (context) => {
  const database = await createPostgresDatabase('tutorlane_reliability');
  if (!database) {
    context.skip('no PostgreSQL answers on 127.0.0.1:5432');
    return;
  }
  onTestFinished(() => database.drop());
  const proxy = await startTcpProxy(POSTGRES);
  onTestFinished(() => proxy.close());
  const server = await startServer({
    DATA_DIR: tempDataDir(),
    DATABASE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/${database.name}`,
  });
  const { url } = server;
  const { email, cookie } = await signedInAccount(url, 'db-outage');
  expect(await sessionEmail(url, cookie)).toBe(email);
  // A second browser whose session the server has never looked up: it cannot come from the few
  // seconds the server keeps a looked-up session in memory, so checking it needs the database.
  const otherBrowser = sessionCookieOf(await signIn(url, email));
  if (!otherBrowser) throw new Error('the second sign-in set no session cookie');

  proxy.down();
  const downAt = Date.now();
  // Health answers from a background check, so what counts is how soon after the outage it says so.
  let health = await timed(() => fetch(`${url}/api/health`));
  while (health.status !== 503 && Date.now() - downAt < 5000) {
    await sleep(50);
    health = await timed(() => fetch(`${url}/api/health`));
  }
  const healthDownMs = Date.now() - downAt;
  expect(health.status, health.body).toBe(503);
  expect(healthDownMs).toBeLessThan(2000);

  const needDatabase = {
    'session check': () => fetch(`${url}/api/session`, { headers: { cookie: otherBrowser } }),
    'sign-in': () => signIn(url, email),
  };
  let slowest = 0;
  // Twice each: the first meets the dropped connections, the second finds no database at all.
  for (let round = 1; round <= 2; round++) {
    for (const [what, send] of Object.entries(needDatabase)) {
      const answer = await timed(send);
      slowest = Math.max(slowest, answer.ms);
      expect(answer.status, `${what} (round ${round}): ${answer.body}`).toBe(503);
      expect(answer.ms, `${what} (round ${round})`).toBeLessThan(2000);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    }
  }
  // The browser that just checked may be answered from memory, but never told it is signed out.
  const recent = await timed(() => fetch(`${url}/api/session`, { headers: { cookie } }));
  if (recent.status !== 503) {
    expect(recent.status, recent.body).toBe(200);
    expect(JSON.parse(recent.body)).toMatchObject({ user: { email } });
  }
  // The pages need no database: people still get the site and its message instead of nothing.
  expect((await fetch(`${url}/`)).status).toBe(200);

  proxy.up();
  const backAt = Date.now();
  while (health.status !== 200) {
    if (Date.now() - backAt > 15_000)
      throw new Error(`health still ${health.status} 15 s after the database returned`);
    await sleep(100);
    health = await timed(() => fetch(`${url}/api/health`));
  }
  const recoveredMs = Date.now() - backAt;
  expect(await sessionEmail(url, cookie)).toBe(email);
  expect(await sessionEmail(url, otherBrowser)).toBe(email);
  expect((await signIn(url, email)).status).toBe(200);

  // A database that freezes without closing its connections (a hung host, a partition): the
  // open connections get no answer at all, yet no request may hang.
  const thirdBrowser = sessionCookieOf(await signIn(url, email));
  if (!thirdBrowser) throw new Error('the third sign-in set no session cookie');
  proxy.freeze();
  const frozen = await timed(() => fetch(`${url}/api/session`, { headers: { cookie: thirdBrowser } }));
  expect(frozen.status, frozen.body).toBe(503);
  expect(frozen.ms).toBeLessThan(2000);
  proxy.up();

  recordFinding(context.task, {
    short: 'database outage',
    detail: `database down: health said 503 ${healthDownMs} ms after the outage began, a session check and a sign-in answered 503 in at most ${slowest} ms; healthy again ${seconds(recoveredMs)} after it returned, both browsers still signed in and sign-in works; a frozen database (connections open, no answers) got a 503 in ${frozen.ms} ms`,
  });
  expectRunning(server);
  signalServer(server, 'SIGTERM');
  expect(await server.exited).toBe(0);
});

it('accepts sign-ups while the mail server is down, and delivers the mail exactly once when it is back', async ({
  task,
}) => {
  const smtpPort = await freePort();
  const server = await startServer({ DATA_DIR: tempDataDir(), SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
  const { url } = server;
  const email = uniqueEmail('mail-outage');

  const signUpAnswer = await timed(() => signUp(url, email));
  expect(signUpAnswer.status, signUpAnswer.body).toBe(200);

  // Let the outbox fail twice against the absent mail server before it comes back.
  const failures = () => server.output().split('mail delivery failed').length - 1;
  const downAt = Date.now();
  while (failures() < 2) {
    if (Date.now() - downAt > 20_000)
      throw new Error(`fewer than two failed deliveries:\n${server.output()}`);
    await sleep(100);
  }
  const catcher = await startMailCatcher(smtpPort);
  onTestFinished(() => catcher.close());
  const backAt = Date.now();
  const mail = await catcher.waitFor((m) => m.to === email, 30_000);
  const deliveredMs = Date.now() - backAt;
  // Several passes of the outbox worker (every 2 s) after the delivery: none may send it again.
  await sleep(6000);
  const copies = catcher.mailsTo(email).length;

  const finding: Finding = {
    short: 'mail outage',
    detail: `mail down: sign-up answered 200 in ${signUpAnswer.ms} ms, ${failures()} failed deliveries over ${seconds(backAt - downAt)}; delivered ${seconds(deliveredMs)} after the mail server returned, ${copies} cop${copies === 1 ? 'y' : 'ies'}`,
  };
  recordFinding(task, finding);
  expect(copies).toBe(1);
  // The link in that one mail does what it says.
  const token = new URL(linkIn(mail, '/verify-email?token=')).searchParams.get('token');
  const verify = await fetch(`${url}/api/account/verify-email`, {
    method: 'POST',
    headers: postHeaders(url),
    body: JSON.stringify({ token }),
  });
  expect(await verify.json()).toMatchObject({ verified: true });

  expectRunning(server);
  signalServer(server, 'SIGTERM');
  expect(await server.exited).toBe(0);
});
