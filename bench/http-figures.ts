/**
 * Rows 3 and 4, HTTP under load on one store, as interleaved rounds (reference, subject,
 * reference, subject...) so that drift on a shared machine hits both sides alike:
 *   3  the session check (GET /api/session, a verified account signed in) and a tutor's page
 *      (GET /api/tutors/:id, twelve demo tutors in turn) at 10 connections, with the server on one
 *      core and the load generator on the other: p99 <= 25 ms; throughput beside a bare node:http
 *      server's on the same core, with no budget on that ratio;
 *   4  successful sign-ins at 8 connections with the server on every core, against a bare
 *      node:http server whose only work is one argon2id verify per request (a thread per core,
 *      verifying a hash the server stored): >= 0.70x.
 * The store is filled with `npm run seed:demo` (200 demo tutors) before its server starts.
 */
import { type BenchAccount, createAccount, postHeaders } from './accounts';
import type { Store } from './build';
import type { LoadGenerator, LoadRequest, LoadResult } from './load-generator';
import { storedPasswordHash } from './postgres';
import { type CpuPer, cpuPer, cpuText, readCpu, waitUntilIdle } from './proc';
import { type Pinning, startTutorlane } from './processes';
import { startBareServer, startBareVerifyingServer } from './reference-servers';
import { type FigureResult, type Row, skippedRow, status } from './report';
import { full } from './settings';
import { formatSpread, median, ratios, type Spread, spread } from './stats';

export const ROUNDS = full(5, 2);
const ROUND_SECONDS = full(3, 1);
const WARMUP_SECONDS = full(2, 1);
const CONNECTIONS = 10;
const P99_BUDGET_MS = 25;
const SIGN_IN_CONNECTIONS = 8;
const SIGN_IN_SECONDS = full(4, 2);
const SIGN_IN_BUDGET_RATIO = 0.7;

/** Runs the steps of a round in order, ROUNDS times; each step's results in a list of their own. */
export async function interleaved<T>(steps: (() => Promise<T>)[]): Promise<T[][]> {
  const results: T[][] = steps.map(() => []);
  for (let round = 0; round < ROUNDS; round++)
    for (const [index, step] of steps.entries()) results[index]?.push(await step());
  return results;
}

const rps = (value: Spread) => formatSpread(value, ' req/s', 0);
const ratioText = (value: Spread) => formatSpread(value, 'x', 2);

/** Runs a load and reads the server's CPU time around it: per answered request, in `cpu`. */
export async function runWithCpu(
  load: LoadGenerator,
  request: LoadRequest,
  pid: number | undefined,
): Promise<LoadResult & { cpu: CpuPer }> {
  const before = readCpu(pid);
  const result = await load.run(request);
  return { ...result, cpu: cpuPer(before, readCpu(pid), result.ok + result.non2xx) };
}

/** The median over rounds of the server's CPU per request. */
export function medianCpu(rounds: { cpu: CpuPer }[]): CpuPer {
  return {
    all: median(rounds.map((r) => r.cpu.all)),
    requestThread: median(rounds.map((r) => r.cpu.requestThread)),
  };
}

/** A load's problems (errors, statuses other than 2xx), for the findings. */
export function problems(label: string, results: LoadResult[]): string[] {
  return results
    .filter((r) => r.errors > 0 || r.non2xx > 0)
    .map(
      (r) => `${label}: ${r.errors} errors, ${r.non2xx} non-2xx responses (${JSON.stringify(r.statuses)})`,
    );
}

/** The p99 of every 2xx response of each round (to the microsecond, from the load generator). */
export function exact(results: LoadResult[], key: 'p50Ms' | 'p95Ms' | 'p99Ms'): Spread {
  return spread(
    results.map((r) => {
      if (!r.exact || r.exact.count === 0) throw new Error('a round had no 2xx response');
      return r.exact[key];
    }),
  );
}

function getLoad(url: string, paths: string[], headers: Record<string, string> = {}): LoadRequest {
  return {
    url,
    method: 'GET',
    path: paths[0] as string,
    paths,
    headers,
    connections: CONNECTIONS,
    durationSeconds: ROUND_SECONDS,
    exactLatencies: true,
  };
}

export interface HttpTarget {
  /** embedded or PostgreSQL, as the rows say it. */
  storeName: string;
  store: Store;
  ids: { session: string; tutorPage: string; signIn: string };
}

/**
 * Row 3's bare node:http rounds, measured beside the first store's and shown beside the second's
 * too: it touches no store and has no budget, so another 17 s of it would only repeat it.
 */
