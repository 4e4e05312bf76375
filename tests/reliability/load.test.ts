/** A minute of 100 connections on the session check and the home page brings no 5xx, no socket error, and memory that levels off. */
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';
import { expect, it } from 'vitest';
import { sessionEmail, signedInAccount } from '../support/http-accounts';
import { recordFinding } from './findings';
import { expectRunning, rssKb, signalServer, startServer, tempDataDir } from './reliability-server';

const CONNECTIONS = 100;
// Long enough for what fills once to be full: the JIT, caches, the embedded database's memory and
// its thread's heap. Measured with the load below: 694 MB after 10 s, 761 MB after 20 s, 764 MB
// after 30 s; a warm-up of 10 s counted that filling up as growth.
const WARM_UP_SECONDS = 30;
const LOAD_SECONDS = 60;

function serverErrors(result: AutocannonResult): number {
  return Object.entries(result.statusCodeStats)
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, stats]) => sum + stats.count, 0);
}

function statuses(result: AutocannonResult): string {
  return Object.entries(result.statusCodeStats)
    .map(([status, stats]) => `${stats.count} × ${status}`)
    .join(', ');
}

it(`serves ${CONNECTIONS} connections for ${LOAD_SECONDS} s with no 5xx, no socket error and RSS growing under 20%`, async ({
  task,
}) => {
  const server = await startServer({ DATA_DIR: tempDataDir() });
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('the server has no pid');
  const { email, cookie } = await signedInAccount(server.url, 'load');
  // Every connection alternates a signed-in browser's session check and a first visit's page.
  const requests: AutocannonRequest[] = [
    { method: 'GET', path: '/api/session', headers: { cookie } },
    { method: 'GET', path: '/' },
  ];
  const load = (duration: number) =>
    autocannon({ url: server.url, connections: CONNECTIONS, duration, requests });

  // Memory is compared from after a warm-up: caches and the JIT fill up once, a leak keeps growing.
  const warmUp = await load(WARM_UP_SECONDS);
  expectRunning(server);
  const rssBefore = rssKb(pid);
  const result = await load(LOAD_SECONDS);
  expectRunning(server);
  const rssAfter = rssKb(pid);
  const growth = (rssAfter - rssBefore) / rssBefore;

  const answered = result.requests.total;
  recordFinding(task, {
    short: `${LOAD_SECONDS} s load`,
    detail: `${answered} requests in ${LOAD_SECONDS} s over ${CONNECTIONS} connections (${Math.round(result.requests.average)}/s, p99 ${result.latency.p99} ms): ${statuses(result)}; ${result.errors} socket errors, ${result.timeouts} timeouts; RSS ${Math.round(rssBefore / 1024)} MB after the warm-up, ${Math.round(rssAfter / 1024)} MB at the end (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%)`,
  });

  for (const [phase, run] of [
    ['warm-up', warmUp],
    ['load', result],
  ] as const) {
    expect(serverErrors(run), `${phase}: ${statuses(run)}`).toBe(0);
    expect(run.errors, phase).toBe(0);
    expect(run.timeouts, phase).toBe(0);
  }
  // Non-2xx would mean the load hit something other than the two pages it means to measure.
  expect(result.non2xx, statuses(result)).toBe(0);
  expect(answered).toBeGreaterThan(LOAD_SECONDS * 50);
  expect(growth).toBeLessThan(0.2);
  // Still signed in: the session survived a minute of being looked up.
  expect(await sessionEmail(server.url, cookie)).toBe(email);

  expectRunning(server);
  signalServer(server, 'SIGTERM');
  expect(await server.exited).toBe(0);
});
