/**
 * Figure 8, the search budget of issue #7: GET /api/tutors p95 with 10,000 published tutors, for a
 * search with text, category and price filters, beside a primary-key lookup (GET /api/tutors/:id)
 * on the same server in the same run, as interleaved rounds at 4 connections:
 *   8a  embedded store, p95 <= 80 ms;
 *   8b  PostgreSQL, p95 <= 30 ms.
 * The database is filled with the demo generator, opened the way the server opens it, before the
 * server starts on it; PostgreSQL then gets the VACUUM ANALYZE its autovacuum would soon run, and
 * the embedded server runs its own a second after it starts (PGlite has no autovacuum: see
 * src/server/maintenance/planner-statistics.ts), before the warm-up ends. The searches take a fixed list of realistic
 * combinations in turn, so no one query's cached pages flatter the figure, and each is checked to
 * find tutors. For the findings, the search's own SQL runs under EXPLAIN ANALYZE on the filled
 * database, before and after VACUUM ANALYZE.
 */
import { join } from 'node:path';
import { CompiledQuery, type KyselyPlugin, type QueryId, type RootOperationNode, sql } from 'kysely';
import { type Database, openDatabase } from '../src/server/db/database';
import { generateDemoTutors, insertDemoTutors } from '../src/server/tutors/demo-tutors';
import { searchTutors } from '../src/server/tutors/tutor-search';
import { type TutorSearchResult, tutorSearchSchema } from '../src/shared/tutor-schemas';
import { interleaved, problems } from './http-figures';
import type { LoadGenerator, LoadRequest, LoadResult } from './load-generator';
import { createBenchDatabase } from './postgres';
import { type Pinning, projectRoot, startTutorlane, type TutorlaneServer, tempDir } from './processes';
import { type FigureResult, skippedRow, status } from './report';
import { formatSpread, median, ratios, type Spread, spread } from './stats';

const TUTORS = 10_000;
const SEED = 2026;
const CONNECTIONS = 4;
/** Five interleaved rounds (see http-figures.ts): 10 s of searches and 10 s of lookups per store. */
const ROUND_SECONDS = 2;
const WARMUP_SECONDS = 2;
const EXPLAIN_RUNS = 3;
const BUDGET_MS = { embedded: 80, postgres: 30 } as const;

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

/** The query string as the search page writes it (URLSearchParams). */
const queryString = (search: Record<string, string>) => new URLSearchParams(search).toString();

type Store = keyof typeof BUDGET_MS;
const storeName = (store: Store) => (store === 'embedded' ? 'embedded' : 'PostgreSQL');

// ---------------------------------------------------------------------------------------------
// Filling the database, and the search's plans on it.

interface Target {
  dataDir: string;
  databaseUrl?: string | undefined;
}

/** Opens the database as the server does: it migrates, and a new data folder starts from the template. */
function open(target: Target): Promise<Database> {
  return openDatabase({
    databaseUrl: target.databaseUrl,
    dataDir: target.dataDir,
    templateFile: join(projectRoot, 'dist/db-template.tar.gz'),
  });
}

interface Fill {
  openMs: number;
  insertMs: number;
  /** PostgreSQL only: VACUUM ANALYZE after the insert. */
  vacuumMs: number;
  /** The plans right after the insert. */
  asInserted: SearchPlans;
  /** PostgreSQL only: the plans after VACUUM ANALYZE, the state its server is measured on. */
  vacuumed?: SearchPlans;
}

/**
 * Inserts the demo tutors and closes the database. On PostgreSQL it then runs VACUUM ANALYZE, which
 * a default server's autovacuum does within a minute of such an insert (the local one may have it
 * off), so the plan does not depend on when the run starts. The embedded store has no autovacuum: its
 * server refreshes the statistics itself once it has started, as it would after any such insert.
 */
async function fill(target: Target): Promise<Fill> {
  const tutors = generateDemoTutors(TUTORS, SEED);
  const started = performance.now();
  const database = await open(target);
  try {
    const opened = performance.now();
    await insertDemoTutors(database.db, tutors, { photos: false });
    const inserted = performance.now();
    const asInserted = await explainSearches(database);
    const times = { openMs: opened - started, insertMs: inserted - opened };
    if (database.kind !== 'postgres') return { ...times, vacuumMs: 0, asInserted };
    const vacuumStarted = performance.now();
    await sql`vacuum analyze`.execute(database.db);
    const vacuumMs = performance.now() - vacuumStarted;
    return { ...times, vacuumMs, asInserted, vacuumed: await explainSearches(database) };
  } finally {
    await database.close();
  }
}

