/**
 * Child processes of the benchmark: the Tutorlane server started the way `npm start` starts it
 * (node dist/server/main.js, the bundle; run.ts builds it first when stale), optionally pinned to
 * one core with taskset, plus the helpers every figure needs: free ports, temp folders, "time to
 * first 200" and clean-up.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Tutorlane project (the app the benchmark builds and starts). */
export const projectRoot = fileURLToPath(new URL('../', import.meta.url));
/** This package, whose node_modules the reference servers load their packages from. */
export const benchRoot = fileURLToPath(new URL('./', import.meta.url));

// ---------------------------------------------------------------------------------------------
// Clean-up: whatever a figure starts or creates is undone at the end, also on Ctrl-C.

type CleanupStep = () => void | Promise<void>;
const cleanupSteps: CleanupStep[] = [];

/** Registers a step to run at the end; returns a function that runs it early (once). */
export function onCleanup(step: CleanupStep): () => Promise<void> {
  let done = false;
  const once: CleanupStep = async () => {
    if (done) return;
    done = true;
    await step();
  };
  cleanupSteps.push(once);
  return async () => {
    await once();
  };
}

export async function runCleanup(): Promise<void> {
  for (const step of cleanupSteps.splice(0).reverse()) {
    try {
      await step();
    } catch (error) {
      process.stderr.write(`clean-up step failed: ${(error as Error).message}\n`);
    }
  }
}

/** A fresh temp folder, removed at the end. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `tutorlane-bench-${prefix}-`));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Core pinning.

export interface Pinning {
  /** False when taskset is missing or refuses, or only one core is available. */
  enabled: boolean;
  /** The core the servers run on, and the one the load generator runs on. */
  serverCore: number | undefined;
  loadCore: number | undefined;
  note: string;
}

/** Checks that taskset exists and works, and picks two different cores this process may use. */
export function detectPinning(): Pinning {
  try {
    const output = execFileSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' });
    const cores = parseCoreList(output.split(':').pop() ?? '');
    execFileSync('taskset', ['-c', String(cores[0]), 'true']);
    if (cores.length < 2) {
      return {
        enabled: false,
        serverCore: undefined,
        loadCore: undefined,
        note: 'only one core: not pinned',
      };
    }
    const loadCore = cores[0] as number;
    const serverCore = cores[cores.length - 1] as number;
    return {
      enabled: true,
      serverCore,
      loadCore,
      note: `server on core ${serverCore}, load generator on core ${loadCore} (taskset)`,
    };
  } catch (error) {
    return {
      enabled: false,
      serverCore: undefined,
      loadCore: undefined,
      note: `taskset unavailable (${(error as Error).message.split('\n')[0]}): not pinned`,
    };
  }
}

/** "0-2,5" -> [0, 1, 2, 5] */
function parseCoreList(list: string): number[] {
  return list
    .trim()
    .split(',')
    .filter(Boolean)
    .flatMap((part) => {
      const [from, to] = part.split('-').map(Number) as [number, number | undefined];
      return to === undefined ? [from] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
    });
}

/** The command and arguments that run `args` (starting with the node binary) on one core, or anywhere. */
export function pinnedCommand(args: string[], core: number | undefined): [string, string[]] {
  if (core === undefined) return [args[0] as string, args.slice(1)];
  return ['taskset', ['-c', String(core), ...args]];
}

// ---------------------------------------------------------------------------------------------
// Ports and "first 200".

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** One GET on a fresh connection; resolves with the status code, rejects when nobody answers. */
function probe(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Polls `url` every few milliseconds until it answers 200; resolves with the time since
 * `startedAt` (a performance.now() value) in ms. Rejects when `exited` settles first.
 */
export async function waitForFirst200(
  url: string,
  startedAt: number,
  exited: Promise<unknown>,
  timeoutMs = 60_000,
): Promise<number> {
  let gone = false;
  exited.then(() => {
    gone = true;
  });
  while (performance.now() - startedAt < timeoutMs) {
    if (gone) throw new Error(`the process serving ${url} exited before answering 200`);
    try {
      if ((await probe(url)) === 200) return performance.now() - startedAt;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

// ---------------------------------------------------------------------------------------------
// Child processes.

export interface Child {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
  /** SIGTERM, then SIGKILL after 15 s; resolves once the process has exited. */
  stop(): Promise<void>;
}

const OUTPUT_KEPT = 64 * 1024;

export function spawnChild(
  args: string[],
  options: { core?: number | undefined; env: NodeJS.ProcessEnv; cwd?: string },
): Child {
  const [command, commandArgs] = pinnedCommand(args, options.core);
  const child = spawn(command, commandArgs, {
    cwd: options.cwd ?? projectRoot,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The last of what it printed, for the message when it fails (a server prints every mail).
  // With BENCH_SERVER_LOG set to a folder, all of it too, a file a process, to find what a figure's
  // errors were (the servers log each failed request and its cause).
  let output = '';
  const logDir = process.env.BENCH_SERVER_LOG;
  if (logDir) mkdirSync(logDir, { recursive: true });
  const logFile = logDir && join(logDir, `${basename(args[args.length - 1] ?? 'child')}-${child.pid}.log`);
  const keep = (chunk: Buffer) => {
    output = (output + chunk).slice(-OUTPUT_KEPT);
    if (logFile) appendFileSync(logFile, chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  });
  return { child, exited, output: () => output, stop };
}

export interface TutorlaneServer extends Child {
  url: string;
  /** Time from spawn to the first 200 of GET /api/health (database open, API served), in ms. */
  startupMs: number;
  /** Time from spawn to the first 200 of GET / (the home page a visitor gets), in ms. */
  firstPageMs: number;
}

/** Starts `node dist/server/main.js` and waits for its first 200 on / and on /api/health. */
export async function startTutorlane(options: {
  dataDir: string;
  core?: number | undefined;
  env?: Record<string, string>;
  /** Extra flags for node, e.g. ['--cpu-prof'] to see where a figure's time goes. */
  nodeArgs?: string[];
}): Promise<TutorlaneServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: url,
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    // The benchmark stands in for many visitors behind a proxy: X-Forwarded-For names each one, so
    // limits per client address apply to each, as they would to real people.
    TRUST_PROXY: '1',
    // The figures measured so far book lessons without money; a figure of bookings that hold
    // their price passes PAYMENTS itself.
    PAYMENTS: 'off',
    // The admin figures sign in with a password alone, as a school that made two-factor optional.
    ADMIN_TWO_FACTOR: 'optional',
    ...options.env,
  };
  const startedAt = performance.now();
  const server = spawnChild([process.execPath, ...(options.nodeArgs ?? []), 'dist/server/main.js'], {
    core: options.core,
    env,
    cwd: projectRoot,
  });
  try {
    const [firstPageMs, startupMs] = await Promise.all([
      waitForFirst200(`${url}/`, startedAt, server.exited),
      waitForFirst200(`${url}/api/health`, startedAt, server.exited),
    ]);
    return { ...server, url, startupMs, firstPageMs };
  } catch (error) {
    await server.stop();
    throw new Error(`${(error as Error).message}\n${server.output()}`);
  }
}
