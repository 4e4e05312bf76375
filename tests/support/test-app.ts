/**
 * The Hono app in-process, on a fresh database, with its log lines captured so a test can read
 * them. `request()` takes a path and fetch options and adds what a browser would send.
 */
import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import { WebSocketServer } from 'ws';
import { type AppDependencies, createApp, createServices } from '../../src/server/app';
import { type Config, loadConfig } from '../../src/server/config/config';
import { createLogger } from '../../src/server/logging/logger';
import type { Mailer } from '../../src/server/mail/mailer';
import type { LiveHub } from '../../src/server/messages/live';
import type { Metrics } from '../../src/server/metrics/metrics';
import { createTestDatabase, type TestDatabase } from './test-database';

export const TEST_APP_URL = 'http://localhost:3000';

/** Trivial proof of work, so API tests solve captchas in a millisecond. */
export const easyAltcha = { cost: 1, minCounter: 1, maxCounter: 20, ttlSeconds: 600 };

const randomAddress = () =>
  `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    APP_URL: TEST_APP_URL,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'tutorlane-config-')),
    AUTH_SECRET: 'test-secret-that-is-long-enough-for-hmac-0123456789',
    LOG_LEVEL: 'info',
    // Each test request comes from its own address (see request()), unless the test names one.
    TRUST_PROXY: '1',
    // The tests of other features book lessons as a school that takes no money through
    // Tutorlane does (PAYMENTS=off), so each keeps to its subject; the money tests (and the test
    // of the default) pass PAYMENTS themselves.
    PAYMENTS: 'off',
    // Likewise the admin tests use the console without two-factor sign-in; the two-factor tests
    // check the default (required) themselves.
    ADMIN_TWO_FACTOR: 'optional',
    ...env,
  });
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  database: TestDatabase;
  config: Config;
  logLines: string[];
  /** The app's mail outbox, for work a test runs itself (jobs). */
  mailer: Mailer;
  /** The live channel's hub (started by `listen`). */
  live: LiveHub;
  /** What /metrics reports, for jobs a test runs itself. */
  metrics: Metrics;
  /** Serves the app on a loopback port, WebSockets included, until the returned close(). */
  listen(): Promise<{ url: string; close(): Promise<void> }>;
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clientDir?: string;
  database?: TestDatabase;
  overrides?: Partial<AppDependencies>;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = testConfig(options.env);
  const logLines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(String(chunk));
      callback();
    },
  });
  const logger = createLogger({ level: config.logLevel, destination });
  const deps: AppDependencies = {
    config,
    database,
    logger,
    clientDir: options.clientDir,
    altchaTuning: easyAltcha,
    ...options.overrides,
  };
  const services = createServices(deps);
  const app = createApp(deps, services);
  return {
    app,
    mailer: services.mailer,
    live: services.live,
    metrics: services.metrics,
    async listen() {
      const server = createAdaptorServer({
        fetch: app.fetch,
        websocket: { server: new WebSocketServer({ noServer: true }) },
      }) as Server;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      await services.live.start();
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}`,
        async close() {
          await services.live.stop();
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        },
      };
    },
    database,
    config,
    logLines,
    request(path, init = {}) {
      const headers = new Headers(init.headers);
      const method = (init.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'HEAD' && !headers.has('origin'))
        headers.set('origin', TEST_APP_URL);
      if (typeof init.body === 'string' && !headers.has('content-type'))
        headers.set('content-type', 'application/json');
      if (!headers.has('x-forwarded-for')) headers.set('x-forwarded-for', randomAddress());
      return Promise.resolve(app.request(new URL(path, TEST_APP_URL).toString(), { ...init, headers }));
    },
    async close() {
      await database.destroy();
    },
  };
}
