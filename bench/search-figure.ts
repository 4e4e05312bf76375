/**
 * Row 13: tutor search p95 with 10,000 demo tutors, on the embedded store and on PostgreSQL,
 * reported (no budget of its own; row 3 bounds a single page read).
 *
 * The embedded store is filled by the project's own `npm run seed:demo -- --tutors 10000` before its
 * server opens it, and copied into PostgreSQL by `npm run move-to-postgres` (then analysed, as
 * autovacuum would soon), so both stores hold the same tutors from one seed. The embedded server
 * refreshes the planner's statistics itself a second after it starts, before the warm-up ends. Twelve searches students make (text, category, price, and sometimes a language,
 * a sort or page 2) are taken in turn at 4 connections, in interleaved rounds (embedded,
 * PostgreSQL...); each search is checked to find the same tutors on both stores.
 */
import { copyToPostgres, seedDemo } from './build';
import { exact, interleaved, medianCpu, problems, ROUNDS, runWithCpu } from './http-figures';
import type { LoadGenerator, LoadRequest } from './load-generator';
import { type BenchDatabase, createBenchDatabase } from './postgres';
import { cpuText } from './proc';
import { type Pinning, startTutorlane, type TutorlaneServer, tempDir } from './processes';
import type { FigureResult } from './report';
import { full } from './settings';
import { formatSpread, median } from './stats';

const TUTORS = full(10_000, 2_000);
const CONNECTIONS = 4;
const ROUND_SECONDS = full(2, 1);
const WARMUP_SECONDS = full(3, 2);

/**
 * What students type and tick on /tutors: text (one word, a prefix, two words), a category, a
 * price range, sometimes a language, a sort or page 2. Every one finds tutors among the demo data.
 */
const SEARCHES: Record<string, string>[] = [
  { q: 'algebra', category: 'Math & Science', minPrice: '20', maxPrice: '60' },
  { q: 'python', category: 'Programming', minPrice: '30', maxPrice: '80' },
  { q: 'spanish', category: 'Languages', maxPrice: '50' },
  { q: 'guitar', category: 'Arts & Design', minPrice: '25' },
  { q: 'calc', category: 'Math & Science', minPrice: '25', maxPrice: '75' },
  { q: 'piano lessons', category: 'Arts & Design', maxPrice: '70' },
  { q: 'data science', category: 'Programming', minPrice: '20', maxPrice: '70', language: 'Spanish' },
  { q: 'chemistry university', category: 'Math & Science', minPrice: '30', maxPrice: '100' },
  { q: 'french beginners', category: 'Languages', minPrice: '15', maxPrice: '60', sort: 'price_asc' },
  { q: 'photography', category: 'Arts & Design', minPrice: '15', maxPrice: '50', sort: 'price_desc' },
  { q: 'exam', category: 'Math & Science', minPrice: '40', maxPrice: '90', page: '2' },
  { q: 'javascript web', category: 'Programming', maxPrice: '60', sort: 'newest' },
];

/** The search's path as the search page writes it (URLSearchParams). */
const searchPaths = SEARCHES.map((search) => `/api/tutors?${new URLSearchParams(search)}`);

