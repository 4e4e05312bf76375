/**
 * Figures 1-3 of issue #6, HTTP under load, each as interleaved rounds (reference, subject,
 * reference, subject...) so that drift on a shared machine hits both sides alike:
 *   1  GET /api/health req/s at 10 connections, against a bare node:http server;
 *   2  the session check (GET /api/session, signed in) req/s and p99, on the embedded store and
 *      on PostgreSQL, against the same bare server;
 *   3  sign-in req/s with the server on both cores, against what the password hash alone allows,
 *      on the embedded store and on PostgreSQL; on the embedded store, in the same rounds and for
 *      the findings, a bare node:http server that answers the same requests with the hash alone.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { hash, verify } from '@node-rs/argon2';
import { argon2Params } from '../src/server/accounts/password-hashing';
import { type BenchAccount, createAccount, PASSWORD, postHeaders } from './accounts';
import { twoThreadScaling, verifiesInTwoProcesses, verifiesOnTwoThreads } from './core-scaling';
import { type CpuReading, cpuPer, readCpu, waitUntilIdle } from './cpu-time';
import type { LoadGenerator, LoadRequest, LoadResult } from './load-generator';
import { createBenchDatabase } from './postgres';
import { type Pinning, startTutorlane, type TutorlaneServer, tempDir } from './processes';
import { type BareServer, startBareServer, startBareVerifyingServer } from './reference-servers';
import { type FigureResult, type Row, skippedRow, status } from './report';
import { formatSpread, median, percentile, ratios, type Spread, spread } from './stats';

const ROUNDS = 5;
const ROUND_SECONDS = 3;
const WARMUP_SECONDS = 2;
const CONNECTIONS = 10;
const SIGN_IN_CONNECTIONS = 8;
const SIGN_IN_SECONDS = 4;
const P99_BUDGET_MS = 20;

interface Rounds<R, S> {
  reference: R[];
  subject: S[];
}

/** Runs reference, subject, reference, subject... ROUNDS times. */
export async function interleaved<R, S>(
  reference: () => Promise<R>,
  subject: () => Promise<S>,
): Promise<Rounds<R, S>> {
  const rounds: Rounds<R, S> = { reference: [], subject: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.reference.push(await reference());
    rounds.subject.push(await subject());
  }
  return rounds;
}

const rps = (value: Spread) => formatSpread(value, ' req/s', 0);
const ratioText = (value: Spread) => formatSpread(value, 'x', 2);

/** A load's problems (errors, statuses other than 2xx), for the findings. */
export function problems(label: string, results: LoadResult[]): string[] {
  return results
    .filter((r) => r.errors > 0 || r.non2xx > 0)
    .map(
      (r) => `${label}: ${r.errors} errors, ${r.non2xx} non-2xx responses (${JSON.stringify(r.statuses)})`,
    );
}

function getLoad(url: string, path: string, headers: Record<string, string> = {}): LoadRequest {
  return { url, method: 'GET', path, headers, connections: CONNECTIONS, durationSeconds: ROUND_SECONDS };
}

async function warmUp(load: LoadGenerator, request: LoadRequest): Promise<void> {
  await load.run({ ...request, durationSeconds: WARMUP_SECONDS });
}

