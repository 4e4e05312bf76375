/**
 * Bundles the server (src/server/main.ts) into dist/server with esbuild, so `npm start` runs plain
 * JavaScript: no TypeScript compiler at run time and one file to read instead of hundreds, which
 * is most of a restart's time. Packages with native code or WebAssembly, and those that
 * load files of their own at run time, stay in node_modules.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));

export async function buildServer() {
  rmSync(`${root}dist/server`, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'src/server/main.ts' },
    outdir: 'dist/server',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    minify: true,
    legalComments: 'linked',
    // (@zxcvbn-ts/language-common: loaded on first use, as its own ES module.)
    external: [
      '@electric-sql/pglite',
      'pg',
      'sharp',
      '@node-rs/argon2',
      'piscina',
      'pino',
      'pino-pretty',
      'nodemailer',
      'ws',
      '@zxcvbn-ts/language-common',
    ],
    // Some bundled CommonJS code calls require(); give the ES module bundle one.
    banner: {
      js: "import { createRequire as __tutorlaneRequire } from 'node:module'; const require = __tutorlaneRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  // The threads' modules are plain JavaScript that import only packages: they are copied beside
  // the bundle, where the modules that start the threads find them.
  for (const thread of ['db/pglite-thread.mjs', 'accounts/password-hash-thread.mjs']) {
    copyFileSync(`${root}src/server/${thread}`, `${root}dist/server/${thread.split('/')[1]}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
