/**
 * Two properties of the machine that figure 3 depends on, measured with Tutorlane out of the
 * picture:
 * - how much work its two cores do together: a loop of integer arithmetic (no memory traffic, no
 *   locks, nothing shared) on one thread, then on two at once. Two whole cores do twice one
 *   thread's work, and figure 3's reference, 2 x 1000 / (one verify in ms), assumes they do; on a
 *   shared virtual machine they may not (two hyperthreads of one core, or cores slowed together);
 * - what a request costs a server that sleeps between requests, as sign-ins arrive (tens a
 *   second): the CPU the bare node:http server's thread spends per request at 60 requests a
 *   second against at several hundred. Waking from sleep into caches other work has emptied costs
 *   every request on the path, whatever the server.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { BareServer } from './reference-servers';
import { type Spread, spread } from './stats';

/** Spins for `ms` and reports blocks of arithmetic done per millisecond. */
const SPIN = `
const { parentPort, workerData } = require('node:worker_threads');
let x = 1, blocks = 0;
const started = performance.now(), until = started + workerData;
while (performance.now() < until) {
  for (let i = 0; i < 100000; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  blocks++;
}
parentPort.postMessage({ rate: blocks / (performance.now() - started), x });
`;

function spin(ms: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SPIN, { eval: true, workerData: ms });
    worker.once('message', (message: { rate: number }) => resolve(message.rate));
    worker.once('error', reject);
  });
}

/**
 * Two threads' work as a multiple of one thread's, in rounds of one thread then two: 2.00 on
 * two whole cores.
 */
export async function twoThreadScaling(rounds = 3, ms = 1000): Promise<Spread> {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const one = await spin(ms);
    const [a, b] = await Promise.all([spin(ms), spin(ms)]);
    samples.push((a + b) / one);
  }
  return spread(samples);
}

/** CPU time a process's main thread has run, in ms (the scheduler's own count, to the nanosecond). */
function threadCpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

export interface RequestCost {
  requestsPerSecond: number;
  cpuMicrosPerRequest: number;
}

/** GET requests at about `rate` a second for `seconds`, one every 1/rate s: the server's CPU per request. */
async function pacedRequestCost(server: BareServer, rate: number, seconds: number): Promise<RequestCost> {
  const pid = server.child.pid as number;
  const before = threadCpuMs(pid);
  const started = performance.now();
  const responses: Promise<string>[] = [];
  while (performance.now() - started < seconds * 1000) {
    responses.push(fetch(`${server.url}/api/health`).then((response) => response.text()));
    await sleep(1000 / rate);
  }
  await Promise.all(responses);
  const elapsed = (performance.now() - started) / 1000;
  return {
    requestsPerSecond: responses.length / elapsed,
    cpuMicrosPerRequest: ((threadCpuMs(pid) - before) * 1000) / responses.length,
  };
}

/** The bare server's CPU per request at 60 a second, and at as many as one client sends in turn. */
export async function requestCostBySpeed(
  server: BareServer,
): Promise<{ slow: RequestCost; fast: RequestCost } | undefined> {
  if (!server.child.pid) return undefined;
  await pacedRequestCost(server, 60, 1);
  const slow = await pacedRequestCost(server, 60, 4);
  const fast = await pacedRequestCost(server, 1000, 4);
  return { slow, fast };
}
