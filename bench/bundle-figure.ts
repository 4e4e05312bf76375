/**
 * Row 1: the JavaScript each public page loads before it is idle, gzipped, against a React + React
 * Router (data router) app built in the same run and measured the same way.
 *
 * "Before it is idle" is what a visitor's browser really fetches: Chromium opens the page, every
 * script response is kept (the entry, its static imports, and whatever the router or the page
 * loads at once: the page's chunk, its loader's modules) until the network has been quiet for
 * half a second and stays quiet for another. Each script's body is gzipped here, so the figure does
 * not depend on how the server compresses. The reference app is written here and built with the
 * project's own Vite, React and React Router (the project's `vite` command, in a folder inside the
 * project so its packages resolve), served by a small static server, and opened the same way.
 *
 * Pages and budgets: `/`, `/login`, `/contact` and `/tutors` within 1.15x of the reference;
 * `/signup` (with its human check) and a tutor's page (with its booking box) within 1.5x. The
 * demo data folder gives /tutors its list and a tutor's page its tutor. Also checked: on `/`,
 * neither the captcha widget nor another page's chunk is loaded.
 *
 * Row 16: the same figure for `/`, `/tutors` and a tutor's page in Spanish and in Arabic (the
 * browser asks for the language, as a visitor's does), at most 3 kB gzip more than in English:
 * a language costs its catalogue, loaded only where it is used.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { mapLimited } from './accounts';
import { onCleanup, projectRoot, startTutorlane } from './processes';
import { type FigureResult, type Row, skippedRow, status } from './report';

const PAGES = [
  { path: '/', budget: 1.15 },
  { path: '/login', budget: 1.15 },
  { path: '/contact', budget: 1.15 },
  { path: '/tutors', budget: 1.15 },
  { path: '/signup', budget: 1.5 },
  { path: 'a tutor', budget: 1.5 },
] as const;
/** Chunks named after a page (Vite names a lazy chunk after its module). */
const PAGE_CHUNK = /\/([\w-]+-page)-[\w-]+\.js$/;
/** The captcha widget and its proof-of-work code. */
const CAPTCHA_CHUNK = /\/(altcha[\w-]*|pbkdf2-[\w-]+)\.js$/;
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Quiet network for this long after Playwright's own "network idle" means the page is done. */
const SETTLE_MS = 500;

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

interface Script {
  path: string;
  gzipBytes: number;
}

type Browser = Awaited<ReturnType<typeof chromium.launch>>;

/** Every script the page at `url` loads before it is idle, each once, gzipped. */
async function scriptsBeforeIdle(browser: Browser, url: string, locale = 'en-US'): Promise<Script[]> {
  // The locale is what the browser asks for (Accept-Language), as a first visit's does.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
  try {
    const page = await context.newPage();
    const scripts = new Map<string, Promise<Script | null>>();
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const path = new URL(response.url()).pathname;
      if (scripts.has(path)) return;
      scripts.set(
        path,
        response.body().then(
          (body) => ({ path, gzipBytes: gzipSync(body).length }),
          () => null,
        ),
      );
    });
    const answer = await page.goto(url, { waitUntil: 'networkidle' });
    if (!answer?.ok()) throw new Error(`${url} answered ${answer?.status()}`);
    let seen = -1;
    while (seen !== scripts.size) {
      seen = scripts.size;
      await page.waitForTimeout(SETTLE_MS);
    }
    // The server chose the page's language from the browser's; a figure for another would mislead.
    const language = locale.split('-')[0];
    const shown = await page.evaluate(() => document.documentElement.lang);
    if (shown !== language) throw new Error(`${url} was shown in "${shown}", not "${language}"`);
    const found = await Promise.all(scripts.values());
    return found.filter((script): script is Script => script !== null);
  } finally {
    await context.close();
  }
}

