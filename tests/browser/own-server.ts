/**
 * A server of a spec's own, for the few specs that need a setting the suite's servers do not have
 * (the default two-factor rule for admins, a support address of their own): the production build
 * started as the suite's are, on a free port, on a data folder seeded as the suite's is
 * (tests/support/browser-seed.ts: a copy of the folder playwright.config.ts seeds for this). Removed
 * with its data folder when stopped.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserSeed } from '../support/browser-seed';
import { expect } from './fixtures';

export interface OwnServer {
  url: string;
  /** Who the seed made, per project, as in the suite's seed. */
  seed: BrowserSeed;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** Seeds a data folder and starts the server on it with `env`; resolves once it is healthy. */
export async function startOwnServer(name: string, env: Record<string, string>): Promise<OwnServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `tutorlane-${name}-`));
  // A copy of the folder playwright.config.ts seeded as the suite's, which no server opened: the
  // same people and lessons, without running the seed again (seconds each, for each spec and width).
  const seeded = process.env.BROWSER_TEST_SEEDED_COPY_DIR;
  if (!seeded) throw new Error('BROWSER_TEST_SEEDED_COPY_DIR is not set: playwright.config.ts sets it');
  cpSync(seeded, dataDir, { recursive: true });
  const seed = JSON.parse(readFileSync(join(dataDir, 'seed.json'), 'utf8')) as BrowserSeed;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const server = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: String(port),
      APP_URL: url,
      DATA_DIR: dataDir,
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  server.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await expect
      .poll(
        async () => {
          if (server.exitCode !== null) throw new Error(`The server stopped: ${output}`);
          return (await fetch(`${url}/api/health`).catch(() => null))?.status;
        },
        { timeout: 60_000 },
      )
      .toBe(200);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, seed, stop };
}
