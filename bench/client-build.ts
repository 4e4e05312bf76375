/**
 * In-memory Vite builds for the benchmark, whose chunk graph the bundle figure reads. (dist/ itself
 * is built by scripts/ensure-built.mjs, the rule `npm start` follows.)
 */
import { join } from 'node:path';
import { build, type InlineConfig } from 'vite';
import { projectRoot } from './processes';

type BuildOutput = Extract<Awaited<ReturnType<typeof build>>, { output: unknown }>;
type OutputItem = BuildOutput['output'][number];
export type Chunk = Extract<OutputItem, { type: 'chunk' }>;
export type Asset = Extract<OutputItem, { type: 'asset' }>;

export const clientConfig: InlineConfig = {
  root: join(projectRoot, 'src/client'),
  configFile: join(projectRoot, 'vite.config.ts'),
  logLevel: 'warn',
};

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
