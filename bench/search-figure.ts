/**
 * Row 6: tutor search p95 with 10,000 demo tutors on the embedded store, this build against the
 * build before the embedded store and the sessions moved back onto the libraries' public paths
 * (commit dbc9d92), on the same data in the same run.
 *
 * One data folder is filled by the project's own `npm run seed:demo -- --tutors 10000` and copied
 * before any server opens it; the older build is built from git in a temp folder with its own
 * `npm ci` and `npm run build`, and opens the copy (its migrations are a subset of today's, so it
 * finds nothing to migrate). Each server refreshes the planner's statistics itself a second after
 * it starts, before the warm-up ends. Twelve searches students make (text, category, price, and
 * sometimes a language, a sort or page 2) are taken in turn at 4 connections, in interleaved rounds
 * (older build, this build...); each search is checked to find the same tutors on both builds.
 * The budget: the median over the rounds of this build's p95 / the older build's <= 1.10.
 */
import { cpSync } from 'node:fs';
import { buildCommit, seedDemo } from './build';
import { exact, interleaved, medianCpu, problems, ROUNDS, runWithCpu } from './http-figures';
import type { LoadGenerator, LoadRequest } from './load-generator';
import { cpuText } from './proc';
import { type Pinning, startTutorlane, type TutorlaneServer, tempDir } from './processes';
import { type FigureResult, status } from './report';
import { full } from './settings';
import { formatSpread, median, ratios, spread } from './stats';

const OLDER_COMMIT = 'dbc9d92';
const TUTORS = full(10_000, 2_000);
const CONNECTIONS = 4;
const ROUND_SECONDS = full(2, 1);
const WARMUP_SECONDS = full(3, 2);
const BUDGET_RATIO = 1.1;

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

export async function measureSearchFigure(
  pinning: Pinning,
  load: LoadGenerator,
  say: (line: string) => void,
): Promise<FigureResult> {
  const tutors = TUTORS.toLocaleString('en');
  say(`row 6: building ${OLDER_COMMIT}, the build before the move`);
  const buildStarted = performance.now();
  const olderRoot = await buildCommit(OLDER_COMMIT, say);
  const buildMs = performance.now() - buildStarted;

  say(`row 6: seed:demo --tutors ${TUTORS}`);
  const seedStarted = performance.now();
  const dataDir = tempDir('search');
  await seedDemo({ dataDir }, TUTORS);
  const seedMs = performance.now() - seedStarted;
  const olderDataDir = tempDir('search-older');
  cpSync(dataDir, olderDataDir, { recursive: true });

  const current = await startTutorlane({ dataDir, core: pinning.serverCore });
  const older = await startTutorlane({ dataDir: olderDataDir, core: pinning.serverCore, appRoot: olderRoot });
  try {
    const [currentTotals, olderTotals] = [await totals(current), await totals(older)];
    const base = {
      method: 'GET',
      path: searchPaths[0] as string,
      paths: searchPaths,
      headers: {},
      connections: CONNECTIONS,
      durationSeconds: ROUND_SECONDS,
      exactLatencies: true,
    } satisfies Omit<LoadRequest, 'url'>;
    const currentLoad: LoadRequest = { ...base, url: current.url };
    const olderLoad: LoadRequest = { ...base, url: older.url };
    await load.run({ ...olderLoad, durationSeconds: WARMUP_SECONDS });
    await load.run({ ...currentLoad, durationSeconds: WARMUP_SECONDS });
    const [olderRounds = [], currentRounds = []] = await interleaved([
      () => runWithCpu(load, olderLoad, older.child.pid),
      () => runWithCpu(load, currentLoad, current.child.pid),
    ]);

    const currentP95 = exact(currentRounds, 'p95Ms');
    const olderP95 = exact(olderRounds, 'p95Ms');
    const ratio = spread(ratios(currentP95.samples, olderP95.samples));
    const differing = SEARCHES.flatMap((_, i) =>
      currentTotals[i] === olderTotals[i]
        ? []
        : [`${searchPaths[i]}: ${currentTotals[i]} against ${olderTotals[i]}`],
    );
    const perRound = (rounds: typeof currentRounds) =>
      `p50 ${exact(rounds, 'p50Ms').median.toFixed(1)}, p95 ${exact(rounds, 'p95Ms').median.toFixed(1)}, ` +
      `p99 ${exact(rounds, 'p99Ms').median.toFixed(1)} ms at ` +
      `${median(rounds.map((r) => r.requestsPerSecond)).toFixed(0)} req/s`;
    return {
      rows: [
        {
          id: '6',
          figure: `tutor search, ${tutors} demo tutors, embedded: p95 at ${CONNECTIONS} conn.`,
          measured: formatSpread(currentP95, ' ms', 1),
          reference: `${OLDER_COMMIT} build ${formatSpread(olderP95, ' ms', 1)}`,
          ratio: formatSpread(ratio, 'x', 2),
          budget: `<= ${BUDGET_RATIO.toFixed(2)}x`,
          status: status(ratio.median <= BUDGET_RATIO),
        },
      ],
      findings: [
        `6: ${SEARCHES.length} searches in turn, each finding ${Math.min(...currentTotals)}-` +
          `${Math.max(...currentTotals)} tutors; ${ROUNDS} rounds of ${ROUND_SECONDS} s a build`,
        `6: this build ${perRound(currentRounds)}; ${OLDER_COMMIT} ${perRound(olderRounds)}`,
        `6: the server's CPU per search: this build ${cpuText(medianCpu(currentRounds))}; ${OLDER_COMMIT} ` +
          `${cpuText(medianCpu(olderRounds))}; the other threads are mostly the embedded database`,
        differing.length
          ? `6: the builds find different numbers of tutors: ${differing.join('; ')}`
          : '6: both builds find the same number of tutors for every search',
        `6: building ${OLDER_COMMIT} (npm ci, npm run build) took ${seconds(buildMs)}; ` +
          `seed:demo --tutors ${TUTORS} ${seconds(seedMs)}`,
        ...problems('6 this build', currentRounds),
        ...problems(`6 ${OLDER_COMMIT}`, olderRounds),
      ],
      details: { searchPaths, currentTotals, olderTotals, currentRounds, olderRounds, buildMs, seedMs },
    };
  } finally {
    await older.stop();
    await current.stop();
  }
}
