/**
 * Serves the built browser app: hashed assets (precompressed, cached for a year), files of the
 * public folder, and index.html for every page path, with status 200 for a page the app knows and
 * 404 for one it does not (the app then shows its Not Found page).
 *
 * The HTML carries what the browser would otherwise wait for before its first paint: who is signed
 * in and the public configuration (JSON data blocks, which the CSP allows since they are never
 * executed) and a modulepreload of the current page's code, its language's catalogue and the
 * page's texts in it, so they arrive with the page instead of one round trip after another.
 * Made for each request, the HTML is gzipped as it goes out (Hono's compress), as the assets are
 * ahead of time: a phone's first request is the one that waits longest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import { directionOf, type PageLanguage, SOURCE_LANGUAGE } from '../../shared/languages';
import { isKnownPagePath, pageModuleFor } from '../../shared/routes';
import { translate } from '../i18n/translations';
import { escapeHtml } from '../mail/html';
import type { AppEnv } from './app-env';

/** Whether a page path exists; by default, the shared route table decides. */
export type PageExists = (path: string) => boolean | Promise<boolean>;

/** What search results show under the site's name: src/client/index.html's, in the page's language. */
const PAGE_DESCRIPTION =
  /*i18n*/ 'Tutorlane connects students with verified tutors for one-on-one lessons in math, science, languages, programming and the arts.';

interface ManifestEntry {
  file: string;
  name?: string;
  imports?: string[];
  css?: string[];
}

export interface StaticSiteOptions {
  pageExists?: PageExists;
  /** The signed-in user's public shape for this request, or null. */
  currentUser?: (c: Context<AppEnv>) => Promise<unknown>;
  /**
   * The configuration the browser may know (GET /api/config's body), the same on every page; it may
   * change at any time (an admin edits the site settings). Undefined while it is not known yet (the
   * database still opening): the page goes out without it, and the app asks GET /api/config.
   */
  publicConfig?: () => unknown | Promise<unknown>;
}

/** A JSON data block the browser app reads by id: never executed, safe inside the HTML. */
function dataBlock(id: string, value: unknown): string {
  return `<script id="${id}" type="application/json">${JSON.stringify(value).replaceAll('<', '\\u003c')}</script>`;
}

const missingBuild =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tutorlane</title></head><body><p>The browser app is not built. Run <code>npm run build</code>.</p></body></html>';

/** The files a page's module needs beyond the entry (which index.html already loads). */
function preloadsFor(
  manifest: Record<string, ManifestEntry>,
  key: string,
): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (name: string) => {
    const entry = manifest[name];
    if (!entry || name === 'index.html' || scripts.has(entry.file)) return;
    scripts.add(entry.file);
    for (const css of entry.css ?? []) styles.add(css);
    for (const imported of entry.imports ?? []) visit(imported);
  };
  visit(key);
  return { scripts: [...scripts], styles: [...styles] };
}

export function mountStaticSite(app: Hono<AppEnv>, clientDir: string, options: StaticSiteOptions = {}): void {
  const pageExists = options.pageExists ?? isKnownPagePath;
  const indexFile = join(clientDir, 'index.html');
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : missingBuild;
  const manifestFile = join(clientDir, '.vite/manifest.json');
  const manifest: Record<string, ManifestEntry> = existsSync(manifestFile)
    ? JSON.parse(readFileSync(manifestFile, 'utf8'))
    : {};
  const headEnd = indexHtml.indexOf('</head>');
  const head = headEnd >= 0 ? indexHtml.slice(0, headEnd) : indexHtml;
  // The block is made again only when the configuration is a new object, not for every page.
  let lastConfig: unknown;
  let lastConfigBlock = '';
  const configBlock = async () => {
    const config = await options.publicConfig?.();
    if (config === undefined) return '';
    if (config !== lastConfig) {
      lastConfig = config;
      lastConfigBlock = dataBlock('tl-config', config);
    }
    return lastConfigBlock;
  };
  const tail = headEnd >= 0 ? indexHtml.slice(headEnd) : '';
  // The page's language and direction are in its first byte, so an Arabic page paints right to
  // left from the start; what its texts need is fetched with the page's own code.
  const headIn = new Map<string, string>();
  const headFor = (language: PageLanguage) => {
    let found = headIn.get(language);
    if (found === undefined) {
      // The language's catalogue (the app shell's texts), English's too: the code holds only ids.
      const catalogue = manifest[`../locales/web/${language}.po`];
      found =
        head
          .replace(/<html lang="[^"]*">/, `<html lang="${language}" dir="${directionOf(language)}">`)
          .replace(
            /<meta name="description" content="[^"]*"/,
            `<meta name="description" content="${escapeHtml(translate(language, PAGE_DESCRIPTION))}"`,
          ) + (catalogue ? `<link rel="modulepreload" crossorigin href="/${catalogue.file}">` : '');
      headIn.set(language, found);
    }
    return found;
  };
  // The page's code and its texts in the page's language (`features/home/home-page.tsx` has
  // `home-texts-es`): the page renders once both are there.
  const preloadTags = new Map<string, string>();
  const preloadTagsFor = (module: string, language: PageLanguage) => {
    const key = `${language} ${module}`;
    let tags = preloadTags.get(key);
    if (tags === undefined) {
      const { scripts, styles } = preloadsFor(manifest, module);
      const textsKey = `virtual:page-texts/${module.replace(/-page\.tsx$/, '')}-texts-${language}`;
      const texts = Object.entries(manifest).find(([name]) => name.endsWith(textsKey));
      if (texts) scripts.push(texts[1].file);
      tags = [
        ...styles.map((file) => `<link rel="stylesheet" href="/${file}">`),
        ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
      ].join('');
      preloadTags.set(key, tags);
    }
    return tags;
  };

  // serveStatic's onFound cannot set headers on the response it has already returned, so the
  // cache lifetime is stamped on the way out.
  const cachedFor =
    (cacheControl: string): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      await next();
      if (c.res.status === 200 && c.res.headers.has('Last-Modified'))
        c.res.headers.set('Cache-Control', cacheControl);
    };
  app.use(
    '/assets/*',
    cachedFor('public, max-age=31536000, immutable'),
    serveStatic({ root: clientDir, precompressed: true }),
  );
  // Files in the public folder (favicon, robots.txt): cached briefly, they are not hashed.
  app.use(
    '*',
    cachedFor('public, max-age=3600'),
    serveStatic({
      root: clientDir,
      precompressed: true,
      rewriteRequestPath: (path) =>
        path === '/' || path === '/index.html' || path.startsWith('/.vite') ? '/__no_such_file__' : path,
    }),
  );

  app.get('*', compress(), async (c) => {
    const [exists, user, config] = await Promise.all([
      pageExists(c.req.path),
      options.currentUser?.(c) ?? null,
      configBlock(),
    ]);
    // The page carries who is signed in: never shared between visitors or stored by a cache.
    c.header('Cache-Control', 'private, no-cache');
    c.header('Vary', 'Cookie, Accept-Language');
    const saved = (user as { language?: PageLanguage | null } | null)?.language;
    const language = saved ?? c.var.requestLanguage ?? SOURCE_LANGUAGE;
    const html = `${headFor(language)}${config}${dataBlock('tl-session', { user })}${preloadTagsFor(pageModuleFor(c.req.path), language)}${tail}`;
    return c.html(html, exists ? 200 : 404);
  });
}