/** Figure 2 on one store: the session check against the bare server. */
async function sessionCheckFigure(options: {
  id: string;
  store: string;
  minRatio: number;
  server: TutorlaneServer;
  bare: BareServer;
  account: BenchAccount;
  load: LoadGenerator;
}): Promise<{ rows: Row[]; findings: string[]; details: unknown }> {
  const { server, bare, account, load } = options;
  const bareLoad = getLoad(bare.url, '/api/health');
  const sessionLoad = getLoad(server.url, '/api/session', { cookie: account.cookie });
  const healthLoad = getLoad(server.url, '/api/health');
  await warmUp(load, sessionLoad);
  const rounds = await interleaved(
    () => load.run(bareLoad),
    () => load.run(sessionLoad),
  );
  // For the findings: the same server's cheapest answer, to show what the session lookup adds.
  const health = await load.run(healthLoad);
  const subject = spread(rounds.subject.map((r) => r.requestsPerSecond));
  const reference = spread(rounds.reference.map((r) => r.requestsPerSecond));
  const ratio = spread(
    ratios(
      rounds.subject.map((r) => r.requestsPerSecond),
      rounds.reference.map((r) => r.requestsPerSecond),
    ),
  );
  const p99 = spread(rounds.subject.map((r) => r.p99Ms));
  const p50 = median(rounds.subject.map((r) => r.p50Ms));
  // Server time per request is 1 / throughput (the server is saturated on its one core).
  const lookupMs = 1000 / subject.median - 1000 / health.requestsPerSecond;
  const figure = `session check GET /api/session, ${options.store}`;
  return {
    rows: [
      {
        id: options.id,
        figure: `${figure}: req/s at ${CONNECTIONS} conn.`,
        measured: rps(subject),
        reference: `bare node:http ${rps(reference)}`,
        ratio: ratioText(ratio),
        budget: `>= ${options.minRatio.toFixed(2)}x`,
        status: status(ratio.median >= options.minRatio),
      },
      {
        id: options.id,
        figure: `${figure}: p99 latency at ${CONNECTIONS} conn.`,
        measured: formatSpread(p99, ' ms', 0),
        reference: '',
        ratio: '',
        budget: `<= ${P99_BUDGET_MS} ms`,
        status: status(p99.median <= P99_BUDGET_MS),
      },
    ],
    findings: [
      `${options.id} ${options.store}: session check p50 ${p50} ms, p99 ${p99.median} ms at ${CONNECTIONS} conn.; ` +
        `the same server answers GET /api/health at ${health.requestsPerSecond.toFixed(0)} req/s ` +
        `(p50 ${health.p50Ms} ms), so the session lookup adds about ${lookupMs.toFixed(2)} ms of server time per request`,
      ...problems(`${options.id} session check`, rounds.subject),
    ],
    details: { rounds, healthOnSameServer: health },
  };
}

/** The time of one argon2id verify, in ms: the median of five, one after another. */
async function oneVerifyMs(stored: string): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await verify(stored, PASSWORD);
    samples.push(performance.now() - started);
  }
  return median(samples);
}

/**
 * While a round of sign-ins runs: the time to fetch the stylesheet every page links, 20 times,
 * one every 100 ms. This shows whether a burst of sign-ins slows every page down: it did while
 * hashes filled libuv's thread pool, which reads the files (0010), and less once the hashes ran on
 * threads of their own below the request thread's priority (0011).
 */