let bareMeasured: { rounds: LoadResult[]; beside: string } | undefined;

/** Rows 3 and 4 on one store. `storedHash` is row 4's reference hash, when another store gave one. */
export async function measureHttpFigures(
  target: HttpTarget,
  pinning: Pinning,
  load: LoadGenerator,
  storedHash?: string,
): Promise<FigureResult & { storedHash: string | undefined }> {
  const { storeName, store, ids } = target;
  const env: Record<string, string> = store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {};

  // ---- Row 3: the server and the bare server on one core, the load generator on the other.
  const server = await startTutorlane({ dataDir: store.dataDir, core: pinning.serverCore, env });
  let account: BenchAccount;
  let tutorPaths: string[];
  let rounds: LoadResult[][];
  // Measured beside another store's rows already: their ids, for this store's reference column.
  const bareBeside = bareMeasured?.beside;
  try {
    account = await createAccount({ url: server.url, dataDir: store.dataDir });
    const listing = (await (await fetch(`${server.url}/api/tutors?sort=newest`)).json()) as {
      tutors: { id: string }[];
    };
    tutorPaths = listing.tutors.map((tutor) => `/api/tutors/${encodeURIComponent(tutor.id)}`);
    if (tutorPaths.length === 0) throw new Error('the seeded store lists no tutor');
    const sessionLoad = getLoad(server.url, ['/api/session'], { cookie: account.cookie });
    const tutorLoad = getLoad(server.url, tutorPaths);
    for (const warm of [sessionLoad, tutorLoad]) await load.run({ ...warm, durationSeconds: WARMUP_SECONDS });
    if (bareMeasured) {
      rounds = [
        bareMeasured.rounds,
        ...(await interleaved([() => load.run(sessionLoad), () => load.run(tutorLoad)])),
      ];
    } else {
      const healthBody = await (await fetch(`${server.url}/api/health`)).text();
      const bare = await startBareServer({ body: healthBody, core: pinning.serverCore });
      try {
        // Only the bare server's throughput is reported: its every response need not be timed.
        const bareLoad = { ...getLoad(bare.url, ['/api/health']), exactLatencies: false };
        await load.run({ ...bareLoad, durationSeconds: WARMUP_SECONDS });
        rounds = await interleaved([
          () => load.run(bareLoad),
          () => load.run(sessionLoad),
          () => load.run(tutorLoad),
        ]);
        bareMeasured = { rounds: rounds[0] ?? [], beside: `${ids.session}-${ids.tutorPage}` };
      } finally {
        await bare.stop();
      }
    }
  } finally {
    await server.stop();
  }
  const [bareRounds = [], sessionRounds = [], tutorRounds = []] = rounds;

  const bareRps = bareRounds.map((r) => r.requestsPerSecond);
  const servingRow = (id: string, what: string, rounds: LoadResult[]): Row => {
    const p99 = exact(rounds, 'p99Ms');
    const subjectRps = rounds.map((r) => r.requestsPerSecond);
    return {
      id,
      figure: `${what}, ${storeName}: p99 at ${CONNECTIONS} conn.`,
      measured: `${formatSpread(p99, ' ms', 1)}; ${rps(spread(subjectRps))}`,
      reference: `bare node:http ${rps(spread(bareRps))}${bareBeside ? ` (beside ${bareBeside})` : ''}`,
      ratio: `${ratioText(spread(ratios(subjectRps, bareRps)))} (req/s)`,
      budget: `p99 <= ${P99_BUDGET_MS} ms`,
      status: status(p99.median <= P99_BUDGET_MS),
    };
  };
  const rows: Row[] = [
    servingRow(ids.session, 'session check GET /api/session', sessionRounds),
    servingRow(ids.tutorPage, "tutor's page GET /api/tutors/:id", tutorRounds),
  ];
  const latencies = (rounds: LoadResult[]) =>
    `p50 ${exact(rounds, 'p50Ms').median.toFixed(2)} ms, p95 ${exact(rounds, 'p95Ms').median.toFixed(2)} ms`;
  const findings = [
    `${ids.session} ${storeName}: session check ${latencies(sessionRounds)}; the account is verified, so ` +
      "the check is answered from Better Auth's signed cookie cache",
    `${ids.tutorPage} ${storeName}: tutor's page ${latencies(tutorRounds)}, ${tutorPaths.length} tutors in turn`,
    ...problems(`${ids.session} session check`, sessionRounds),
    ...problems(`${ids.tutorPage} tutor's page`, tutorRounds),
  ];

  // ---- Row 4: sign-ins with the server on every core, against the bare verifying server.
  const hash = store.databaseUrl ? await storedPasswordHash(store.databaseUrl, account.email) : storedHash;
  if (!hash) {
    rows.push(
      skippedRow(
        ids.signIn,
        `sign-in, ${storeName}`,
        `>= ${SIGN_IN_BUDGET_RATIO.toFixed(2)}x`,
        'the reference needs a hash the server stored, read from PostgreSQL, which this run lacks',
      ),
    );
    return { rows, findings, details: { bareRounds, sessionRounds, tutorRounds }, storedHash: hash };
  }
  const signInServer = await startTutorlane({ dataDir: store.dataDir, env });
  const verifier = await startBareVerifyingServer(hash).catch(async (error) => {
    await signInServer.stop();
    throw error;
  });
  let signInRounds: (LoadResult & { cpu: CpuPer })[] = [];
  let verifierRounds: (LoadResult & { cpu: CpuPer })[] = [];
  try {
    const signIn = signInLoad(signInServer.url, account);
    const verifierLoad = { ...signIn, url: verifier.url };
    await load.run({ ...signIn, durationSeconds: WARMUP_SECONDS });
    await load.run({ ...verifierLoad, durationSeconds: WARMUP_SECONDS });
    [verifierRounds = [], signInRounds = []] = await interleaved([
      async () => {
        // The round before leaves sign-ins queued for a hash: they finish first, not beside this one.
        await waitUntilIdle(signInServer.child.pid);
        return runWithCpu(load, verifierLoad, verifier.child.pid);
      },
      async () => {
        await waitUntilIdle(verifier.child.pid);
        return runWithCpu(load, signIn, signInServer.child.pid);
      },
    ]);
  } finally {
    await verifier.stop();
    await signInServer.stop();
  }

  const signInRps = signInRounds.map((r) => r.requestsPerSecond);
  const verifierRps = verifierRounds.map((r) => r.requestsPerSecond);
  const ratio = spread(ratios(signInRps, verifierRps));
  rows.push({
    id: ids.signIn,
    figure: `sign-in, ${storeName}: req/s at ${SIGN_IN_CONNECTIONS} conn., server on every core`,
    measured: formatSpread(spread(signInRps), ' req/s', 1),
    reference: `bare verifying server ${formatSpread(spread(verifierRps), ' req/s', 1)}`,
    ratio: ratioText(ratio),
    budget: `>= ${SIGN_IN_BUDGET_RATIO.toFixed(2)}x`,
    status: status(ratio.median >= SIGN_IN_BUDGET_RATIO),
  });
  findings.push(
    `${ids.signIn} ${storeName}: sign-in p50 ${median(signInRounds.map((r) => r.p50Ms))} ms, ` +
      `p99 ${median(signInRounds.map((r) => r.p99Ms))} ms; the bare verifying server's p50 ` +
      `${median(verifierRounds.map((r) => r.p50Ms))} ms (${hashParameters(hash)})`,
    `${ids.signIn} ${storeName}: the server's CPU per sign-in: ${cpuText(medianCpu(signInRounds))}, the ` +
      `hash threads and the database among the other threads; the bare verifying server's per verify ` +
      `${medianCpu(verifierRounds).all.toFixed(2)} ms`,
    ...problems(`${ids.signIn} sign-in`, signInRounds),
    ...problems(`${ids.signIn} bare verifying server`, verifierRounds),
  );
  return {
    rows,
    findings,
    details: { bareRounds, sessionRounds, tutorRounds, verifierRounds, signInRounds },
    storedHash: hash,
  };
}

/** A sign-in's request, each from a new client address so the per-address limit stays out of it. */
function signInLoad(url: string, account: BenchAccount): LoadRequest {
  return {
    url,
    method: 'POST',
    path: '/api/auth/sign-in/email',
    headers: postHeaders(url),
    body: JSON.stringify({ email: account.email, password: account.password }),
    connections: SIGN_IN_CONNECTIONS,
    durationSeconds: SIGN_IN_SECONDS,
    randomForwardedFor: true,
  };
}

/** "argon2id m=19456, t=2, p=1", read from a PHC string. */
function hashParameters(hash: string): string {
  const [, algorithm, , parameters] = hash.split('$');
  return `${algorithm} ${parameters?.replaceAll(',', ', ')}`;
}