/** For the findings, once the embedded server has stopped: the plans after VACUUM ANALYZE. */
async function vacuumAndExplain(target: Target): Promise<SearchPlans> {
  const database = await open(target);
  try {
    await sql`vacuum analyze`.execute(database.db);
    return await explainSearches(database);
  } finally {
    await database.close();
  }
}

/** The planner's row count for tutor_profiles (-1 until a VACUUM or ANALYZE has run). */
async function plannerRows(target: Target): Promise<number> {
  const database = await open(target);
  try {
    const { rows } = await sql<{ rows: number }>`
      select reltuples as rows from pg_class where relname = 'tutor_profiles'`.execute(database.db);
    return Number(rows[0]?.rows);
  } finally {
    await database.close();
  }
}

interface SearchPlans {
  /**
   * Database execution time of each search (all its statements), in SEARCHES order, each
   * query's the median of EXPLAIN_RUNS.
   */
  executionMs: number[];
  /** The full plans of the first search's statements, in order (the search itself is the last). */
  firstPlans: string[][];
}

/**
 * Runs each search through the product's own searchTutors, catching the SQL it sends, then runs
 * that SQL again under EXPLAIN (ANALYZE, BUFFERS).
 */
async function explainSearches(database: Database): Promise<SearchPlans> {
  const caught: { node: RootOperationNode; queryId: QueryId }[] = [];
  const catcher: KyselyPlugin = {
    transformQuery: (args) => {
      caught.push({ node: args.node, queryId: args.queryId });
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  const executionMs: number[] = [];
  let firstPlans: string[][] = [];
  for (const search of SEARCHES) {
    caught.length = 0;
    await searchTutors(database.db.withPlugin(catcher), tutorSearchSchema.parse(search));
    const plans: string[][] = [];
    let searchMs = 0;
    for (const { node, queryId } of caught) {
      const compiled = database.db.getExecutor().compileQuery(node, queryId);
      const explain = CompiledQuery.raw(`explain (analyze, buffers) ${compiled.sql}`, [
        ...compiled.parameters,
      ]);
      // One run is noisy: the median of a few, and the last one's plan.
      const times: number[] = [];
      let plan: string[] = [];
      for (let run = 0; run < EXPLAIN_RUNS; run++) {
        const result = await database.db.executeQuery<Record<string, string>>(explain);
        plan = result.rows.map((row) => String(Object.values(row)[0]));
        times.push(Number(/Execution Time: ([\d.]+) ms/.exec(plan.join('\n'))?.[1] ?? Number.NaN));
      }
      plans.push(plan);
      searchMs += median(times);
    }
    executionMs.push(searchMs);
    if (firstPlans.length === 0) firstPlans = plans;
  }
  return { executionMs, firstPlans };
}

/** A plan's telling lines, short: "Seq Scan on tutor_profiles tp: 465 rows in 2.19 ms". */
function keyLines(plan: string[]): string {
  return plan
    .map((line) => line.trim().replace(/^->\s*/, ''))
    .filter((line) => /Scan|Sort Method|Rows Removed by Filter|Execution Time/.test(line))
    .map((line) => {
      const node =
        /^(.*?)\s+\(cost=[^)]*\)\s+\(actual time=[\d.]+\.\.([\d.]+) rows=(\d+) loops=(\d+)\)$/.exec(line);
      if (!node) return line;
      const [, name, ms, rows, loops] = node;
      return `${name}: ${rows} rows${loops === '1' ? '' : ` x ${loops} loops`} in ${ms} ms`;
    })
    .join('; ');
}

// ---------------------------------------------------------------------------------------------
// The measurement.

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

interface Latencies {
  p50: Spread;
  p95: Spread;
  p99: Spread;
}

/** p50, p95 and p99 of every 2xx response, round by round. */
function latencies(results: LoadResult[]): Latencies {
  const of = (key: 'p50Ms' | 'p95Ms' | 'p99Ms') =>
    spread(
      results.map((r) => {
        if (!r.exact || r.exact.count === 0) throw new Error('a round had no 2xx response');
        return r.exact[key];
      }),
    );
  return { p50: of('p50Ms'), p95: of('p95Ms'), p99: of('p99Ms') };
}

const ms = (value: Spread) => formatSpread(value, ' ms', 1);
const percentiles = (l: Latencies) =>
  `${l.p50.median.toFixed(1)}/${l.p95.median.toFixed(1)}/${l.p99.median.toFixed(1)} ms`;
const p50p99 = (l: Latencies) => `p50 ${l.p50.median.toFixed(1)}, p99 ${l.p99.median.toFixed(1)}`;
const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(1)} s`;

/** Checks that every search finds tutors, then times searches and lookups in interleaved rounds. */
async function measureOnServer(server: TutorlaneServer, load: LoadGenerator) {
  // The lookups ask for the first tutor each search finds.
  const searchPaths = SEARCHES.map((search) => `/api/tutors?${queryString(search)}`);
  const totals: number[] = [];
  const lookupPaths: string[] = [];
  for (const path of searchPaths) {
    const result = await getJson<TutorSearchResult>(`${server.url}${path}`);
    const first = result.tutors[0];
    if (result.total === 0 || !first) throw new Error(`GET ${path} found no tutor`);
    totals.push(result.total);
    lookupPaths.push(`/api/tutors/${encodeURIComponent(first.id)}`);
  }
  for (const path of lookupPaths) await getJson(`${server.url}${path}`);

  const base = {
    url: server.url,
    method: 'GET',
    headers: {},
    connections: CONNECTIONS,
    durationSeconds: ROUND_SECONDS,
    exactLatencies: true,
  } satisfies Partial<LoadRequest>;
  const searchLoad: LoadRequest = { ...base, path: searchPaths[0] as string, paths: searchPaths };
  const lookupLoad: LoadRequest = { ...base, path: lookupPaths[0] as string, paths: lookupPaths };
  await load.run({ ...searchLoad, durationSeconds: WARMUP_SECONDS });
  await load.run({ ...lookupLoad, durationSeconds: WARMUP_SECONDS });
  const rounds = await interleaved(
    () => load.run(lookupLoad),
    () => load.run(searchLoad),
  );
  return { searchPaths, lookupPaths, totals, rounds };
}

/** Figure 8 on one store: fills it, starts the server on it, and measures. */
export async function measureSearchFigure(
  store: Store,
  pinning: Pinning,
  load: LoadGenerator,
): Promise<FigureResult> {
  const started = performance.now();
  const id = store === 'embedded' ? '8a' : '8b';
  const name = storeName(store);
  const budget = BUDGET_MS[store];
  const tutors = TUTORS.toLocaleString('en');
  const figure = `tutor search (q+category+price), ${tutors} tutors, ${name}: p95 at ${CONNECTIONS} conn.`;

  const target: Target = { dataDir: tempDir(`search-${store}`) };
  let dropDatabase = async () => {};
  if (store === 'postgres') {
    const database = await createBenchDatabase('search');
    if ('unavailable' in database) {
      return {
        rows: [skippedRow(id, figure, `<= ${budget} ms`, database.unavailable)],
        findings: [`${id}: skipped, ${database.unavailable}`],
        details: { skipped: database.unavailable },
      };
    }
    target.databaseUrl = database.url;
    dropDatabase = database.drop;
  }

  const filled = await fill(target);
  const server = await startTutorlane({
    dataDir: target.dataDir,
    core: pinning.serverCore,
    ...(target.databaseUrl ? { env: { DATABASE_URL: target.databaseUrl } } : {}),
  });
  let measured: Awaited<ReturnType<typeof measureOnServer>>;
  try {
    measured = await measureOnServer(server, load);
  } finally {
    await server.stop();
  }
  // Evidence that the embedded server refreshed its statistics itself while it ran.
  const refreshedByServer = store === 'embedded' ? await plannerRows(target) : undefined;
  const vacuumed = filled.vacuumed ?? (await vacuumAndExplain(target));
  await dropDatabase();

  const { rounds, totals } = measured;
  const search = latencies(rounds.subject);
  const lookup = latencies(rounds.reference);
  const ratio = spread(ratios(search.p95.samples, lookup.p95.samples));
  const searchRps = median(rounds.subject.map((r) => r.requestsPerSecond));
  const lookupRps = median(rounds.reference.map((r) => r.requestsPerSecond));
  const timed = rounds.subject.reduce((sum, r) => sum + r.ok, 0);
  // Both servers are measured after VACUUM ANALYZE: PostgreSQL's from the fill (as autovacuum),
  // the embedded server's its own. The first search's plan: the search statement, its last.
  const searchPlan = (plans: SearchPlans) => plans.firstPlans[plans.firstPlans.length - 1] ?? [];
  const tookMs = performance.now() - started;
  const fillMs = filled.openMs + filled.insertMs + filled.vacuumMs;
  const fillParts =
    `open and migrate ${seconds(filled.openMs)}, insert and publish ${seconds(filled.insertMs)}` +
    (store === 'postgres'
      ? `, VACUUM ANALYZE ${seconds(filled.vacuumMs)}, as autovacuum does soon after such an insert`
      : `; the server ran VACUUM ANALYZE itself once started (planner rows ${refreshedByServer} after it ran, ` +
        '-1 would mean never)');
  const throughputNote =
    store === 'embedded'
      ? "PGlite runs on the server's one core, so that is one search's server time, " +
        'and the rest of the latency is waiting behind the other connections'
      : "PostgreSQL's processes are not pinned: they share both cores with the server and the load generator";

  return {
    rows: [
      {
        id,
        figure,
        measured: `${ms(search.p95)}; ${p50p99(search)}`,
        reference: `GET /api/tutors/:id ${ms(lookup.p95)}; ${p50p99(lookup)}`,
        ratio: formatSpread(ratio, 'x', 2),
        budget: `<= ${budget} ms`,
        status: status(search.p95.median <= budget),
      },
    ],
    findings: [
      `${id} ${name}: filling ${tutors} demo tutors took ${seconds(fillMs)} (${fillParts}); ` +
        `the whole figure took ${seconds(tookMs)}`,
      `${id} ${name}: ${SEARCHES.length} searches in turn (each finds ${Math.min(...totals)}-${Math.max(...totals)} ` +
        `tutors), ${rounds.subject.length} rounds of ${ROUND_SECONDS} s at ${CONNECTIONS} connections (autocannon), ` +
        `${timed} searches timed; search p50/p95/p99 ${percentiles(search)} at ${searchRps.toFixed(0)} req/s, ` +
        `one every ${(1000 / searchRps).toFixed(1)} ms (${throughputNote}); ` +
        `lookup p50/p95/p99 ${percentiles(lookup)} at ${lookupRps.toFixed(0)} req/s`,
      `${id} ${name}: the database's own time per search (EXPLAIN ANALYZE execution of its statements, ` +
        `over the ${SEARCHES.length} searches): as the insert leaves it ` +
        `${ms(spread(filled.asInserted.executionMs))}, after VACUUM ANALYZE ${ms(spread(vacuumed.executionMs))}`,
      `${id} ${name}: plan of ${queryString(SEARCHES[0] ?? {})} after VACUUM ANALYZE: ${keyLines(searchPlan(vacuumed))}`,
      `${id} ${name}: the same as the insert leaves it: ${keyLines(searchPlan(filled.asInserted))}`,
      ...problems(`${id} search`, rounds.subject),
      ...problems(`${id} lookup`, rounds.reference),
    ],
    details: {
      fill: { openMs: filled.openMs, insertMs: filled.insertMs, vacuumMs: filled.vacuumMs },
      searches: measured.searchPaths.map((path, i) => ({
        path,
        total: totals[i],
        lookup: measured.lookupPaths[i],
        databaseMsAsInserted: filled.asInserted.executionMs[i],
        databaseMsVacuumed: vacuumed.executionMs[i],
      })),
      plansAsInserted: filled.asInserted.firstPlans,
      plansVacuumed: vacuumed.firstPlans,
      rounds,
      tookMs,
    },
  };
}
