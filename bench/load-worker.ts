/**
 * The load generator's process: autocannon's programmatic API, run on the core taskset gave this
 * process (see load-generator.ts, which starts it and sends it one load at a time over IPC).
 */
import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';
import { randomClientAddress } from './accounts';
import type { LoadRequest, LoadResult, WorkerMessage } from './load-generator';
import { maximum, percentile } from './stats';

interface Outcome {
  result: AutocannonResult;
  times: number[];
}

/** One autocannon run; `times` holds every 2xx response's time when the load asks for them. */
async function runInstance(
  load: LoadRequest,
  request: AutocannonRequest,
  connections: number,
  amount?: number,
) {
  const instance = autocannon({
    url: load.url,
    connections,
    ...(amount === undefined ? { duration: load.durationSeconds } : { amount }),
    requests: [request],
  });
  const times: number[] = [];
  if (load.exactLatencies) {
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
    });
  }
  return { result: await instance, times } satisfies Outcome;
}

/** What the figures read of one load: several runs side by side count as one. */
function summarizeOutcomes(load: LoadRequest, outcomes: Outcome[]): LoadResult {
  const times = outcomes.flatMap((outcome) => outcome.times);
  const sum = (pick: (result: AutocannonResult) => number) =>
    outcomes.reduce((total, { result }) => total + pick(result), 0);
  const statuses: Record<string, number> = {};
  for (const { result } of outcomes)
    for (const [status, { count }] of Object.entries(result.statusCodeStats))
      statuses[status] = (statuses[status] ?? 0) + count;
  const duration = Math.max(...outcomes.map(({ result }) => result.duration));
  const ok = sum((result) => result['2xx']);
  const [first] = outcomes as [Outcome];
  return {
    ok,
    requestsPerSecond: ok / duration,
    // autocannon's own whole-millisecond percentiles, of the first run when there are several.
    p50Ms: first.result.latency.p50,
    p99Ms: first.result.latency.p99,
    errors: sum((result) => result.errors + result.timeouts),
    non2xx: sum((result) => result.non2xx),
    statuses,
    durationSeconds: duration,
    ...(load.exactLatencies
      ? {
          exact: {
            count: times.length,
            p50Ms: percentile(times, 50),
            p95Ms: percentile(times, 95),
            p99Ms: percentile(times, 99),
            maxMs: maximum(times),
          },
        }
      : {}),
  };
}

async function runLoad(load: LoadRequest): Promise<LoadResult> {
  const request: AutocannonRequest = {
    method: load.method,
    path: load.path,
    headers: load.headers,
    ...(load.body === undefined ? {} : { body: load.body }),
  };
  const { paths, randomForwardedFor, perConnection, perRequest } = load;
  // A fresh client address per request, so per-address rate limits never kick in.
  const forwarded = (headers: Record<string, string> | undefined) =>
    randomForwardedFor ? { ...headers, 'x-forwarded-for': randomClientAddress() } : headers;
  if (perConnection?.length) {
    // A run of one connection for each: autocannon gives its requests no way to tell their
    // connections apart, so each connection's person and bodies are its own run's.
    const each = Math.floor((load.amount ?? perConnection.length) / perConnection.length);
    const outcomes = await Promise.all(
      perConnection.map((connection) => {
        let sent = 0;
        const own: AutocannonRequest = {
          ...request,
          headers: { ...load.headers, ...connection.headers },
          setupRequest: (req) => ({
            ...req,
            headers: forwarded(req.headers) ?? {},
            body: connection.bodies[sent++ % connection.bodies.length] as string,
          }),
        };
        return runInstance(load, own, 1, each);
      }),
    );
    return summarizeOutcomes(load, outcomes);
  }
  if (perRequest?.length) {
    let next = 0;
    request.setupRequest = (req) => {
      const own = perRequest[next++ % perRequest.length] as (typeof perRequest)[number];
      return {
        ...req,
        path: own.path,
        headers: forwarded({ ...req.headers, ...own.headers }) ?? {},
        ...(own.body === undefined ? {} : { body: own.body }),
      };
    };
    return summarizeOutcomes(load, [await runInstance(load, request, load.connections, perRequest.length)]);
  }
  if (randomForwardedFor || paths?.length) {
    let next = 0;
    request.setupRequest = (req) => ({
      ...req,
      // The paths in turn across all connections, so every one is asked as often as the others.
      ...(paths?.length ? { path: paths[next++ % paths.length] as string } : {}),
      ...(randomForwardedFor ? { headers: forwarded(req.headers) ?? {} } : {}),
    });
  }
  return summarizeOutcomes(load, [await runInstance(load, request, load.connections, load.amount)]);
}

process.on('message', async (message: WorkerMessage) => {
  try {
    const result = await runLoad(message.load);
    process.send?.({ id: message.id, result });
  } catch (error) {
    process.send?.({ id: message.id, error: (error as Error).message });
  }
});
process.on('disconnect', () => process.exit(0));
