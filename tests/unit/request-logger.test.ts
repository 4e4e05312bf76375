/** Which requests get a log line, in each of the two ways the server logs. */
import { Writable } from 'node:stream';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/server/http/app-env';
import { requestLogger } from '../../src/server/http/request-logger';
import { createLogger } from '../../src/server/logging/logger';

function appLogging(everyRequest: boolean) {
  const lines: { level: number; msg: string; path?: string; status?: number }[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger({ level: 'info', destination });
  const app = new Hono<AppEnv>()
    .use(requestLogger(logger, 0, { everyRequest, slowMs: 50 }))
    .get('/api/fine', (c) => c.json({ ok: true }))
    .get('/api/slow', async (c) => {
      await new Promise((resolve) => setTimeout(resolve, 80));
      return c.json({ ok: true });
    })
    .get('/api/refused', (c) => c.json({ error: 'no' }, 403))
    .get('/api/broken', (c) => c.json({ error: 'broken' }, 500));
  return { app, lines };
}

const call = async (app: Hono<AppEnv>, path: string) => {
  await app.request(path);
  // pino writes on the next turn.
  await new Promise((resolve) => setImmediate(resolve));
};

describe('request lines', () => {
  it('for files and pipes: every API request, refusals and failures', async () => {
    const { app, lines } = appLogging(true);
    for (const path of ['/api/fine', '/api/refused', '/api/broken']) await call(app, path);
    expect(lines.map((line) => [line.msg, line.path, line.status])).toEqual([
      ['request', '/api/fine', 200],
      ['request refused', '/api/refused', 403],
      ['request failed', '/api/broken', 500],
    ]);
  });

  it('for a person at a terminal: only what failed, was refused or was slow', async () => {
    const { app, lines } = appLogging(false);
    for (const path of ['/api/fine', '/api/slow', '/api/refused', '/api/broken']) await call(app, path);
    expect(lines.map((line) => [line.msg, line.path])).toEqual([
      ['slow request', '/api/slow'],
      ['request refused', '/api/refused'],
      ['request failed', '/api/broken'],
    ]);
  });
});
