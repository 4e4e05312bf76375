/**
 * Vite builds for the benchmark: dist/client (what the server serves, built when missing or older
 * than its sources, by the rule `npm start` follows) and in-memory builds whose chunk graph the
 * bundle figure reads.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, type InlineConfig } from 'vite';
import { projectRoot } from './processes';

type BuildOutput = Extract<Awaited<ReturnType<typeof build>>, { output: unknown }>;
type OutputItem = BuildOutput['output'][number];
export type Chunk = Extract<OutputItem, { type: 'chunk' }>;
export type Asset = Extract<OutputItem, { type: 'asset' }>;

const clientSources = ['src/client', 'src/shared', 'vite.config.ts', 'package-lock.json'];
export const clientConfig: InlineConfig = {
  root: join(projectRoot, 'src/client'),
  configFile: join(projectRoot, 'vite.config.ts'),
  logLevel: 'warn',
};

function newestMtime(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Builds dist/client when it is missing or a source is newer; says what it did. */
export async function ensureClientBuilt(): Promise<string> {
  const builtIndex = join(projectRoot, 'dist/client/index.html');
  const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
  const sourcesAt = Math.max(
    ...clientSources
      .map((source) => join(projectRoot, source))
      .filter(existsSync)
      .map(newestMtime),
  );
  if (builtAt >= sourcesAt) return 'dist/client is up to date';
  await build(clientConfig);
  return builtAt ? 'dist/client was older than its sources: rebuilt' : 'dist/client was missing: built';
}

/** Builds in memory (nothing written) and returns the chunks and assets. */
export async function buildInMemory(config: InlineConfig): Promise<{ chunks: Chunk[]; assets: Asset[] }> {
  const result = await build({ ...config, build: { ...config.build, write: false } });
  const outputs = (Array.isArray(result) ? result : [result]) as BuildOutput[];
  const items = outputs.flatMap((output) => output.output);
  return {
    chunks: items.filter((item): item is Chunk => item.type === 'chunk'),
    assets: items.filter((item): item is Asset => item.type === 'asset'),
  };
}
