/** The server as a process: start-up checks, the data folder lock, crashes and graceful shutdown. */
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runServerToExit, startServerProcess } from '../support/server-process';

const freshDataDir = () => mkdtempSync(join(tmpdir(), 'tutorlane-process-'));

describe('start-up', () => {
  it('stops with one line naming a bad variable', async () => {
    const { code, stderr } = await runServerToExit({ DATA_DIR: freshDataDir(), PORT: 'eighty' });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('Invalid configuration: PORT must be a number (got "eighty")');
  });

  it('prints its URL and serves the health check', async () => {
    const server = await startServerProcess({ DATA_DIR: freshDataDir() });
    expect(server.url).toMatch(/^http:\/\/localhost:\d+$/);
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
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
    expect(await first.exited).toBe(0);
  });

  it('starts again at once after the server was killed with SIGKILL', async () => {
    const dataDir = freshDataDir();
    const first = await startServerProcess({ DATA_DIR: dataDir });
    first.child.kill('SIGKILL');
    await first.exited;
    const second = await startServerProcess({ DATA_DIR: dataDir });
    expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
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
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toContain('shutdown took too long');
  });
});
