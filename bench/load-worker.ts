/**
 * The load generator's process: autocannon's programmatic API, run on the core taskset gave this
 * process (see load-generator.ts, which starts it and sends it one load at a time over IPC).
 */
import autocannon, { type AutocannonRequest } from 'autocannon';
import { randomClientAddress } from './accounts';
import type { LoadRequest, LoadResult, WorkerMessage } from './load-generator';

async function runLoad(load: LoadRequest): Promise<LoadResult> {
  const request: AutocannonRequest = {
    method: load.method,
    path: load.path,
    headers: load.headers,
    ...(load.body === undefined ? {} : { body: load.body }),
  };
  if (load.randomForwardedFor) {
    // A fresh client address per request, so per-address rate limits never kick in.
    request.setupRequest = (req) => ({
      ...req,
      headers: { ...req.headers, 'x-forwarded-for': randomClientAddress() },
    });
  }
  const result = await autocannon({
    url: load.url,
    connections: load.connections,
    duration: load.durationSeconds,
    requests: [request],
  });
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
