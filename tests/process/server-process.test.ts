/** The server as a process: start-up checks, the data folder lock, crashes and graceful shutdown. */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { postHeaders, SESSION_COOKIE, sessionCookieOf } from '../support/http-accounts';
import {
  freePort,
  nodeArgs,
  projectRoot,
  runServerToExit,
  spawnServer,
  startServerProcess,
} from '../support/server-process';

const freshDataDir = () => mkdtempSync(join(tmpdir(), 'tutorlane-process-'));

/**
 * The Node process under `pid` (a terminal runs it through a process of its own). Found by its
 * command line, not its name: Node 24 names its main thread, so `ps` shows "MainThread" there.
 */
function nodeDescendantOf(pid: number): number {
  const processes = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map(([, child, parent, args]) => ({ pid: Number(child), parent: Number(parent), args: args ?? '' }));
  const isUnder = (candidate: number): boolean => {
    const parent = processes.find((entry) => entry.pid === candidate)?.parent ?? 0;
    return parent === pid || (parent > 1 && isUnder(parent));
  };
  const server = processes.find((entry) => entry.args.startsWith(process.execPath) && isUnder(entry.pid));
  return server?.pid ?? 0;
}

describe('start-up', () => {
  it('stops with one line naming a bad variable', async () => {
    const { code, stderr } = await runServerToExit({ DATA_DIR: freshDataDir(), PORT: 'eighty' });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('Invalid configuration: PORT must be a number (got "eighty")');
  });

  it('stops with one line when DATA_DIR is a file', async () => {
    const file = join(freshDataDir(), 'not-a-folder');
    writeFileSync(file, '');
    const { code, stderr } = await runServerToExit({ DATA_DIR: file });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`Invalid configuration: DATA_DIR ${file} is a file, not a folder`);
  });

  it('on SIGTERM while it creates its database, finishes that, closes it and exits 0', async () => {
    const dataDir = freshDataDir();
    // An empty database folder is initialised in place (seconds) rather than from the template.
    mkdirSync(join(dataDir, 'db'));
    const server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await server.waitForOutput('opening the database');
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
    expect(server.output()).toContain('stopped during start-up; closing the database');
    expect(server.output()).not.toContain('Tutorlane is running at');
    // The database is whole and the folder free: the next start opens it.
    const again = await startServerProcess({ DATA_DIR: dataDir });
    expect((await fetch(`${again.url}/api/health`)).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited, again.output()).toBe(0);
  });

  it('serves pages from the moment its port opens, and holds API requests until the database is open', async () => {
    const dataDir = freshDataDir();
    // An empty database folder is initialised in place (seconds) rather than from the template.
    mkdirSync(join(dataDir, 'db'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = await spawnServer({ DATA_DIR: dataDir, PORT: String(port) });
    let home: Response | undefined;
    while (!home) {
      home = await fetch(`${url}/`).catch(() => undefined);
      if (!home) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const homeAt = performance.now();
    expect(server.output()).not.toContain('Tutorlane is running at');
    expect(home.status).toBe(200);
    expect(await home.text()).toMatch(/^<!doctype html>/i);
    expect(home.headers.get('content-security-policy')).toContain("object-src 'none'");
    // Idle connections are the client's to close (longer than a client's or a proxy's 60 s):
    // a request sent just as the server closed one would fail.
    expect(home.headers.get('keep-alive')).toBe('timeout=65');
    expect((await fetch(`${url}/no-such-page`)).status).toBe(404);

    // Asked while the database is still being created, the API waits for it instead of failing.
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect(performance.now() - homeAt).toBeGreaterThan(500);
    const session = await fetch(`${url}/api/session`);
    expect([session.status, await session.json()]).toEqual([200, { user: null }]);
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
  });

  it('on a port already in use, ends with that error as its last line and exits 1', async () => {
    const first = await startServerProcess({ DATA_DIR: freshDataDir() });
    const port = new URL(first.url).port;
    const second = await runServerToExit({ DATA_DIR: freshDataDir(), PORT: port });
    expect(second.code).toBe(1);
    const lastLine = (second.stdout + second.stderr).trim().split('\n').at(-1);
    expect(lastLine).toBe(`Port ${port} on 127.0.0.1 is already in use. Set PORT to a free port.`);
    expect(second.stdout).not.toContain('Tutorlane is running at');
    first.child.kill('SIGTERM');
    expect(await first.exited, first.output()).toBe(0);
  });

  it('at a terminal, prints readable lines and only the requests that need attention', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // `script` gives the server a terminal as its output, as `npm start` in a shell does.
    const child = spawn('script', ['-qfec', [process.execPath, ...nodeArgs()].join(' '), '/dev/null'], {
      cwd: projectRoot,
      detached: true,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATA_DIR: freshDataDir(), PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    onTestFinished(() => {
      if (child.exitCode === null) process.kill(-(child.pid ?? 0), 'SIGKILL');
    });
    await expect.poll(() => output, { timeout: 30_000 }).toContain('Tutorlane is running at');
    expect((await fetch(`${url}/api/tutors`)).status).toBe(200);
    const refused = await fetch(`${url}/api/profile`);
    expect(refused.status).toBe(401);
    await expect.poll(() => output).toMatch(/request refused: GET \/api\/profile 401 in \d+ ms/);
    // The server itself, not the terminal around it, is asked to stop.
    const server = nodeDescendantOf(child.pid ?? 0);
    expect(server, output).toBeGreaterThan(0);
    process.kill(server, 'SIGTERM');
    await exited;
    expect(output).toContain('database closed; bye');
    expect(output).not.toContain('/api/tutors');
    expect(output).not.toMatch(/^\{"level"/m);
  });

  it('prints its URL, serves the health check, and says goodbye as its last line on SIGTERM', async () => {
    const server = await startServerProcess({ DATA_DIR: freshDataDir(), LOG_LEVEL: 'info' });
    expect(server.url).toMatch(/^http:\/\/localhost:\d+$/);
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
    const lastLine = server.output().trim().split('\n').at(-1) ?? '';
    expect(JSON.parse(lastLine)).toMatchObject({ msg: 'database closed; bye' });
  });
});

describe('seed:demo', () => {
  it('prints how to sign in as a demo student, tutor and admin, and each of them can', async () => {
    const dataDir = freshDataDir();
    // With two pairs of a demo student and tutor who have nothing yet (the benchmark's senders).
    const seed = await runServerToExit({ DATA_DIR: dataDir }, 60_000, 'scripts/seed-demo.ts', [
      '--pairs',
      '2',
    ]);
    expect(seed.stderr).toBe('');
    expect(seed.code).toBe(0);
    const password = /with the password "([^"]+)"/.exec(seed.stdout)?.[1];
    const emailOf = (who: string) =>
      new RegExp(`a demo ${who}\\s+(\\S+@\\S+)`).exec(seed.stdout)?.[1] ?? `no ${who} printed`;
    expect(password).toBeDefined();

    const server = await startServerProcess({ DATA_DIR: dataDir, TRUST_PROXY: '1' });
    const sessionOf = async (email: string) => {
      const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: postHeaders(server.url),
        body: JSON.stringify({ email, password }),
      });
      expect(signIn.status, `signing in as ${email}`).toBe(200);
      const cookie = sessionCookieOf(signIn) ?? `${SESSION_COOKIE}=none`;
      const session = await fetch(`${server.url}/api/session`, { headers: { cookie } });
      return ((await session.json()) as { user: { role: string; isAdmin: boolean; emailVerified: boolean } })
        .user;
    };
    expect(await sessionOf(emailOf('student'))).toMatchObject({
      role: 'student',
      isAdmin: false,
      emailVerified: true,
    });
    expect(await sessionOf(emailOf('tutor'))).toMatchObject({ role: 'tutor', isAdmin: false });
    expect(await sessionOf(emailOf('admin'))).toMatchObject({ isAdmin: true, emailVerified: true });
    expect(await sessionOf('pair.student2@demo.tutorlane.test')).toMatchObject({
      role: 'student',
      emailVerified: true,
    });
    expect(await sessionOf('pair.tutor2@demo.tutorlane.test')).toMatchObject({ role: 'tutor' });
    // The pair's tutor is listed: a student finds their page.
    const tutor = await fetch(`${server.url}/api/tutors/demo-pair-tutor-00002`);
    expect(tutor.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
  });

  it('stops with one line naming a bad variable', async () => {
    const seed = await runServerToExit(
      { DATA_DIR: freshDataDir(), DATABASE_URL: 'mysql://x@y/z' },
      20_000,
      'scripts/seed-demo.ts',
    );
    expect(seed.code).toBe(1);
    expect(seed.stderr.trim()).toBe(
      'Invalid configuration: DATABASE_URL must be a PostgreSQL URL such as postgres://user@host:5432/db (got "…")',
    );
  });
});

describe('the embedded data folder', () => {
  it('refuses a second server on the same DATA_DIR at once, and the first keeps working', async () => {
    const dataDir = freshDataDir();
    const first = await startServerProcess({ DATA_DIR: dataDir });
    const started = Date.now();
    const second = await runServerToExit({ DATA_DIR: dataDir });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/Another Tutorlane server \(pid \d+\) is already using/);
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited, first.output()).toBe(0);
  });

  it('refuses seed:demo with one line while a server runs on it, and the server keeps working', async () => {
    const dataDir = freshDataDir();
    const server = await startServerProcess({ DATA_DIR: dataDir });
    const seed = await runServerToExit({ DATA_DIR: dataDir }, 20_000, 'scripts/seed-demo.ts');
    expect(seed.code).toBe(1);
    expect(seed.stderr.trim()).toBe(
      `Another Tutorlane server (pid ${server.child.pid}) is already using ${dataDir}. Stop it first, or give this one its own DATA_DIR.`,
    );
    expect((await fetch(`${server.url}/api/tutors`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
  });

  it('starts again at once after the server was killed with SIGKILL', async () => {
    const dataDir = freshDataDir();
    const first = await startServerProcess({ DATA_DIR: dataDir });
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startServerProcess({ DATA_DIR: dataDir });
    expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited, second.output()).toBe(0);
  });
});

describe('graceful shutdown', () => {
  it('finishes a request in flight, then closes the database and exits 0', async () => {
    const server = await startServerProcess({ DATA_DIR: freshDataDir() });
    // A request whose body arrives slowly is still in flight when SIGTERM comes.
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = request(
        `${server.url}/api/health`,
        { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write('{"a":');
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end('1}'), 300);
      }, 200);
    });
    expect(await inFlight).toBe(404);
    expect(await server.exited, server.output()).toBe(0);
    expect(server.output()).not.toContain('shutdown took too long');
  });
});
