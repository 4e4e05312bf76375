/** SIGTERM with 100 requests in flight answers every one of them, refuses new connections, and exits 0 within 10 s. */
import { request } from 'node:http';
import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { PASSWORD, postHeaders, SESSION_COOKIE, signedInAccount } from '../support/http-accounts';
import { recordFinding, seconds } from './findings';
import { expectRunning, signalServer, sleep, startServer, tempDataDir } from './reliability-server';

const IN_FLIGHT = 100;

interface SlowRequest {
  /** Resolves once the headers and half the body have left this process. */
  halfSent: Promise<void>;
  finish(): void;
  answer: Promise<{ status: number; setsSession: boolean }>;
}

/** A sign-in whose body arrives in two parts: the server holds it, unanswered, until finish(). */
function slowSignIn(url: string, body: string): SlowRequest {
  const half = Math.floor(body.length / 2);
  let halfSent!: Promise<void>;
  let finish!: () => void;
  const answer = new Promise<{ status: number; setsSession: boolean }>((resolve, reject) => {
    const req = request(`${url}/api/auth/sign-in/email`, {
      method: 'POST',
      // A connection of its own, as a hundred different browsers would have.
      agent: false,
      headers: { ...postHeaders(url), 'content-length': String(Buffer.byteLength(body)) },
    });
    req.on('response', (res) => {
      const setsSession = (res.headers['set-cookie'] ?? []).some((line) =>
        line.startsWith(`${SESSION_COOKIE}=`),
      );
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, setsSession }));
      res.on('error', reject);
    });
    req.on('error', reject);
    halfSent = new Promise<void>((sent) => req.write(body.slice(0, half), () => sent()));
    finish = () => req.end(body.slice(half));
  });
  return { halfSent, finish, answer };
}

/** Resolves with the error code of a new TCP connection to the port, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

it(`answers all ${IN_FLIGHT} requests in flight at SIGTERM, refuses new connections, and exits 0 within 10 s`, async ({
  task,
}) => {
  // LOG_LEVEL=info: the server's "shutting down" line tells when it has taken the signal.
  const server = await startServer({ DATA_DIR: tempDataDir(), LOG_LEVEL: 'info' });
  const port = Number(new URL(server.url).port);
  const { email } = await signedInAccount(server.url, 'shutdown');

  const body = JSON.stringify({ email, password: PASSWORD });
  const requests = Array.from({ length: IN_FLIGHT }, () => slowSignIn(server.url, body));
  await Promise.all(requests.map((r) => r.halfSent));
  // Time for the server to accept every connection and read every request's headers.
  await sleep(1000);

  expectRunning(server);
  const signalAt = Date.now();
  signalServer(server, 'SIGTERM');
  while (!server.output().includes('shutting down')) {
    if (Date.now() - signalAt > 5000) throw new Error(`no "shutting down" line:\n${server.output()}`);
    await sleep(10);
  }
  const refusedAtSignal = await tryConnect(port);

  for (const r of requests) r.finish();
  const answers = Promise.all(requests.map((r) => r.answer));
  // Still refused while the hundred are being worked through.
  await sleep(200);
  const refusedWhileDraining = await tryConnect(port);
  const answered = await answers;
  const answeredMs = Date.now() - signalAt;
  const code = await server.exited;
  const exitMs = Date.now() - signalAt;

  const ok = answered.filter((a) => a.status === 200 && a.setsSession).length;
  recordFinding(task, {
    short: `shutdown ${IN_FLIGHT} in flight`,
    detail: `${ok}/${IN_FLIGHT} sign-ins in flight at SIGTERM answered 200 with a session (last after ${seconds(answeredMs)}); new connections ${refusedAtSignal} at the signal and ${refusedWhileDraining} while draining; exit code ${code} after ${seconds(exitMs)}`,
  });
  expect(answered.filter((a) => a.status !== 200 || !a.setsSession)).toEqual([]);
  expect(refusedAtSignal).toBe('ECONNREFUSED');
  expect(refusedWhileDraining).toBe('ECONNREFUSED');
  expect(code).toBe(0);
  expect(exitMs).toBeLessThan(10_000);
  expect(server.output()).not.toContain('shutdown took too long');
});
