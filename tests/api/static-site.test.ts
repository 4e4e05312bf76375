/**
 * The pages the server sends: the signed-in user and the current page's code travel with the HTML,
 * assets go out precompressed, and the HTML is never shared between visitors.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUp } from '../support/accounts';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let clientDir: string;
const asset = `console.log(${JSON.stringify('x'.repeat(2000))});`;

beforeAll(async () => {
  clientDir = mkdtempSync(join(tmpdir(), 'tutorlane-client-'));
  mkdirSync(join(clientDir, 'assets'));
  mkdirSync(join(clientDir, '.vite'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><html><head><title>shell</title></head><body></body></html>',
  );
  writeFileSync(join(clientDir, 'assets/home-page-abc.js'), asset);
  writeFileSync(join(clientDir, 'assets/home-page-abc.js.br'), brotliCompressSync(asset));
  writeFileSync(join(clientDir, 'assets/home-page-abc.js.gz'), gzipSync(asset));
  writeFileSync(
    join(clientDir, '.vite/manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-1.js', isEntry: true },
      'features/home/home-page.tsx': {
        file: 'assets/home-page-abc.js',
        imports: ['index.html', '_shared-1.js'],
      },
      '_shared-1.js': { file: 'assets/shared-1.js' },
      'features/contact/contact-page.tsx': { file: 'assets/contact-page-def.js', imports: ['index.html'] },
      '../locales/web/en.po': { file: 'assets/en-1.js' },
      '../locales/web/es.po': { file: 'assets/es-1.js' },
      '../../virtual:page-texts/features/home/home-texts-en': { file: 'assets/home-texts-en-1.js' },
      '../../virtual:page-texts/features/home/home-texts-es': { file: 'assets/home-texts-es-1.js' },
    }),
  );
  t = await createTestApp({ clientDir });
});
afterAll(async () => {
  await t.close();
});

const dataBlockIn = (id: string, html: string) =>
  JSON.parse(
    new RegExp(`<script id="${id}" type="application/json">(.*?)</script>`).exec(html)?.[1] ?? 'null',
  );
const sessionIn = (html: string) => dataBlockIn('tl-session', html);

it('puts the signed-in user, or nobody, in the page, and keeps the page private', async () => {
  const anonymous = await t.request('/');
  expect(sessionIn(await anonymous.text())).toEqual({ user: null });
  expect(anonymous.headers.get('cache-control')).toBe('private, no-cache');
  expect(anonymous.headers.get('vary')).toContain('Cookie');

  const { jar, email } = await signUp(t, { name: '</script><script>alert(1)</script>' });
  const html = await (await t.request('/contact', { headers: { cookie: jar.header() } })).text();
  expect(sessionIn(html).user).toMatchObject({ email, displayName: '</script><script>alert(1)</script>' });
  expect(html).not.toContain('<script>alert(1)');
});

it('tells the page whether a time zone is saved, as GET /api/session does', async () => {
  const { jar } = await signUp(t, { name: 'Zoe Zone' });
  const pageUser = async () =>
    sessionIn(await (await t.request('/', { headers: { cookie: jar.header() } })).text()).user;
  const apiUser = async () =>
    (await (await t.request('/api/session', { headers: { cookie: jar.header() } })).json()).user;
  expect((await pageUser()).timeZone).toBeNull();
  expect(await apiUser()).toEqual(await pageUser());
  const reported = await t.request('/api/profile/time-zone', {
    method: 'POST',
    body: JSON.stringify({ timeZone: 'Asia/Kolkata' }),
    headers: { cookie: jar.header() },
  });
  expect(reported.status).toBe(200);
  jar.store(reported);
  expect((await pageUser()).timeZone).toBe('Asia/Kolkata');
  expect(await apiUser()).toEqual(await pageUser());
});

it('puts the public configuration in every page, as GET /api/config answers it, so no page waits for it', async () => {
  const fromApi = await (await t.request('/api/config')).json();
  expect(fromApi).toMatchObject({ captcha: { kind: 'altcha' }, support: { email: t.config.supportEmail } });
  for (const path of ['/', '/signup', '/contact', '/no-such-page'])
    expect(dataBlockIn('tl-config', await (await t.request(path)).text())).toEqual(fromApi);

  // With reCAPTCHA configured, its public key is there and its secret is not.
  const withRecaptcha = await createTestApp({
    database: t.database,
    clientDir,
    env: { RECAPTCHA_SITE_KEY: 'site-key-1', RECAPTCHA_SECRET_KEY: 'secret-1' },
  });
  const html = await (await withRecaptcha.request('/signup')).text();
  expect(dataBlockIn('tl-config', html)).toEqual({
    ...fromApi,
    captcha: { kind: 'recaptcha', siteKey: 'site-key-1' },
  });
  expect(html).not.toContain('secret-1');
});

it('sends a page without the configuration, at once, while the database is still opening', async () => {
  const opening = await createTestApp({
    database: { ...t.database, ready: new Promise<void>(() => {}), destroy: async () => {} },
    clientDir,
  });
  const res = await opening.request('/contact');
  expect(res.status).toBe(200);
  const html = await res.text();
  // The app then asks GET /api/config, which waits for the database.
  expect(html).not.toContain('tl-config');
  expect(sessionIn(html)).toEqual({ user: null });
});

it('preloads the current page’s code and what it imports, not other pages', async () => {
  const home = await (await t.request('/')).text();
  expect(home).toContain('<link rel="modulepreload" crossorigin href="/assets/home-page-abc.js">');
  expect(home).toContain('href="/assets/shared-1.js"');
  expect(home).not.toContain('contact-page');
  expect(await (await t.request('/contact')).text()).toContain('/assets/contact-page-def.js');
});

it('preloads the page’s language’s catalogue and the page’s texts in it, English’s as any other', async () => {
  const english = await (await t.request('/')).text();
  expect(english).toContain('<link rel="modulepreload" crossorigin href="/assets/en-1.js">');
  expect(english).toContain('<link rel="modulepreload" crossorigin href="/assets/home-texts-en-1.js">');
  expect(english).not.toContain('es-1.js');
  const spanish = await (await t.request('/', { headers: { 'accept-language': 'es' } })).text();
  expect(spanish).toContain('href="/assets/es-1.js"');
  expect(spanish).toContain('href="/assets/home-texts-es-1.js"');
  expect(spanish).not.toContain('en-1.js');
});

it('sends assets precompressed with brotli or gzip, as the browser accepts', async () => {
  const br = await t.request('/assets/home-page-abc.js', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(br.headers.get('content-encoding')).toBe('br');
  expect(br.headers.get('cache-control')).toContain('immutable');
  const gz = await t.request('/assets/home-page-abc.js', { headers: { 'accept-encoding': 'gzip' } });
  expect(gz.headers.get('content-encoding')).toBe('gzip');
  const plain = await t.request('/assets/home-page-abc.js');
  expect(plain.headers.get('content-encoding')).toBeNull();
  expect(await plain.text()).toBe(asset);
});

it('gzips the page as it goes out to a browser that accepts it, and says so to caches', async () => {
  const plain = await t.request('/contact');
  const plainHtml = await plain.text();
  expect(plain.headers.get('content-encoding')).toBeNull();
  const gz = await t.request('/contact', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
  expect(gz.headers.get('content-encoding')).toBe('gzip');
  expect(gz.headers.get('vary')).toMatch(/Accept-Encoding/);
  expect(gz.headers.get('cache-control')).toBe('private, no-cache');
  const body = Buffer.from(await gz.arrayBuffer());
  expect(body.length).toBeLessThan(Buffer.byteLength(plainHtml));
  expect(gunzipSync(body).toString()).toBe(plainHtml);
  // A page the app does not know keeps its status.
  expect((await t.request('/no-such-page', { headers: { 'accept-encoding': 'gzip' } })).status).toBe(404);
});

it('does not serve the build manifest', async () => {
  expect((await t.request('/.vite/manifest.json')).headers.get('content-type')).toContain('text/html');
});
