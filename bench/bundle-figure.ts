/**
 * Row 1: the JavaScript `/` loads before its first paint, gzipped, against a React + React Router
 * (data router) app built in the same run.
 *
 * The app's initial set is read over HTTP from the running server, as a browser meets it: the
 * module scripts and module preloads of the HTML served for `/`, and every module those import
 * statically, transitively (es-module-lexer reads the imports; dynamic imports load later and are
 * not followed). The reference app is written here and built with the project's own Vite, React
 * and React Router (the project's `vite` command, in a folder inside the project so its packages
 * resolve), then measured the same way from its built files. Also checked: the ALTCHA widget and
 * the other pages are not in the initial set.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { init, parse } from 'es-module-lexer';
import { onCleanup, projectRoot, startTutorlane, tempDir } from './processes';
import { type FigureResult, status } from './report';

const BUDGET_RATIO = 1.15;
/** Chunks named after the home page and the other pages (Vite names a lazy chunk after its module). */
const HOME_PAGE_CHUNK = /\/home-page-[\w-]+\.js$/;
const PAGE_CHUNK = /\/[\w-]+-page-[\w-]+\.js$/;
/** The captcha widget and its proof-of-work code. */
const CAPTCHA_CHUNK = /\/(altcha[\w-]*|pbkdf2-[\w-]+)\.js$/;

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** Reads a module or page over HTTP, or from disk for a file: URL. */
async function load(url: URL): Promise<string> {
  if (url.protocol === 'file:') return readFileSync(fileURLToPath(url), 'utf8');
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url.pathname} answered ${res.status}`);
  return res.text();
}

/**
 * The module scripts and module preloads of a page, as absolute URLs; a path from the root (as
 * Vite writes them) is taken from `siteRoot`, the server's origin or the built folder.
 */
function entryModules(html: string, page: URL, siteRoot: URL): URL[] {
  const urls: URL[] = [];
  for (const [tag] of html.matchAll(/<(script|link)\b[^>]*>/g)) {
    const src = tag.startsWith('<script')
      ? /\btype="module"/.test(tag) && /\bsrc="([^"]+)"/.exec(tag)?.[1]
      : /\brel="modulepreload"/.test(tag) && /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (src) urls.push(src.startsWith('/') ? new URL(`.${src}`, siteRoot) : new URL(src, page));
  }
  return urls;
}

interface Module {
  url: URL;
  gzipBytes: number;
}

/** The page's entry modules and everything they import statically, each once. */
async function initialSet(pageUrl: URL, siteRoot: URL): Promise<Module[]> {
  await init;
  const seen = new Map<string, Module>();
  const visit = async (url: URL): Promise<void> => {
    if (seen.has(url.href)) return;
    const code = await load(url);
    seen.set(url.href, { url, gzipBytes: gzipSync(code).length });
    const [imports] = parse(code);
    // d === -1: a static import (a dynamic one has the position of its import( call).
    const statics = imports.filter((found) => found.d === -1 && found.n);
    for (const found of statics) await visit(new URL(found.n as string, url));
  };
  for (const entry of entryModules(await load(pageUrl), pageUrl, siteRoot)) await visit(entry);
  return [...seen.values()];
}

/** The reference app: react, react-dom and react-router's data router with two routes. */
const referenceFiles: Record<string, string> = {
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Reference</title></head>
  <body><div id="root"></div><script type="module" src="./main.jsx"></script></body>
</html>
`,
  'main.jsx': `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Link } from 'react-router';
import { RouterProvider } from 'react-router/dom';

function Home() {
  return <main><h1>Home</h1><Link to="/about">About</Link></main>;
}

function About() {
  return <main><h1>About</h1><Link to="/">Home</Link></main>;
}

const router = createBrowserRouter([
  { path: '/', Component: Home },
  { path: '/about', Component: About },
]);

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
`,
  'vite.config.mjs': `import react from '@vitejs/plugin-react';
export default { plugins: [react()], logLevel: 'warn', build: { target: 'es2022', sourcemap: false } };
`,
};

/** Builds the reference app with the project's Vite; resolves with its initial set. */
async function referenceApp(): Promise<Module[]> {
  // Inside the project (.tmp/ is ignored by git) so that imports resolve to the project's packages.
  mkdirSync(join(projectRoot, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(projectRoot, '.tmp', 'bench-reference-app-'));
  const remove = onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(referenceFiles)) writeFileSync(join(dir, name), content);
  await new Promise<void>((resolve, reject) => {
    const vite = spawn(join(projectRoot, 'node_modules/.bin/vite'), ['build'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    vite.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    vite.once('error', reject);
    vite.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`building the reference app failed:\n${stderr}`)),
    );
  });
  const dist = pathToFileURL(join(dir, 'dist/'));
  const modules = await initialSet(new URL('index.html', dist), dist);
  await remove();
  return modules;
}

export async function measureBundleFigure(): Promise<FigureResult> {
  const server = await startTutorlane({ dataDir: tempDir('bundle') });
  let initial: Module[];
  try {
    initial = await initialSet(new URL('/', server.url), new URL('/', server.url));
  } finally {
    await server.stop();
  }
  const reference = await referenceApp();
  const sum = (modules: Module[]) => modules.reduce((total, module) => total + module.gzipBytes, 0);
  const initialGzip = sum(initial);
  const referenceGzip = sum(reference);
  const ratio = initialGzip / referenceGzip;

  const files = initial.map((module) => module.url.pathname);
  const captcha = files.filter((file) => CAPTCHA_CHUNK.test(file));
  const otherPages = files.filter((file) => PAGE_CHUNK.test(file) && !HOME_PAGE_CHUNK.test(file));
  const lazyOk = captcha.length === 0 && otherPages.length === 0;
  const lazyProblems = [
    captcha.length ? `ALTCHA in the initial set (${captcha.join(', ')})` : '',
    otherPages.length ? `other pages in the initial set: ${otherPages.join(', ')}` : '',
  ].filter(Boolean);

  return {
    rows: [
      {
        id: '1',
        figure: 'initial JS for / (gzip)',
        measured: `${kB(initialGzip)} in ${initial.length} files`,
        reference: `react+react-dom+react-router app ${kB(referenceGzip)}`,
        ratio: `${ratio.toFixed(2)}x`,
        budget: `<= ${BUDGET_RATIO.toFixed(2)}x`,
        status: status(ratio <= BUDGET_RATIO),
      },
      {
        id: '1',
        figure: 'captcha widget and other pages load only when needed',
        measured: lazyOk ? 'ALTCHA and other pages not in the initial set' : lazyProblems.join('; '),
        reference: '',
        ratio: '',
        budget: 'not in initial set',
        status: status(lazyOk),
      },
    ],
    findings: [
      `1: initial set of /: ${initial.map((m) => `${m.url.pathname} ${kB(m.gzipBytes)}`).join(', ')}`,
      `1: the home page's own chunk is ${files.some((file) => HOME_PAGE_CHUNK.test(file)) ? '' : 'not '}among them ` +
        '(the HTML preloads it)',
      `1: reference: ${reference.map((m) => `${m.url.pathname.split('/').pop()} ${kB(m.gzipBytes)}`).join(', ')}`,
    ],
    details: {
      initialGzipBytes: initialGzip,
      referenceGzipBytes: referenceGzip,
      ratio,
      initial: initial.map((m) => ({ file: m.url.pathname, gzipBytes: m.gzipBytes })),
      reference: reference.map((m) => ({ file: m.url.pathname.split('/').pop(), gzipBytes: m.gzipBytes })),
    },
  };
}
