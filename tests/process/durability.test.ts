/** A server killed with SIGKILL and started again has lost nothing it had committed. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge } from 'altcha-lib/types';
import { expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process';

const PASSWORD = 'correct-horse-battery-42';

async function signUp(url: string, email: string) {
  const challenge = (await (await fetch(`${url}/api/captcha/challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return fetch(`${url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: url,
      'x-captcha': btoa(JSON.stringify({ challenge, solution })),
    },
    body: JSON.stringify({ name: 'Durable Dana', email, password: PASSWORD, confirmPassword: PASSWORD }),
  });
}

it('keeps every account whose sign-up was answered, across SIGKILL and restart', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tutorlane-durability-'));
  const first = await startServerProcess({ DATA_DIR: dataDir });
  const emails = [1, 2, 3].map((n) => `durable-${n}-${Date.now()}@example.com`);
  for (const email of emails) expect((await signUp(first.url, email)).status).toBe(200);
  first.child.kill('SIGKILL');
  await first.exited;

  const second = await startServerProcess({ DATA_DIR: dataDir, PORT: new URL(first.url).port });
  for (const email of emails) {
    const res = await fetch(`${second.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: second.url },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status, email).toBe(200);
  }
  second.child.kill('SIGTERM');
  expect(await second.exited, second.output()).toBe(0);
});
