import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/accounts';
import { createTestApp, type TestApp } from '../support/test-app';
import { testStore } from '../support/test-database';

let t: TestApp;
const clientDir = mkdtempSync(join(tmpdir(), 'tutorlane-client-'));

beforeAll(async () => {
  mkdtempSync(join(clientDir, 'assets-'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><title>Tutorlane test shell</title><div id="root"></div>',
  );
  writeFileSync(join(clientDir, 'robots.txt'), 'User-agent: *\n');
  t = await createTestApp({ clientDir });
});
afterAll(async () => {
  await t.close();
});

describe('health', () => {
  it('answers 200 when the database answers', async () => {
    const res = await t.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('unknown paths', () => {
  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.request('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
  });

  it('answers a known page with the app and 200', async () => {
    for (const path of ['/', '/contact', '/login', '/signup', '/verify-email', '/dashboard', '/schedule']) {
      const res = await t.request(path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('Tutorlane test shell');
    }
  });

  it('answers an unknown page with the app and 404, so the app can show Not Found', async () => {
    const res = await t.request('/this/page/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('Tutorlane test shell');
  });

  it('serves files of the public folder', async () => {
    const res = await t.request('/robots.txt');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('User-agent');
  });
});

describe('request bodies', () => {
  it('refuses a body over 100 KB with 413 and a JSON message', async () => {
    const res = await t.request('/api/health', {
      method: 'POST',
      body: JSON.stringify({ big: 'x'.repeat(101 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ message: 'The request is too large.' });
  });
});

describe('logs', () => {
  it('writes one structured JSON line per API request', async () => {
    const before = t.logLines.length;
    await t.request('/api/health');
    const lines = t.logLines.slice(before).map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'GET', path: '/api/health', status: 200 });
  });
});

describe('database outage', () => {
  it('answers 503 when the database does not answer', async () => {
    const own = await createTestApp();
    await own.database.close();
    const res = await own.request('/api/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unavailable' });
    await own.database.destroy();
  });

  if (testStore === 'postgres') {
    it('answers 503, not 500, when PostgreSQL leaves a query waiting past its second (the session’s too), and ends that query itself', async () => {
      const { pool } = t.database as unknown as { pool: Pool };
      const { jar } = await signUp(t, { name: 'Wendy Waiting' });
      const holder = await pool.connect();
      const blockedByHolder = async (holderPid: number) => {
        // From another connection: a transaction sees the activity as it first read it.
        const { rows } = await pool.query(
          'select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
          [holderPid],
        );
        return rows[0].n as number;
      };
      try {
        // Another session holds the tutors while the search waits for them. PostgreSQL answers
        // the ping that follows, as when it is busy rather than down.
        const holderPid = (await holder.query('select pg_backend_pid() as pid')).rows[0].pid as number;
        await holder.query('begin; lock table tutor_profiles in access exclusive mode');
        const res = await t.request('/api/tutors');
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
        // The lock is still held: a statement left running would still be waiting for it, and
        // every query lent its connection would queue behind it.
        await expect.poll(() => blockedByHolder(holderPid), { timeout: 3000 }).toBe(0);

        // The same wait inside Better Auth's session read comes wrapped in its own error ("Failed
        // to get session"), the timeout as its cause: still a 503, whether or not the ping after
        // it is answered.
        await holder.query('lock table sessions in access exclusive mode');
        const signedIn = await t.request('/api/lessons', { headers: { cookie: jar.header() } });
        expect(signedIn.status).toBe(503);
        expect(signedIn.headers.get('retry-after')).toBe('5');
      } finally {
        await holder.query('rollback');
        holder.release();
      }
    });
  }
});
