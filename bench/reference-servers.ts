/**
 * The reference for the HTTP and start-up figures: a bare node:http server started with `node -e`,
 * answering every request with the same JSON as Tutorlane's GET /api/health. It is what "as fast
 * as Node can answer" means on this machine at this moment.
 */
import { type Child, freePort, spawnChild, waitForFirst200 } from './processes';

/** The whole server, as `node -e` runs it: the body comes from BODY, the port from PORT. */
export const BARE_SERVER_SOURCE = `
const http = require('node:http');
const body = process.env.BODY;
http
  .createServer((req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    });
    res.end(body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
`;

export interface BareServer extends Child {
  url: string;
  /** Time from spawn to its first 200, in ms. */
  startupMs: number;
}

export async function startBareServer(options: {
  body: string;
  core?: number | undefined;
}): Promise<BareServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const server = spawnChild([process.execPath, '-e', BARE_SERVER_SOURCE], {
    core: options.core,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), BODY: options.body },
  });
  const startupMs = await waitForFirst200(`${url}/api/health`, startedAt, server.exited);
  return { ...server, url, startupMs };
}