async function stylesheetDuringSignIns(
  url: string,
  load: LoadGenerator,
  signInLoad: LoadRequest,
): Promise<{ stylesheet: string; latenciesMs: number[] }> {
  const html = await (await fetch(`${url}/`)).text();
  const stylesheet = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
  if (!stylesheet) throw new Error('the home page links no stylesheet');
  const signIns = load.run(signInLoad);
  await sleep(500);
  const latenciesMs: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    const response = await fetch(`${url}${stylesheet}`, { headers: { 'accept-encoding': 'br, gzip' } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${stylesheet} answered ${response.status}`);
    latenciesMs.push(performance.now() - started);
    await sleep(100);
  }
  await signIns;
  return { stylesheet, latenciesMs };
}

/**
 * What a sign-in costs in CPU time, the hash included, against what the budget leaves: at a ratio r
 * the two cores' 2 x 1000 ms a second buy r x 2 x 1000 / verify sign-ins, so each may cost at most
 * verify / r of CPU, whoever spends it (the server's threads, the load generator, the kernel).
 */
function cpuFinding(label: string, rounds: CpuReading[], verifyMs: number): string[] {
  const ms = (key: keyof CpuReading) => {
    const values = rounds.map((r) => r[key]).filter((v): v is number => v !== undefined);
    return values.length === rounds.length ? median(values) : undefined;
  };
  const machine = ms('machine');
  const server = ms('server');
  const requestThread = ms('requestThread');
  const loadGenerator = ms('loadGenerator');
  if (
    machine === undefined ||
    server === undefined ||
    requestThread === undefined ||
    loadGenerator === undefined
  )
    return [];
  const f = (n: number) => n.toFixed(1);
  // Readings taken a moment apart, in 10 ms clock ticks, agree to a few tenths of a ms per sign-in.
  const rest = machine - server - loadGenerator;
  return [
    `${label}: CPU per sign-in, both cores together, median of the rounds: ${f(machine)} ms, of which ` +
      `the server ${f(server)} (its request thread ${f(requestThread)}, its other threads, hashes, ` +
      `database and V8, ${f(server - requestThread)}), the load generator ${f(loadGenerator)}, the rest ` +
      `(kernel, PostgreSQL if used, this script) ${rest < 0.3 ? 'under 0.3' : f(rest)}; at 0.90x a sign-in ` +
      `may cost at most one verify / 0.90 = ${f(verifyMs / 0.9)} ms`,
  ];
}

/**
 * The bare verifying server against the reference and sign-in against it, round by round: the
 * first is the most any server can reach here, the second what Tutorlane adds to the hash.
 */
function bareVerifierFinding(
  label: string,
  bare: LoadResult[],
  signIns: LoadResult[],
  hashOnly: number[],
): string[] {
  if (bare.length === 0) return [];
  const bareRps = bare.map((r) => r.requestsPerSecond);
  const againstBare = ratios(
    signIns.map((r) => r.requestsPerSecond),
    bareRps,
  );
  return [
    `${label}: a bare node:http server whose only work is the verify (a thread per core, no ` +
      `framework, database or cookie), in the same rounds: ${rps(spread(bareRps))}, ` +
      `${ratioText(spread(ratios(bareRps, hashOnly)))} the reference; sign-in did ` +
      `${ratioText(spread(againstBare))} of what it did`,
  ];
}

/** Figure 3 on one store: sign-in req/s on both cores against 2 x 1000 / (one verify in ms). */
async function signInFigure(options: {
  id: string;
  store: string;
  server: TutorlaneServer;
  account: BenchAccount;
  load: LoadGenerator;
  stored: string;
  /**
   * The bare verifying server, verifying against `stored`: what any server could do here. When
   * given, each round also runs the same requests against it, for the findings.
   */
  bareVerifier?: BareServer;
}): Promise<{ row: Row; findings: string[]; details: unknown }> {
  const { server, account, load, stored, bareVerifier } = options;
  const signInLoad: LoadRequest = {
    url: server.url,
    method: 'POST',
    path: '/api/auth/sign-in/email',
    headers: { ...postHeaders(server.url), 'x-forwarded-for': '10.0.0.1' },
    body: JSON.stringify({ email: account.email, password: account.password }),
    connections: SIGN_IN_CONNECTIONS,
    durationSeconds: SIGN_IN_SECONDS,
    randomForwardedFor: true,
  };
  // The same requests to the bare verifying server, whose answer is the hash and nothing else.
  const bareLoad = bareVerifier && { ...signInLoad, url: bareVerifier.url };
  await warmUp(load, signInLoad);
  if (bareLoad) await warmUp(load, bareLoad);
  const cpu: CpuReading[] = [];
  const bareRounds: LoadResult[] = [];
  const signIn = await interleaved(
    async () => {
      // The round before leaves sign-ins queued for a hash: they finish first, not beside the verify.
      await waitUntilIdle(server.child.pid);
      return oneVerifyMs(stored);
    },
    async () => {
      if (bareLoad) {
        bareRounds.push(await load.run(bareLoad));
        await waitUntilIdle(bareVerifier?.child.pid);
      }
      const before = readCpu(server.child.pid, load.pid);
      const result = await load.run(signInLoad);
      cpu.push(cpuPer(before, readCpu(server.child.pid, load.pid), result.ok + result.non2xx));
      return result;
    },
  );
  const hashOnly = signIn.reference.map((ms) => (2 * 1000) / ms);
  const signInRatio = spread(
    ratios(
      signIn.subject.map((r) => r.requestsPerSecond),
      hashOnly,
    ),
  );
  const verifyMs = median(signIn.reference);
  const during = await stylesheetDuringSignIns(server.url, load, signInLoad);
  const ms = (p: number) => percentile(during.latenciesMs, p).toFixed(1);
  return {
    row: {
      id: options.id,
      figure: `sign-in, ${options.store}: req/s on both cores, ${SIGN_IN_CONNECTIONS} conn.`,
      measured: formatSpread(spread(signIn.subject.map((r) => r.requestsPerSecond)), ' req/s', 1),
      reference: `2 x 1000 / ${verifyMs.toFixed(1)} ms verify = ${median(hashOnly).toFixed(1)} req/s`,
      ratio: ratioText(signInRatio),
      budget: '>= 0.90x',
      status: status(signInRatio.median >= 0.9),
    },
    findings: [
      `${options.id} ${options.store}: one argon2id verify ${formatSpread(spread(signIn.reference), ' ms', 1)}; ` +
        `sign-in p50 ${median(signIn.subject.map((r) => r.p50Ms))} ms, ` +
        `p99 ${median(signIn.subject.map((r) => r.p99Ms))} ms at ${SIGN_IN_CONNECTIONS} connections`,
      `${options.id} ${options.store}: meanwhile ${during.stylesheet} (every page's stylesheet) took ` +
        `p50 ${ms(50)} ms, p90 ${ms(90)} ms, max ${ms(100)} ms (20 fetches during a round of sign-ins)`,
      ...bareVerifierFinding(`${options.id} ${options.store}`, bareRounds, signIn.subject, hashOnly),
      ...cpuFinding(`${options.id} ${options.store}`, cpu, verifyMs),
      ...problems(`${options.id} sign-in`, signIn.subject),
      ...problems(`${options.id} bare verifying server`, bareRounds),
    ],
    details: {
      ...signIn,
      hashOnlyRequestsPerSecond: hashOnly,
      bareVerifyingServer: bareRounds,
      cpuMsPerSignIn: cpu,
      stylesheetDuringSignIns: during,
    },
  };
}

export async function measureHttpFigures(pinning: Pinning, load: LoadGenerator): Promise<FigureResult> {
  const rows: Row[] = [];
  const findings: string[] = [];
  const details: Record<string, unknown> = {};
  const dataDir = tempDir('http');

  // ---- Figure 1: GET /api/health against the bare server, both on the server core.
  let server = await startTutorlane({ dataDir, core: pinning.serverCore });
  const healthBody = await (await fetch(`${server.url}/api/health`)).text();
  const bare = await startBareServer({ body: healthBody, core: pinning.serverCore });
  const account = await createAccount(server.url);

  const bareLoad = getLoad(bare.url, '/api/health');
  const healthLoad = getLoad(server.url, '/api/health');
  await warmUp(load, bareLoad);
  await warmUp(load, healthLoad);
  const health = await interleaved(
    () => load.run(bareLoad),
    () => load.run(healthLoad),
  );
  const healthRatio = spread(
    ratios(
      health.subject.map((r) => r.requestsPerSecond),
      health.reference.map((r) => r.requestsPerSecond),
    ),
  );
  rows.push({
    id: '1',
    figure: `GET /api/health: req/s at ${CONNECTIONS} conn.`,
    measured: rps(spread(health.subject.map((r) => r.requestsPerSecond))),
    reference: `bare node:http ${rps(spread(health.reference.map((r) => r.requestsPerSecond)))}`,
    ratio: ratioText(healthRatio),
    budget: '>= 0.75x',
    status: status(healthRatio.median >= 0.75),
  });
  findings.push(
    `1: /api/health p50 ${median(health.subject.map((r) => r.p50Ms))} ms, ` +
      `bare server p50 ${median(health.reference.map((r) => r.p50Ms))} ms, at ${CONNECTIONS} connections`,
    ...problems('1 health', health.subject),
  );
  details.health = health;

  // ---- Figure 2, embedded store.
  const embedded = await sessionCheckFigure({
    id: '2a',
    store: 'embedded',
    minRatio: 0.05,
    server,
    bare,
    account,
    load,
  });
  rows.push(...embedded.rows);
  findings.push(...embedded.findings);
  details.sessionEmbedded = embedded.details;

  // ---- Figure 2, PostgreSQL, in a database of its own.
  const database = await createBenchDatabase();
  if ('unavailable' in database) {
    rows.push(
      skippedRow('2b', 'session check GET /api/session, PostgreSQL', '>= 0.10x', database.unavailable),
    );
  } else {
    const pgServer = await startTutorlane({
      dataDir: tempDir('http-pg'),
      core: pinning.serverCore,
      env: { DATABASE_URL: database.url },
    });
    const pgAccount = await createAccount(pgServer.url);
    const postgres = await sessionCheckFigure({
      id: '2b',
      store: 'PostgreSQL',
      minRatio: 0.1,
      server: pgServer,
      bare,
      account: pgAccount,
      load,
    });
    rows.push(...postgres.rows);
    findings.push(...postgres.findings);
    details.sessionPostgres = postgres.details;
    await pgServer.stop();
    await database.drop();
  }
  await bare.stop();

  // ---- Figure 3: sign-in with the server on every core, against 2 x 1000 / (one verify in ms),
  // on the embedded store (3a) and on PostgreSQL (3b).
  await server.stop();
  const stored = await hash(PASSWORD, argon2Params);
  await oneVerifyMs(stored);
  // The hash alone on both cores, as the server runs it (two threads of one process) and in two
  // processes, in turns, each against 2 x 1000 / (one verify in ms) measured just before.
  const onThreads: number[] = [];
  const inProcesses: number[] = [];
  for (let round = 0; round < 3; round++) {
    const reference = 2000 / (await oneVerifyMs(stored));
    onThreads.push((await verifiesOnTwoThreads(stored, PASSWORD)) / reference);
    inProcesses.push((await verifiesInTwoProcesses(stored, PASSWORD)) / reference);
  }
  const cores = await twoThreadScaling();
  // On the embedded store only: the bare server's rounds add half a minute to the run.
  const bareVerifier = await startBareVerifyingServer(stored);
  server = await startTutorlane({ dataDir });
  const embeddedSignIn = await signInFigure({
    id: '3a',
    store: 'embedded',
    server,
    account,
    load,
    stored,
    bareVerifier,
  });
  rows.push(embeddedSignIn.row);
  findings.push(...embeddedSignIn.findings);
  details.signInEmbedded = embeddedSignIn.details;
  await server.stop();
  await bareVerifier.stop();

  const signInDatabase = await createBenchDatabase('signin');
  if ('unavailable' in signInDatabase) {
    rows.push(skippedRow('3b', 'sign-in, PostgreSQL', '>= 0.90x', signInDatabase.unavailable));
  } else {
    const pgServer = await startTutorlane({
      dataDir: tempDir('signin-pg'),
      env: { DATABASE_URL: signInDatabase.url },
    });
    const pgSignIn = await signInFigure({
      id: '3b',
      store: 'PostgreSQL',
      server: pgServer,
      account: await createAccount(pgServer.url),
      load,
      stored,
    });
    rows.push(pgSignIn.row);
    findings.push(...pgSignIn.findings);
    details.signInPostgres = pgSignIn.details;
    await pgServer.stop();
    await signInDatabase.drop();
  }
  findings.push(
    `3: the machine's own ceiling: argon2id alone, two verifies at a time with nothing else running, ` +
      `three rounds against the reference: on two threads of one process (as the server runs them) ` +
      `${formatSpread(spread(onThreads), 'x', 2)}, in two processes ${formatSpread(spread(inProcesses), 'x', 2)}`,
    `3: the machine's two cores: two threads of plain arithmetic (no Tutorlane, no argon2, no memory ` +
      `traffic) do ${formatSpread(cores, 'x', 2)} one thread's work, where two whole cores do 2.00x; ` +
      'the reference counts 2.00x',
  );
  details.hashAloneOnBothCores = { onThreads, inProcesses };
  details.twoThreadScaling = cores;

  return { rows, findings, details };
}
