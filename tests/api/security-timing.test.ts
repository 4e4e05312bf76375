/**
 * Sign-in must not tell an unknown email from a wrong password: same status,
 * same body, and medians over 200 tries each within 10% or 15 ms.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUp, uniqueEmail } from '../support/accounts';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

it('answers an unknown email and a wrong password alike, in indistinguishable time', async () => {
  const { email } = await signUp(t);
  const unknownEmail = uniqueEmail('nobody');
  const attempt = async (address: string) => {
    const started = performance.now();
    const res = await t.request('/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email: address, password: 'wrong-password-42' }),
    });
    const ms = performance.now() - started;
    return { ms, status: res.status, body: await res.text() };
  };
  // Warm both paths, then interleave so machine noise falls on both alike.
  await attempt(email);
  await attempt(unknownEmail);
  const known: number[] = [];
  const unknown: number[] = [];
  const bodies = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const a = await attempt(i % 2 ? email : unknownEmail);
    const b = await attempt(i % 2 ? unknownEmail : email);
    for (const [result, address] of [
      [a, i % 2 ? email : unknownEmail],
      [b, i % 2 ? unknownEmail : email],
    ] as const) {
      expect(result.status).toBe(401);
      bodies.add(result.body);
      (address === email ? known : unknown).push(result.ms);
    }
  }
  expect(bodies.size).toBe(1);
  const knownMedian = median(known);
  const unknownMedian = median(unknown);
  const difference = Math.abs(knownMedian - unknownMedian);
  const allowed = Math.max(0.1 * Math.max(knownMedian, unknownMedian), 15);
  expect(
    difference,
    `medians: known ${knownMedian.toFixed(1)} ms, unknown ${unknownMedian.toFixed(1)} ms`,
  ).toBeLessThanOrEqual(allowed);
}, 120_000);
