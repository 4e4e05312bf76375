/**
 * Request bodies on the real server, over a socket: a stated length over the limit is refused
 * before any of the body arrives, a body sent in chunks is counted as it comes, and a client that
 * hangs up halfway is logged as such, not as a failure of ours. Tried on sign-in, the busiest
 * route that reads a body.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as messages from '../../src/shared/messages';
import { type ServerProcess, startServerProcess } from '../support/server-process';

const SIGN_IN = '/api/auth/sign-in/email';
const OVER_LIMIT = 101 * 1024;

let server: ServerProcess;
const dataDir = mkdtempSync(join(tmpdir(), 'tutorlane-bodies-'));

beforeAll(async () => {
  server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
}, 60_000);

afterAll(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: unknown;
}

/**
 * POSTs to sign-in with `send` writing the body (or not), and resolves with the answer as soon as
 * it comes, whether or not the body was all sent.
 */
function post(headers: Record<string, string | number>, send: (req: ReturnType<typeof request>) => void) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      `${server.url}${SIGN_IN}`,
      { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          req.destroy();
        });
      },
    );
    // Once the server has answered it may close the socket under a body still being written.
    req.on('error', (error) => (req.writableEnded ? undefined : reject(error)));
    send(req);
  });
}

const credentials = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password-1' });

describe('a body of stated length', () => {
  it('is read and answered', async () => {
    const answer = await post({ 'content-length': Buffer.byteLength(credentials) }, (req) =>
      req.end(credentials),
    );
    expect(answer).toEqual({
      status: 401,
      body: { message: messages.invalidCredentials, code: 'INVALID_EMAIL_OR_PASSWORD' },
    });
  });

  it('over 100 KB is refused with 413 before any of it is sent', async () => {
    const answer = await post({ 'content-length': OVER_LIMIT }, (req) => req.flushHeaders());
    expect(answer).toEqual({ status: 413, body: { message: messages.bodyTooLarge, code: 'BODY_TOO_LARGE' } });
  });
});

describe('a body sent in chunks', () => {
  it('is read and answered', async () => {
    const answer = await post({ 'transfer-encoding': 'chunked' }, (req) => {
      req.write(credentials.slice(0, 10));
      setTimeout(() => req.end(credentials.slice(10)), 50);
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ message: messages.invalidCredentials });
  });

  it('over 100 KB is refused with 413', async () => {
    const answer = await post({ 'transfer-encoding': 'chunked' }, (req) => {
      for (let sent = 0; sent < OVER_LIMIT; sent += 8 * 1024) req.write('x'.repeat(8 * 1024));
      req.end();
    });
    expect(answer).toEqual({ status: 413, body: { message: messages.bodyTooLarge, code: 'BODY_TOO_LARGE' } });
  });
});

describe('a client that hangs up halfway through its body', () => {
  it('is logged as an aborted request at info level, not as an error or a 500', async () => {
    const req = request(`${server.url}${SIGN_IN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, 'content-length': 1000 },
    });
    req.on('error', () => {});
    req.write(credentials.slice(0, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    req.destroy();
    const lines = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; status?: number });
    const deadline = Date.now() + 5000;
    while (!lines().some((line) => line.msg === 'request aborted by the client') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const aborted = lines().filter((line) => line.msg === 'request aborted by the client');
    expect(aborted.map((line) => line.level)).toEqual([30]);
    // pino's levels: 50 is error; 500s are logged at error.
    expect(lines().filter((line) => line.level >= 50 || (line.status ?? 0) >= 500)).toEqual([]);
  });
});
