/**
 * Figure 4 of issue #6: the JavaScript `/` loads before its first paint, gzipped, against a Vite
 * build of react + react-dom + react-router rendering two routes (written and built here, with
 * the installed packages). The initial set is the entry chunk and everything it imports
 * statically (what the HTML loads or modulepreloads), plus the home page's lazy chunk and its
 * static imports (the router loads it before rendering `/`). Also checked: the ALTCHA widget and
 * the other pages are not in that set.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { buildInMemory, type Chunk, clientConfig } from './client-build';
import { onCleanup, projectRoot } from './processes';
import { type FigureResult, status } from './report';

const BUDGET_RATIO = 1.15;
const HOME_PAGE = '/src/client/features/home/home-page.tsx';
const PAGE_MODULE = /\/src\/client\/features\/.+-page\.tsx$/;
const CAPTCHA_MODULE = /\/node_modules\/altcha(-lib)?\/|\/altcha-setup\.ts$/;

const gzipBytes = (code: string) => gzipSync(code).length;
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** The chunks loaded when `roots` load: each one and its static imports, transitively. */
function staticClosure(roots: Chunk[], byFile: Map<string, Chunk>): Chunk[] {
  const seen = new Map<string, Chunk>();
  const visit = (chunk: Chunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const file of chunk.imports) {
      const imported = byFile.get(file);
      if (imported) visit(imported);
    }
  };
  roots.forEach(visit);
  return [...seen.values()];
}

/** Where the initial bytes come from: npm packages and our own source folders, by rendered size. */
function contributors(chunks: Chunk[], totalGzip: number): string[] {
  const sizes = new Map<string, number>();
  for (const chunk of chunks) {
    for (const [id, module] of Object.entries(chunk.modules)) {
      const pkg = id.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1];
      const key = pkg ?? relative(projectRoot, id.replace(/^\0/, '')).replace(/\?.*$/, '');
      sizes.set(key, (sizes.get(key) ?? 0) + module.renderedLength);
    }
  }
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  return [...sizes.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([key, size]) => {
      const share = size / total;
      return `${key}: ${(share * 100).toFixed(1)}% (~${kB(share * totalGzip)} of the gzip)`;
    });
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
};

async function referenceBytes(): Promise<{ gzip: number; files: string[] }> {
  // Inside the project (.tmp/ is ignored by git) so that imports resolve to the installed packages.
  mkdirSync(join(projectRoot, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(projectRoot, '.tmp', 'bench-reference-app-'));
  const remove = onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(referenceFiles)) writeFileSync(join(dir, name), content);
  const { chunks } = await buildInMemory({
    root: dir,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { target: 'es2022', sourcemap: false },
  });
  await remove();
  return {
    gzip: chunks.reduce((sum, chunk) => sum + gzipBytes(chunk.code), 0),
    files: chunks.map((chunk) => chunk.fileName),
  };
}

export async function measureBundleFigure(): Promise<FigureResult> {
  const { chunks, assets } = await buildInMemory(clientConfig);
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entries = chunks.filter((chunk) => chunk.isEntry);
  const home = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(HOME_PAGE));
  const initial = staticClosure(home ? [...entries, home] : entries, byFile);

  // What index.html itself loads must be in the set too (it is, unless the graph reading is wrong).
  const html = assets.find((asset) => asset.fileName === 'index.html');
  const htmlSource = typeof html?.source === 'string' ? html.source : '';
  const htmlScripts = [
    ...htmlSource.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/?([^"]+\.js)"/g),
  ]
    .map((match) => match[1] as string)
    .filter((file) => !initial.some((chunk) => chunk.fileName === file));

  const initialGzip = initial.reduce((sum, chunk) => sum + gzipBytes(chunk.code), 0);
  const reference = await referenceBytes();
  const ratio = initialGzip / reference.gzip;

  const initialModules = initial.flatMap((chunk) => chunk.moduleIds);
  const captchaInInitial = initialModules.filter((id) => CAPTCHA_MODULE.test(id));
  const otherPagesInInitial = initialModules.filter((id) => PAGE_MODULE.test(id) && !id.endsWith(HOME_PAGE));
  const lazyOk = home !== undefined && captchaInInitial.length === 0 && otherPagesInInitial.length === 0;
  const lazyProblems = [
    home ? '' : 'no lazy home page chunk found',
    captchaInInitial.length ? `ALTCHA in the initial set (${captchaInInitial.length} modules)` : '',
    otherPagesInInitial.length
      ? `other pages in the initial set: ${otherPagesInInitial.map((id) => relative(projectRoot, id)).join(', ')}`
      : '',
  ].filter(Boolean);

  const perChunk = initial.map((chunk) => `${chunk.fileName} ${kB(gzipBytes(chunk.code))}`);
  return {
    rows: [
      {
        id: '4',
        figure: 'initial JS for / (gzip)',
        measured: `${kB(initialGzip)} in ${initial.length} files`,
        reference: `react+react-dom+react-router app ${kB(reference.gzip)}`,
        ratio: `${ratio.toFixed(2)}x`,
        budget: `<= ${BUDGET_RATIO.toFixed(2)}x`,
        status: status(ratio <= BUDGET_RATIO),
      },
      {
        id: '4',
        figure: 'captcha widget and other pages load only when needed',
        measured: lazyOk ? 'ALTCHA and other pages not in the initial set' : lazyProblems.join('; '),
        reference: '',
        ratio: '',
        budget: 'not in initial set',
        status: status(lazyOk),
      },
    ],
    findings: [
      `4: initial set: ${perChunk.join(', ')}`,
      ...(htmlScripts.length ? [`4: index.html also loads ${htmlScripts.join(', ')}, not counted`] : []),
      '4: what the initial JS is made of (share of rendered size before minification): ' +
        contributors(initial, initialGzip).join('; '),
    ],
    details: {
      initialGzipBytes: initialGzip,
      referenceGzipBytes: reference.gzip,
      ratio,
      initialChunks: initial.map((chunk) => ({
        file: chunk.fileName,
        gzipBytes: gzipBytes(chunk.code),
        modules: chunk.moduleIds.map((id) => relative(projectRoot, id)),
      })),
      lazyChunks: chunks
        .filter((chunk) => !initial.includes(chunk))
        .map((chunk) => ({ file: chunk.fileName, gzipBytes: gzipBytes(chunk.code) })),
      captchaInInitial,
      otherPagesInInitial,
      referenceFiles: reference.files,
    },
  };
}
