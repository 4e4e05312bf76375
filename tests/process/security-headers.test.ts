/**
 * Security headers on the real server. In a process they take other paths
 * than in-process tests: set on Node's response before Hono writes it, and the health check is
 * answered before Hono sees the request at all. So: a page, an asset, the health check, the
 * reset page and an auth answer, from a server started as `npm start` starts it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ResponseKind, securityHeaderList } from '../../src/server/http/security-headers';
import { freePort, projectRoot, type ServerProcess, startServerProcess } from '../support/server-process';

const clientDir = join(projectRoot, 'dist/client');
const dataDirs: string[] = [];
const servers: ServerProcess[] = [];

afterAll(async () => {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tutorlane-headers-'));
  dataDirs.push(dataDir);
  const server = await startServerProcess({ DATA_DIR: dataDir, ...env }, 60_000);
  servers.push(server);
  return server;
}

/** The entry script index.html loads, e.g. /assets/index-abc123.js. */
function builtAsset(): string {
  const src = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(
    readFileSync(join(clientDir, 'index.html'), 'utf8'),
  )?.[1];
  if (!src) throw new Error('no script in dist/client/index.html');
  return src;
}

function expectSecurityHeaders(
  res: Response,
  label: string,
  referrerPolicy = 'same-origin',
  kind: ResponseKind = label.startsWith('/api/') || !label.startsWith('/') ? 'api' : 'document',
) {
  const csp = res.headers.get('content-security-policy') ?? '';
  // Exactly the policy for its kind, once: a second copy would be joined on with a comma.
  expect(csp, label).toBe(
    new Map(securityHeaderList({ https: false, recaptcha: false }, kind)).get('Content-Security-Policy'),
  );
  const directives = csp.split(';').map((directive) => directive.trim());
  // Scripts fall back to default-src when there is no script-src (an API answer: 'none').
  const scriptSrc =
    directives.find((directive) => directive.startsWith('script-src')) ??
    directives.find((directive) => directive.startsWith('default-src')) ??
    '';
  expect(scriptSrc, label).toMatch(/'self'|'none'/);
  expect(scriptSrc, label).not.toMatch(/unsafe-inline|unsafe-eval/);
  for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
    expect(directives, label).toContain(directive);
  }
  expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(res.headers.get('referrer-policy'), label).toBe(referrerPolicy);
  expect(res.headers.get('strict-transport-security'), label).toBeNull();
}

describe('security headers from the server process', () => {
  it('are on a page, an asset, the health check, the reset page and every auth answer', async () => {
    const server = await start();
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    expectSecurityHeaders(home, '/');

    const asset = await fetch(`${server.url}${builtAsset()}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expectSecurityHeaders(asset, 'asset', 'same-origin', 'document');

    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expectSecurityHeaders(health, '/api/health');

    for (const path of [
      '/reset-password?token=abc',
      '/reset-password/?token=abc',
      '/verify-email?token=abc',
    ]) {
      const page = await fetch(`${server.url}${path}`);
      expect(page.status, path).toBe(200);
      expectSecurityHeaders(page, path, 'no-referrer');
    }

    const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password-42' }),
    });
    expect(signIn.status).toBe(401);
    expect(signIn.headers.get('cache-control')).toBe('no-store');
    expectSecurityHeaders(signIn, 'sign-in');

    const reset = await fetch(`${server.url}/api/auth/request-password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: 'nobody@example.com' }),
    });
    expect(reset.status).toBe(200);
    expect(reset.headers.get('cache-control')).toBe('no-store');
    expectSecurityHeaders(reset, 'request-password-reset');
  }, 120_000);

  it('add HSTS, on the health check too, when APP_URL is https', async () => {
    const port = String(await freePort());
    await start({ APP_URL: 'https://tutorlane.example', PORT: port });
    for (const path of ['/', '/api/health']) {
      // The server itself speaks http behind the https proxy; APP_URL is what visitors use.
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(res.headers.get('strict-transport-security'), path).toMatch(/^max-age=\d+/);
    }
  }, 120_000);
});
