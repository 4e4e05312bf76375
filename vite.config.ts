import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { lingui } from '@lingui/vite-plugin';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';

/**
 * Writes .br and .gz beside every compressible built file, so the server sends them without
 * compressing anything per request: bytes over a phone's network are the first cost.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'tutorlane-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(outDir).filter((path) => /\.(js|css|html|svg|txt|json)$/.test(path))) {
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/**
 * How our code that several pages share but the app shell does not (form fields, messages, the
 * auth card, the tutor avatar...) is put into chunks. A visitor's first page is what a phone's
 * network feels most, so a module used by the pages a visitor lands on is grouped by which of
 * them use it: each landing page loads only shared code it uses, and never the code of signed-in
 * screens. The few small modules that the home page or nearly every landing page uses make one
 * chunk, so that no page pays a request for a few hundred bytes. One chunk of all shared code once
 * gave every page 21 kB of other pages' code (docs/performance.md, row 1). Code no landing page
 * uses is grouped into a few chunks rather than one per module, for the signed-in pages' requests.
 * Either way a group is split by the libraries it brings (zod, Temporal, linkify), so a page that
 * needs none of them loads none of them.
 * Code in the shell stays in the entry, and a page's own modules stay in the page's chunk.
 */
function sharedPageCode() {
  const heavyLibraries = [
    ['zod', /\/node_modules\/zod\//],
    ['time', /\/node_modules\/temporal-polyfill\//],
    ['links', /\/node_modules\/linkify-it\//],
  ] as const;
  // The pages a visitor lands on (features/<folder>/<name>-page.tsx), named by <name>.
  const landingPages = new Set(['home', 'tutor-search', 'login', 'contact', 'signup', 'tutor']);
  const landingPageOf = (id: string) => {
    const name = /\/src\/client\/features\/[^/]+\/([^/]+)-page\.tsx$/.exec(id)?.[1];
    return name && landingPages.has(name) ? name : undefined;
  };
  // Whether the entry reaches the module through static imports (it is then in the entry chunk),
  // and the landing pages that do.
  const reachedBy = (id: string, ctx: Rolldown.ChunkingContext) => {
    const seen = new Set<string>();
    const found = { entry: false, landingPages: new Set<string>() };
    const visit = (current: string) => {
      if (seen.has(current)) return;
      seen.add(current);
      const info = ctx.getModuleInfo(current);
      if (info?.isEntry) found.entry = true;
      const page = landingPageOf(current);
      if (page) found.landingPages.add(page);
      for (const importer of info?.importers ?? []) visit(importer);
    };
    visit(id);
    return found;
  };
  // The heavy libraries a module brings through its static imports.
  const librariesOf = (id: string, ctx: Rolldown.ChunkingContext): string[] => {
    const seen = new Set<string>();
    const found = new Set<string>();
    const visit = (current: string) => {
      if (seen.has(current)) return;
      seen.add(current);
      for (const [name, pattern] of heavyLibraries) if (pattern.test(current)) found.add(name);
      if (current.includes('/node_modules/')) return;
      for (const imported of ctx.getModuleInfo(current)?.importedIds ?? []) visit(imported);
    };
    visit(id);
    return heavyLibraries.map(([name]) => name).filter((name) => found.has(name));
  };
  return (id: string, ctx: Rolldown.ChunkingContext): string | null => {
    if (!id.includes('/src/') || id.includes('/node_modules/')) return null;
    if (ctx.getModuleInfo(id)?.dynamicImporters.length) return null; // a page of its own
    const { entry, landingPages: usedBy } = reachedBy(id, ctx);
    if (entry) return null;
    const common = usedBy.has('home') || usedBy.size >= landingPages.size - 1;
    const kit = common ? 'home-kit' : usedBy.size ? `${[...usedBy].sort().join('-')}-kit` : 'page-kit';
    return [kit, ...librariesOf(id, ctx)].join('-');
  };
}

/**
 * Splits each language's catalogue of the pages' texts by where the texts are used: the catalogue
 * a page imports (`src/locales/web/{language}.po`, compiled by Lingui's plugin) keeps the texts of
 * the app shell, and gives each page's texts (its module and what it imports, the shell's aside)
 * a chunk of their own, loaded with the page (`pages`, keyed like the page table). A module a page
 * loads on demand (a dynamic import: a dialog, the booking box's confirmation, the forms' checks)
 * is a part with texts of its own, keyed by its path from src/client, which its importer loads with
 * it (`withTexts` in src/client/lib/i18n.ts); the build fails when an importer does not name the
 * part whose texts it would miss. A whole catalogue is about 50 kB gzip, a page's share a few, the
 * same in every language, English too.
 * A text is found by its id: the macros leave it in the code as a string, as the texts of
 * src/shared marked for translation are their own ids. A string that only looks like an id brings
 * one text more, no harm. Texts that come as data rather than from a page's code (the subjects)
 * are with the shell's.
 */
function catalogueSplit(): Plugin {
  const prefix = 'virtual:page-texts/';
  const isCatalogue = (id: string) => /\/src\/locales\/web\/[^/]+\.po$/.test(id.split('?')[0] ?? '');
  const isPage = (id: string) => /\/src\/client\/features\/[^/]+\/[^/]+-page\.tsx$/.test(id);
  let root = '';
  // The strings in each module's code, by the shell and by page or part (keyed by the path from
  // src/client), and the modules that load each part: worked out once a build.
  let usage:
    | Promise<{ shell: Set<string>; pages: Map<string, Set<string>>; unnamed: Map<string, string[]> }>
    | undefined;
  // Each catalogue's every text, as Lingui's plugin compiled it.
  const compiled = new Map<string, Record<string, unknown>>();
  const stringsOf = (code: string) => {
    const found = new Set<string>();
    for (const [, double, single] of code.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'/g)) {
      try {
        found.add(JSON.parse(`"${double ?? (single ?? '').replace(/\\'/g, "'").replace(/"/g, '\\"')}"`));
      } catch {
        // Not a string JSON reads the same way: not a text's id.
      }
    }
    return found;
  };
  type Context = ThisParameterType<Extract<Plugin['load'], (...args: never[]) => unknown>>;
  async function findUsage(ctx: Context) {
    const modules = new Map<string, Promise<{ strings: Set<string>; imports: string[]; lazy: string[] }>>();
    const moduleOf = (id: string) => {
      let found = modules.get(id);
      if (!found) {
        found = ctx.load({ id, resolveDependencies: true }).then((info) => ({
          strings: stringsOf(info.code ?? ''),
          imports: [...info.importedIds],
          lazy: [...info.dynamicallyImportedIds],
        }));
        modules.set(id, found);
      }
      return found;
    };
    const ours = (id: string) => !(id.includes('/node_modules/') || id.startsWith('\0') || isCatalogue(id));
    // Pages and parts to read, each once, and who loads each part.
    const toRead = new Set<string>();
    const loaders = new Map<string, Set<string>>();
    // The strings of `from` and of every module it imports, up to the pages and parts it loads.
    const stringsFrom = async (from: string) => {
      const strings = new Set<string>();
      const seen = new Set<string>();
      const visit = async (id: string): Promise<void> => {
        if (seen.has(id) || !ours(id)) return;
        seen.add(id);
        const { strings: own, imports, lazy } = await moduleOf(id);
        for (const string of own) strings.add(string);
        for (const loaded of lazy.filter(ours)) {
          toRead.add(loaded);
          if (!isPage(loaded)) loaders.set(loaded, (loaders.get(loaded) ?? new Set()).add(id));
        }
        await Promise.all(imports.filter((imported) => !isPage(imported)).map(visit));
      };
      await visit(from);
      return strings;
    };
    const shell = await stringsFrom(resolve(root, 'main.tsx'));
    // The subjects and their categories reach every page as data (the catalogue in effect, a
    // tutor's subjects), each said in the page's language wherever it is shown.
    for (const string of (await moduleOf(resolve(root, '../shared/tutor-catalog.ts'))).strings)
      shell.add(string);
    const pages = new Map<string, Set<string>>();
    const read = new Set<string>();
    while (read.size < toRead.size) {
      for (const id of [...toRead].filter((id) => !read.has(id))) {
        read.add(id);
        pages.set(keyOf(id), await stringsFrom(id));
      }
    }
    // The modules that load a part without naming it, which would miss its texts.
    const unnamed = new Map<string, string[]>();
    for (const [part, importers] of loaders) {
      const key = keyOf(part);
      const blind = [];
      for (const importer of importers)
        if (!(await moduleOf(importer)).strings.has(key)) blind.push(keyOf(importer));
      if (blind.length) unnamed.set(key, blind);
    }
    return { shell, pages, unnamed };
  }
  const keyOf = (id: string) => relative(root, id);
  // `features/home/home-page.tsx` has `features/home/home-texts-es`, `../shared/form-checks.ts`
  // has `../shared/form-checks-texts-es`.
  const textsName = (key: string) => key.replace(/-page\.tsx$|\.tsx?$/, '');
  const messagesOf = (code: string): Record<string, unknown> =>
    new Function(code.replace(/export\s+const\s+messages\s*=/, 'return '))();
  const subset = (messages: Record<string, unknown>, strings: Set<string>, without = new Set<string>()) =>
    JSON.stringify(
      Object.fromEntries(Object.entries(messages).filter(([id]) => strings.has(id) && !without.has(id))),
    );
  return {
    name: 'tutorlane-catalogue-split',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    buildStart() {
      usage = undefined;
      compiled.clear();
    },
    resolveId(id) {
      return id.startsWith(prefix) ? `\0${id}` : null;
    },
    async load(id) {
      if (!id.startsWith(`\0${prefix}`)) return null;
      // `features/home/home-texts-es`: the texts of features/home/home-page.tsx in Spanish.
      const [, name, language] = /^(.*)-texts-([^-/]+)$/.exec(id.slice(prefix.length + 1)) ?? [];
      const catalogue = resolve(root, `../locales/web/${language}.po`);
      await this.load({ id: catalogue });
      usage ??= findUsage(this);
      const { shell, pages } = await usage;
      const key = [...pages.keys()].find((found) => textsName(found) === name);
      const messages = subset(compiled.get(catalogue) ?? {}, pages.get(key ?? '') ?? new Set(), shell);
      return `export const messages = JSON.parse(${JSON.stringify(messages)});`;
    },
    transform: {
      order: 'post',
      async handler(code, id) {
        if (!isCatalogue(id)) return null;
        const messages = messagesOf(code);
        compiled.set(id.split('?')[0] ?? id, messages);
        usage ??= findUsage(this);
        const { shell, pages, unnamed } = await usage;
        const language = /([^/]+)\.po$/.exec(id.split('?')[0] ?? '')?.[1];
        // A part with texts is loaded with them: its importer names it (withTexts).
        for (const [key, importers] of unnamed) {
          if (subset(messages, pages.get(key) ?? new Set(), shell) === '{}') continue;
          this.error(
            `${importers.join(', ')} loads ${key}, which has texts: load them with it, withTexts(import(…), '${key}') (src/client/lib/i18n.ts)`,
          );
        }
        // Every page, and the parts with texts in this catalogue (a part without loads none).
        const withTexts = [...pages].filter(
          ([key, strings]) => /-page\.tsx$/.test(key) || subset(messages, strings, shell) !== '{}',
        );
        const loaders = withTexts.map(([key]) => {
          const texts = `${prefix}${textsName(key)}-texts-${language}`;
          return `${JSON.stringify(key)}: () => import(${JSON.stringify(texts)})`;
        });
        return {
          code: `export const messages = JSON.parse(${JSON.stringify(subset(messages, shell))});
export const pages = {${loaders.join(',\n')}};`,
          map: null,
        };
      },
    },
  };
}

/**
 * Points the app's imports of `temporal-polyfill` at src/client/lib/temporal.ts, which uses the
 * browser's own Temporal where there is one and loads the polyfill only where there is none.
 */
function temporalWhereMissing(): Plugin {
  const shim = resolve(import.meta.dirname, 'src/client/lib/temporal.ts');
  return {
    name: 'tutorlane-temporal-where-missing',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      return source === 'temporal-polyfill' && importer !== shim ? shim : null;
    },
  };
}

/** The browser app lives in src/client and builds to dist/client, which the server serves. */
export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  // Lingui's own macro transform (no Babel) turns `<Trans>` and `t` into catalogue lookups, and its
  // catalogues (src/locales/web) into one chunk per language; a text missing from one fails the build.
  plugins: [
    react(),
    // Only each text's id stays in the code (`descriptorFields: 'id-only'`, Lingui's production
    // setup): English loads its compiled catalogue like every other language, so no page ships
    // Lingui's message compiler or a text it does not show (src/client/lib/i18n.ts).
    lingui({
      macroTransform: { macro: { descriptorFields: 'id-only' } },
      failOnMissing: true,
      failOnCompileError: true,
    }),
    catalogueSplit(),
    temporalWhereMissing(),
    tailwindcss(),
    precompress(),
  ],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The server reads it to preload the current page's chunks (src/server/http/static-site.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Only the modules named: their dependencies stay where Rolldown puts them (React in the entry).
          includeDependenciesRecursively: false,
          groups: [{ name: sharedPageCode(), debugName: 'page-kit', minShareCount: 2 }],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    strictPort: true,
    proxy: {
      '/api': { target: process.env.VITE_API_TARGET ?? 'http://127.0.0.1:3000', changeOrigin: false },
    },
  },
});
