/**
 * The load generator's process: autocannon's programmatic API, run on the core taskset gave this
 * process (see load-generator.ts, which starts it and sends it one load at a time over IPC).
 */
import autocannon, { type AutocannonRequest } from 'autocannon';
import { randomClientAddress } from './accounts';
import type { LoadRequest, LoadResult, WorkerMessage } from './load-generator';
import { maximum, percentile } from './stats';

async function runLoad(load: LoadRequest): Promise<LoadResult> {
  const request: AutocannonRequest = {
    method: load.method,
    path: load.path,
    headers: load.headers,
    ...(load.body === undefined ? {} : { body: load.body }),
  };
  const { paths, randomForwardedFor } = load;
  if (randomForwardedFor || paths?.length) {
    let next = 0;
    request.setupRequest = (req) => ({
      ...req,
      // The paths in turn across all connections, so every one is asked as often as the others.
      ...(paths?.length ? { path: paths[next++ % paths.length] as string } : {}),
      // A fresh client address per request, so per-address rate limits never kick in.
      ...(randomForwardedFor
        ? { headers: { ...req.headers, 'x-forwarded-for': randomClientAddress() } }
        : {}),
    });
  }
  const instance = autocannon({
    url: load.url,
    connections: load.connections,
    duration: load.durationSeconds,
    requests: [request],
  });
  const times: number[] = [];
  if (load.exactLatencies) {
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
    });
  }
  const result = await instance;
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
  );
  return {
    ok: result['2xx'],
    requestsPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statuses,
    durationSeconds: result.duration,
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

process.on('message', async (message: WorkerMessage) => {
  try {
    const result = await runLoad(message.load);
    process.send?.({ id: message.id, result });
  } catch (error) {
    process.send?.({ id: message.id, error: (error as Error).message });
  }
});
process.on('disconnect', () => process.exit(0));