const sum = (scripts: Script[]) => scripts.reduce((total, script) => total + script.gzipBytes, 0);

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

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Builds the reference app with the project's Vite and serves its dist; resolves with its URL. */
async function referenceApp(): Promise<string> {
  // Inside the project (.tmp/ is ignored by git) so that imports resolve to the project's packages.
  mkdirSync(join(projectRoot, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(projectRoot, '.tmp', 'bench-reference-app-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
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
  const dist = join(dir, 'dist');
  const server = createServer((request, response) => {
    const path = normalize(new URL(request.url ?? '/', 'http://reference').pathname);
    const file = join(dist, path === '/' ? 'index.html' : path);
    try {
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
}

/** Which rows to measure: row 16 needs the English figures of its three pages, not the reference. */
export interface BundleRows {
  initial: boolean;
  languages: boolean;
}

export async function measureBundleFigure(
  dataDir: string,
  wanted: BundleRows = { initial: true, languages: true },
): Promise<FigureResult> {
  const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS });
  } catch (error) {
    const reason = `no Chromium at ${chromiumPath} (set CHROMIUM_PATH): ${(error as Error).message.split('\n')[0]}`;
    return {
      rows: [
        ...(wanted.initial ? [skippedRow('1', 'initial JavaScript', '<= 1.15x; <= 1.5x', reason)] : []),
        ...(wanted.languages
          ? [skippedRow('16', 'JavaScript in es and ar', '<= English + 3.0 kB', reason)]
          : []),
      ],
      findings: [],
      details: {},
    };
  }
  onCleanup(() => browser.close());
  const reference = wanted.initial ? await scriptsBeforeIdle(browser, await referenceApp()) : [];
  const referenceGzip = sum(reference);
  const inRow16 = (path: string) => path === '/' || path === '/tutors' || path === 'a tutor';

  const server = await startTutorlane({ dataDir });
  const measured: { path: string; label: string; budget: number; scripts: Script[] }[] = [];
  // A page in a language: its bytes, and the scripts English does not load and those it loads alone.
  const inLanguages: {
    label: string;
    language: string;
    bytes: number;
    english: number;
    added: Script[];
    dropped: Script[];
  }[] = [];
  try {
    const tutors = (await (await fetch(`${server.url}/api/tutors`)).json()) as { tutors: { id: string }[] };
    const tutorId = tutors.tutors[0]?.id;
    if (!tutorId) throw new Error('the demo data folder lists no tutor');
    // The scripts a page loads do not depend on how fast it is served, so the pages (and each one's
    // languages) are opened a few at a time.
    const pages = PAGES.filter((page) => wanted.initial || inRow16(page.path)).map((page) => {
      const tutor = page.path === 'a tutor';
      const path = tutor ? `/tutors/${tutorId}` : page.path;
      const label = tutor ? "a tutor's page" : page.path;
      return { budget: page.budget, path, label, url: `${server.url}${path}`, row16: inRow16(page.path) };
    });
    const loads = pages.flatMap((page) => [
      { page, language: 'en', locale: 'en-US' },
      ...(wanted.languages && page.row16
        ? [
            { page, language: 'es', locale: 'es-ES' },
            { page, language: 'ar', locale: 'ar-EG' },
          ]
        : []),
    ]);
    const loaded = await mapLimited(loads, 4, async (load) => ({
      ...load,
      scripts: await scriptsBeforeIdle(browser, load.page.url, load.locale),
    }));
    const inEnglish = loaded.filter((load) => load.language === 'en');
    for (const { page, scripts } of inEnglish)
      measured.push({ path: page.path, label: page.label, budget: page.budget, scripts });
    for (const { page, language, scripts: inLanguage } of loaded) {
      if (language === 'en') continue;
      const scripts = inEnglish.find((load) => load.page === page)?.scripts ?? [];
      const englishPaths = new Set(scripts.map((script) => script.path));
      const languagePaths = new Set(inLanguage.map((script) => script.path));
      inLanguages.push({
        label: page.label,
        language,
        bytes: sum(inLanguage),
        english: sum(scripts),
        added: inLanguage.filter((script) => !englishPaths.has(script.path)),
        dropped: scripts.filter((script) => !languagePaths.has(script.path)),
      });
    }
  } finally {
    await server.stop();
  }

  const rows: Row[] = (wanted.initial ? measured : []).map(({ label, budget, scripts }) => {
    const ratio = sum(scripts) / referenceGzip;
    return {
      id: '1',
      figure: `JS before idle, ${label} (gzip)`,
      measured: `${kB(sum(scripts))} in ${scripts.length} files`,
      reference: `react+react-dom+react-router app ${kB(referenceGzip)}`,
      ratio: `${ratio.toFixed(2)}x`,
      budget: `<= ${budget.toFixed(2)}x`,
      status: status(ratio <= budget),
    };
  });

  const LANGUAGE_BUDGET_BYTES = 3 * 1024;
  for (const { label, language, bytes, english } of inLanguages) {
    const more = bytes - english;
    rows.push({
      id: '16',
      figure: `JS before idle, ${label} in ${language} (gzip)`,
      measured: `${kB(bytes)} (${more >= 0 ? '+' : ''}${kB(more)})`,
      reference: `in English ${kB(english)}`,
      ratio: '',
      budget: '<= English + 3.0 kB',
      status: status(more <= LANGUAGE_BUDGET_BYTES),
    });
  }

  const listed = (scripts: Script[]) =>
    [...scripts]
      .sort((a, b) => b.gzipBytes - a.gzipBytes)
      .map((script) => `${script.path.split('/').pop()} ${kB(script.gzipBytes)}`)
      .join(', ');
  const languageFindings = inLanguages.map(
    ({ label, language, added, dropped }) =>
      `16: ${label} in ${language}: ${listed(added) || 'nothing'} instead of English's ${listed(dropped) || 'nothing'}`,
  );
  if (!wanted.initial) return { rows, findings: languageFindings, details: { languages: inLanguages } };
  const home = measured.find((page) => page.path === '/')?.scripts ?? [];
  const captcha = home.filter((script) => CAPTCHA_CHUNK.test(script.path)).map((script) => script.path);
  const otherPages = home
    .map((script) => PAGE_CHUNK.exec(script.path)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'home-page');
  const lazyOk = captcha.length === 0 && otherPages.length === 0;
  rows.push({
    id: '1',
    figure: '/ loads neither the captcha widget nor other pages',
    measured: lazyOk
      ? 'neither is loaded'
      : [
          captcha.length ? `ALTCHA loaded (${captcha.join(', ')})` : '',
          otherPages.length ? `other pages loaded: ${otherPages.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; '),
    reference: '',
    ratio: '',
    budget: 'not loaded',
    status: status(lazyOk),
  });

  return {
    rows,
    findings: [
      ...measured.map(({ label, scripts }) => `1: ${label}: ${listed(scripts)}`),
      `1: reference: ${listed(reference)}`,
      ...languageFindings,
    ],
    details: {
      referenceGzipBytes: referenceGzip,
      reference,
      languages: inLanguages,
      pages: measured.map(({ path, budget, scripts }) => ({
        path,
        budget,
        gzipBytes: sum(scripts),
        ratio: sum(scripts) / referenceGzip,
        scripts,
      })),
    },
  };
}
