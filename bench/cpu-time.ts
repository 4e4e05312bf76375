/**
 * Where a load's CPU time goes, read from Linux's /proc: the whole machine (/proc/stat), one
 * process with all its threads, and one thread. Figure 3 uses it to show what a sign-in costs
 * beside the hash, since at a ratio r the machine may spend at most (one verify) / r per sign-in.
 * Everything is in ms of CPU; on a system without /proc every reading is undefined.
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

/** utime + stime of a /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat line, in ms. */
function statCpuMs(path: string): number | undefined {
  const line = read(path);
  if (line === undefined) return undefined;
  // The command name, in parentheses, may hold spaces: count fields after its closing one.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * msPerTick();
}

/** Busy time of every core together (all but idle and iowait), in ms. */
function machineCpuMs(): number | undefined {
  const line = read('/proc/stat')?.split('\n')[0];
  if (!line?.startsWith('cpu ')) return undefined;
  const [user, nice, system, , , irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
  return (
    ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * msPerTick()
  );
}

export interface CpuReading {
  machine: number | undefined;
  /** The server process, every thread. */
  server: number | undefined;
  /** The server's main thread, where requests are handled. */
  requestThread: number | undefined;
  loadGenerator: number | undefined;
}

export function readCpu(serverPid: number | undefined, loadPid: number | undefined): CpuReading {
  return {
    machine: machineCpuMs(),
    server: serverPid === undefined ? undefined : statCpuMs(`/proc/${serverPid}/stat`),
    requestThread:
      serverPid === undefined ? undefined : statCpuMs(`/proc/${serverPid}/task/${serverPid}/stat`),
    loadGenerator: loadPid === undefined ? undefined : statCpuMs(`/proc/${loadPid}/stat`),
  };
}

/** CPU ms per unit of work between two readings; undefined where either reading is. */
export function cpuPer(before: CpuReading, after: CpuReading, count: number): CpuReading {
  const per = (key: keyof CpuReading) => {
    const a = before[key];
    const b = after[key];
    return a === undefined || b === undefined || count === 0 ? undefined : (b - a) / count;
  };
  return {
    machine: per('machine'),
    server: per('server'),
    requestThread: per('requestThread'),
    loadGenerator: per('loadGenerator'),
  };
}

/**
 * Resolves once a process has spent a whole 100 ms slice without a clock tick of CPU (or after
 * `maxMs`): a server finishing the requests still queued when a load stopped would otherwise
 * share the machine with whatever is measured next.
 */
export async function waitUntilIdle(pid: number | undefined, maxMs = 3000): Promise<void> {
  if (pid === undefined) return;
  const started = performance.now();
  let last = statCpuMs(`/proc/${pid}/stat`);
  while (last !== undefined && performance.now() - started < maxMs) {
    await sleep(100);
    const now = statCpuMs(`/proc/${pid}/stat`);
    if (now === undefined || now === last) return;
    last = now;
  }
}