/** How many tutors each search finds on a server (and that each finds some). */
async function totals(server: TutorlaneServer): Promise<number[]> {
  const found: number[] = [];
  for (const path of searchPaths) {
    const res = await fetch(`${server.url}${path}`);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    const { total } = (await res.json()) as { total: number };
    if (total === 0) throw new Error(`GET ${path} found no tutor`);
    found.push(total);
  }
  return found;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The row's two stores, holding the same tutors, and how long their seed and copy took. */
export interface SearchStores {
  dataDir: string;
  pgDataDir: string;
  database: BenchDatabase;
  seedMs: number;
}

/** Seeds the embedded store and copies it to PostgreSQL; no server has either open yet. */
export async function seedSearchStores(say: (line: string) => void): Promise<SearchStores> {
  const database = await createBenchDatabase('search');
  if ('unavailable' in database) throw new Error(database.unavailable);
  say(`row 13: seed:demo --tutors ${TUTORS} on the embedded store, copied to PostgreSQL`);
  const seedStarted = performance.now();
  const dataDir = tempDir('search');
  await seedDemo({ dataDir }, TUTORS);
  // The same tutors on PostgreSQL, copied: one seed for both stores.
  const pgDataDir = tempDir('search-pg');
  await copyToPostgres(dataDir, database.url);
  say('row 13: seeded and copied');
  return { dataDir, pgDataDir, database, seedMs: performance.now() - seedStarted };
}

export async function measureSearchFigure(
  pinning: Pinning,
  load: LoadGenerator,
  stores: SearchStores,
): Promise<FigureResult> {
  const tutors = TUTORS.toLocaleString('en');
  const { dataDir, pgDataDir, database, seedMs } = stores;
  const embedded = await startTutorlane({ dataDir, core: pinning.serverCore });
  const postgres = await startTutorlane({
    dataDir: pgDataDir,
    core: pinning.serverCore,
    env: { DATABASE_URL: database.url },
  });
  try {
    const [embeddedTotals, postgresTotals] = [await totals(embedded), await totals(postgres)];
    const base = {
      method: 'GET',
      path: searchPaths[0] as string,
      paths: searchPaths,
      headers: {},
      connections: CONNECTIONS,
      durationSeconds: ROUND_SECONDS,
      exactLatencies: true,
    } satisfies Omit<LoadRequest, 'url'>;
    const embeddedLoad: LoadRequest = { ...base, url: embedded.url };
    const postgresLoad: LoadRequest = { ...base, url: postgres.url };
    await load.run({ ...embeddedLoad, durationSeconds: WARMUP_SECONDS });
    await load.run({ ...postgresLoad, durationSeconds: WARMUP_SECONDS });
    const [embeddedRounds = [], postgresRounds = []] = await interleaved([
      () => runWithCpu(load, embeddedLoad, embedded.child.pid),
      () => runWithCpu(load, postgresLoad, postgres.child.pid),
    ]);
    const differing = SEARCHES.flatMap((_, i) =>
      embeddedTotals[i] === postgresTotals[i]
        ? []
        : [`${searchPaths[i]}: ${embeddedTotals[i]} against ${postgresTotals[i]}`],
    );
    const perRound = (rounds: typeof embeddedRounds) =>
      `p50 ${exact(rounds, 'p50Ms').median.toFixed(1)}, p95 ${exact(rounds, 'p95Ms').median.toFixed(1)}, ` +
      `p99 ${exact(rounds, 'p99Ms').median.toFixed(1)} ms at ` +
      `${median(rounds.map((r) => r.requestsPerSecond)).toFixed(0)} req/s`;
    const row = (id: string, store: string, rounds: typeof embeddedRounds) => ({
      id,
      figure: `tutor search, ${tutors} demo tutors, ${store}: p95 at ${CONNECTIONS} conn.`,
      measured: formatSpread(exact(rounds, 'p95Ms'), ' ms', 1),
      reference: '',
      ratio: '',
      budget: 'reported',
      status: 'reported' as const,
    });
    return {
      rows: [row('13a', 'embedded', embeddedRounds), row('13b', 'PostgreSQL', postgresRounds)],
      findings: [
        `13: ${SEARCHES.length} searches in turn, each finding ${Math.min(...embeddedTotals)}-` +
          `${Math.max(...embeddedTotals)} tutors; ${ROUNDS} rounds of ${ROUND_SECONDS} s a store`,
        `13: embedded ${perRound(embeddedRounds)}; PostgreSQL ${perRound(postgresRounds)}`,
        `13: the server's CPU per search: embedded ${cpuText(medianCpu(embeddedRounds))}; PostgreSQL ` +
          `${cpuText(medianCpu(postgresRounds))} (PostgreSQL's own processes not counted)`,
        differing.length
          ? `13: the stores find different numbers of tutors: ${differing.join('; ')}`
          : '13: both stores find the same number of tutors for every search',
        `13: seed:demo --tutors ${TUTORS} and its copy to PostgreSQL took ${seconds(seedMs)} ` +
          '(beside the other seeds, before any row is measured)',
        ...problems('13 embedded', embeddedRounds),
        ...problems('13 PostgreSQL', postgresRounds),
      ],
      details: { searchPaths, embeddedTotals, postgresTotals, embeddedRounds, postgresRounds, seedMs },
    };
  } finally {
    await postgres.stop();
    await embedded.stop();
    await database.drop();
  }
}
