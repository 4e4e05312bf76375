/**
 * What Linux's /proc says about a process: its CPU time (to wait until a server has finished the
 * requests still queued when a load stopped, and to say what a request costs it), and its resident
 * memory, for what a connected client costs. On a system without /proc the readings are undefined
 * and the waits return at once.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second (USER_HZ), in which /proc reports CPU time. */
function msPerTick(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return 1000 / ticksPerSecond;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** utime + stime of a process, every thread (or one thread, given its id), in ms. */
export function cpuMs(pid: number | undefined, threadId?: number): number | undefined {
  if (pid === undefined) return undefined;
  const line = read(threadId === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${threadId}/stat`);
  if (line === undefined) return undefined;
  // The command name, in parentheses, may hold spaces: count fields after its closing one.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * msPerTick();
}

/** The process's resident memory (VmRSS), in kB. */
export function residentKb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const found = /^VmRSS:\s+(\d+) kB/m.exec(read(`/proc/${pid}/status`) ?? '');
  return found ? Number(found[1]) : undefined;
}

/**
 * Resolves once a process has spent a whole 100 ms slice without a clock tick of CPU (or after
 * `maxMs`): a server finishing the requests still queued when a load stopped would otherwise
 * share the machine with whatever is measured next.
 */
export async function waitUntilIdle(pid: number | undefined, maxMs = 3000): Promise<void> {
  if (pid === undefined) return;
  const started = performance.now();
  let last = cpuMs(pid);
  while (last !== undefined && performance.now() - started < maxMs) {
    await sleep(100);
    const now = cpuMs(pid);
    if (now === undefined || now === last) return;
    last = now;
  }
}

/** A server's CPU time so far: every thread, and its main thread (where requests are handled). */
export interface CpuReading {
  all: number | undefined;
  requestThread: number | undefined;
}

export function readCpu(pid: number | undefined): CpuReading {
  return { all: cpuMs(pid), requestThread: cpuMs(pid, pid) };
}

/** CPU ms per unit of work between two readings (NaN where /proc gave none). */
export function cpuPer(before: CpuReading, after: CpuReading, count: number) {
  const per = (key: keyof CpuReading) => {
    const [a, b] = [before[key], after[key]];
    return a === undefined || b === undefined || count === 0 ? Number.NaN : (b - a) / count;
  };
  return { all: per('all'), requestThread: per('requestThread') };
}

export type CpuPer = ReturnType<typeof cpuPer>;

/** "2.1 ms (request thread 0.9 ms, other threads 1.2 ms)" */
export function cpuText(cost: CpuPer): string {
  return (
    `${cost.all.toFixed(2)} ms (request thread ${cost.requestThread.toFixed(2)} ms, ` +
    `other threads ${(cost.all - cost.requestThread).toFixed(2)} ms)`
  );
}
