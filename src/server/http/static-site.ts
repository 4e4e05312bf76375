/**
 * Serves the built browser app: hashed assets with a long cache, and index.html for every page
 * path, with status 200 for a page the app knows and 404 for one it does not (the app then shows
 * its Not Found page).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import { isKnownPagePath } from '../../shared/routes';
import type { AppEnv } from './app-env';

/** Whether a page path exists; by default, the shared route table decides. */
export type PageExists = (path: string) => boolean | Promise<boolean>;

export function mountStaticSite(
  app: Hono<AppEnv>,
  clientDir: string,
  pageExists: PageExists = isKnownPagePath,
): void {
  const indexFile = join(clientDir, 'index.html');
  const indexHtml = existsSync(indexFile)
    ? readFileSync(indexFile, 'utf8')
    : '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tutorlane</title></head><body><p>The browser app is not built. Run <code>npm run build</code>.</p></body></html>';

  app.use(
    '/assets/*',
    serveStatic({
      root: clientDir,
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  // Files in the public folder (favicon, robots.txt): cached briefly, they are not hashed.
  app.use(
    '*',
    serveStatic({
      root: clientDir,
      rewriteRequestPath: (path) => (path === '/' || path === '/index.html' ? '/__no_such_file__' : path),
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=3600');
      },
    }),
  );

  app.get('*', async (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(indexHtml, (await pageExists(c.req.path)) ? 200 : 404);
  });
}
