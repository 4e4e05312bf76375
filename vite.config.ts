import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

/** The browser app lives in src/client and builds to dist/client, which the server serves. */
export default defineConfig({
  root: 'src/client',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The server reads it to preload the current page's chunks (src/server/http/static-site.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        // Rolldown's own splitting: a module the pages share goes in a chunk with what only the
        // same pages share, so a page loads no code (zod, Temporal, linkify) that another page
        // needs. One chunk of every shared module was tried: each page then paid for all of them
        // (the sign-in page loaded 60 kB of other pages' libraries, docs/performance.md row 1).
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
