/** Thirty kill -9 of the server during a stream of sign-ups lose no account whose sign-up was answered. */
import { expect, it } from 'vitest';
import { signIn, signUp, solvedCaptcha, uniqueEmail } from '../support/http-accounts';
import { type Finding, recordFinding } from './findings';
import {
  expectRunning,
  isRunning,
  signalServer,
  sleep,
  startServer,
  tempDataDir,
} from './reliability-server';

const KILLS = 30;
/** Sign-ups in flight at once: enough that most kills land on one. */
const STREAMS = 4;

/** True when a fetch failed before reaching the server (nothing listened), so nothing was sent. */
function neverSent(error: unknown): boolean {
  return (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
}

async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await sleep(20);
  }
}

it(`keeps every answered sign-up across ${KILLS} kill -9 and restarts`, async ({ task }) => {
  const dataDir = tempDataDir();
  const answered: string[] = [];
  /** Sent, then the connection died with the server: the outcome is unknown to the user. */
  const cutOff: string[] = [];
  const unexpected: string[] = [];
  const startedAt = Date.now();

  for (let life = 1; life <= KILLS; life++) {
    const server = await startServer({ DATA_DIR: dataDir });
    let alive = true;
    const answeredBefore = answered.length;
    const stream = async () => {
      while (alive) {
        const email = uniqueEmail(`durable-${life}`);
        let captcha: string;
        try {
          captcha = await solvedCaptcha(server.url);
        } catch {
          return; // killed before this sign-up was sent
        }
        let res: Response;
        try {
          res = await signUp(server.url, email, captcha);
        } catch (error) {
          // Killed while this sign-up was on the way.
          if (!neverSent(error)) cutOff.push(email);
          return;
        }
        // The status line is the answer the person saw, even if the kill cuts the body short.
        if (res.status === 200) answered.push(email);
        const text = await res.text().catch(() => '');
        if (res.status !== 200)
          unexpected.push(`life ${life}: sign-up answered ${res.status} ${text.slice(0, 200)}`);
      }
    };
    const streams = Array.from({ length: STREAMS }, stream);
    // A random moment once this life has answered a sign-up, so every kill lands mid-stream.
    await waitFor(
      () => answered.length > answeredBefore || unexpected.length > 0 || !isRunning(server),
      60_000,
      () => `no sign-up answered in life ${life}:\n${server.output()}`,
    );
    await sleep(Math.random() * 1000);
    expectRunning(server);
    signalServer(server, 'SIGKILL');
    await server.exited;
    alive = false;
    await Promise.all(streams);
    expect(unexpected, server.output()).toEqual([]);
  }

  const finding: Finding = {
    short: `durability ${KILLS} kills`,
    detail: `${KILLS} kill -9 in ${Math.round((Date.now() - startedAt) / 1000)} s; ${answered.length} sign-ups answered 200`,
  };
  recordFinding(task, finding);

  const server = await startServer({ DATA_DIR: dataDir });
  const lost: string[] = [];
  await eachLimited(answered, 4, async (email) => {
    const res = await signIn(server.url, email);
    if (res.status !== 200) lost.push(`${email}: sign-in answered ${res.status} ${await res.text()}`);
  });
  finding.detail += `, ${answered.length - lost.length} of them sign in afterwards`;
  expect(lost).toEqual([]);

  // A sign-up cut off by the kill either happened whole or not at all: the person can sign in, or
  // sign up again with that address; never an account half made that allows neither.
  let whole = 0;
  let absent = 0;
  const halfMade: string[] = [];
  await eachLimited(cutOff, 4, async (email) => {
    const res = await signIn(server.url, email);
    if (res.status === 200) {
      whole++;
      return;
    }
    const again = await signUp(server.url, email);
    if (again.status === 200) absent++;
    else
      halfMade.push(`${email}: sign-in ${res.status}, sign-up again ${again.status} ${await again.text()}`);
  });
  finding.detail += `; ${cutOff.length} cut off mid-request: ${whole} whole, ${absent} absent and free to sign up again, ${halfMade.length} half made`;
  expect(halfMade).toEqual([]);
  expect(answered.length).toBeGreaterThanOrEqual(KILLS);

  expectRunning(server);
  signalServer(server, 'SIGTERM');
  expect(await server.exited).toBe(0);
});
