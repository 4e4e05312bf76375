/**
 * Starts the real server as a child process, the way `npm start` runs it (`node
 * dist/server/main.js`; tests/support/built-server-setup.ts builds it first), and waits until it
 * prints its URL. Another script of the project (a .ts file) runs through tsx.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

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

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

// A test that fails before it stops its server must not leave the server running: whatever is
// still alive when the test file is done is killed.
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

const SERVER = 'dist/server/main.js';

/** The command line that runs `script` with this Node: a TypeScript one through tsx. */
export const nodeArgs = (script = SERVER) =>
  script.endsWith('.ts') ? ['--import', 'tsx', script] : [script];

/** Spawns the server (or another script of the project) with only the given environment. */
async function spawnScript(env: Record<string, string>, script = SERVER, args: string[] = []) {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, [...nodeArgs(script), ...args], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', PORT: port, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

export interface SpawnedServer {
  child: ChildProcess;
  output(): string;
  /** Resolves once the output contains `text`; rejects if the process exits first. */
  waitForOutput(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

/** Starts the server without waiting for it to listen, to act on it while it starts. */
export async function spawnServer(env: Record<string, string>): Promise<SpawnedServer> {
  const child = await spawnScript(env);
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForOutput = (text: string | RegExp, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const found = () => (typeof text === 'string' ? output.includes(text) : text.test(output));
      const timer = setTimeout(() => reject(new Error(`no "${text}" in time:\n${output}`)), timeoutMs);
      const check = () => {
        if (!found()) return;
        clearTimeout(timer);
        child.stdout?.off('data', check);
        child.stderr?.off('data', check);
        resolve();
      };
      child.stdout?.on('data', check);
      child.stderr?.on('data', check);
      check();
      exited.then((code) => {
        clearTimeout(timer);
        if (!found()) reject(new Error(`exited with ${code} before printing "${text}":\n${output}`));
      });
    });
  return { child, output: () => output, waitForOutput, exited };
}

export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<ServerProcess> {
  const server = await spawnServer(env);
  await server.waitForOutput(/Tutorlane is running at \S+/, timeoutMs);
  const url = server.output().match(/Tutorlane is running at (\S+)/)?.[1] ?? '';
  return { url, child: server.child, output: server.output, exited: server.exited };
}

/** Runs the server (or `script`) expecting it to stop on its own; returns its exit code and output. */
export async function runServerToExit(
  env: Record<string, string>,
  timeoutMs = 20_000,
  script?: string,
  args: string[] = [],
) {
  const child = await spawnScript(env, script, args);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
