/**
 * What this machine's two cores do together. First with Tutorlane and argon2 out of the picture:
 * a loop of integer arithmetic (no memory traffic, no locks, nothing shared) on one thread, then
 * on two threads at once. Two whole cores do twice one thread's work. Figure 3's reference,
 * 2 x 1000 / (one verify in ms), assumes they do; on a shared virtual machine they may not (its
 * two cores may be one physical core's two hyperthreads, or run slower together). Then argon2id
 * alone, two verifies at a time, on the server's own hash threads (HashThreads, two threads of one
 * process) and in two processes: @node-rs/argon2 maps fresh memory for every verify and unmaps it
 * after, which two threads of one process do in one address space and two processes do not.
 */
import { execFile } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { HashThreads } from '../src/server/accounts/hash-threads';
import { projectRoot } from './processes';
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

/**
 * One process verifying one password at a time for `ms` on its main thread (synchronous calls, as
 * a hash thread makes them), from a start time shared with its sibling; prints verifies per
 * second. Plain CommonJS run from the project root, so it loads the same @node-rs/argon2 as the
 * server.
 */
const VERIFYING_PROCESS = `
const { verifySync } = require('@node-rs/argon2');
const [stored, password, startAt, ms] = process.argv.slice(1);
for (let i = 0; i < 3; i++) verifySync(stored, password);
(async () => {
  while (Date.now() < Number(startAt)) await new Promise((resolve) => setTimeout(resolve, 1));
  const started = performance.now(), until = started + Number(ms);
  let done = 0;
  while (performance.now() < until) { verifySync(stored, password); done++; }
  console.log(done / ((performance.now() - started) / 1000));
})();
`;

/**
 * argon2id verifies per second, two at a time for `ms`, on two of the server's own hash threads
 * (HashThreads) in this process, started before the clock starts.
 */
export async function verifiesOnTwoThreads(stored: string, password: string, ms = 3000): Promise<number> {
  const threads = new HashThreads(2);
  try {
    // Start both threads and load the library in each before the clock starts.
    await Promise.all([threads.verify(stored, password), threads.verify(stored, password)]);
    const started = performance.now();
    const until = started + ms;
    let done = 0;
    const loop = async () => {
      while (performance.now() < until) {
        await threads.verify(stored, password);
        done += 1;
      }
    };
    await Promise.all([loop(), loop()]);
    return (done * 1000) / (performance.now() - started);
  } finally {
    await threads.close();
  }
}

/** argon2id verifies per second, one at a time in each of two processes started together, for `ms`. */
export async function verifiesInTwoProcesses(stored: string, password: string, ms = 3000): Promise<number> {
  const startAt = Date.now() + 1500;
  const one = () =>
    new Promise<number>((resolve, reject) => {
      execFile(
        process.execPath,
        ['-e', VERIFYING_PROCESS, stored, password, String(startAt), String(ms)],
        { cwd: projectRoot },
        (error, stdout) => (error ? reject(error) : resolve(Number(stdout.trim()))),
      );
    });
  const [a, b] = await Promise.all([one(), one()]);
  return a + b;
}
