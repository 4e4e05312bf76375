/**
 * The references the figures are measured against, each started with `node -e` in this package's
 * folder (so they load its packages), on a free port:
 * - a bare node:http server answering every request with the same JSON as Tutorlane's
 *   GET /api/health: what "as fast as Node can answer" means on this machine at this moment
 *   (rows 3 and 5);
 * - a bare node:http server whose only work is a sign-in's password hash (row 4);
 * - a bare `ws` echo server, for a WebSocket round trip (row 8).
 */
import { benchRoot, type Child, freePort, spawnChild, waitForFirst200 } from './processes';

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

/** Runs `source` with `node -e` and waits for its first 200 on `probePath`. */
async function startEvalServer(
  source: string,
  options: { env: Record<string, string>; core?: number | undefined; probePath: string },
): Promise<BareServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const server = spawnChild([process.execPath, '-e', source], {
    core: options.core,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), ...options.env },
    cwd: benchRoot,
  });
  const startupMs = await waitForFirst200(`${url}${options.probePath}`, startedAt, server.exited);
  return { ...server, url, startupMs };
}

export function startBareServer(options: { body: string; core?: number | undefined }): Promise<BareServer> {
  return startEvalServer(BARE_SERVER_SOURCE, {
    env: { BODY: options.body },
    core: options.core,
    probePath: '/api/health',
  });
}

/**
 * Row 4's reference: a bare node:http server whose only work is the password hash. Every POST
 * carries the sign-in's JSON body; its password is verified against STORED on one of a thread per
 * core (a verify at a time each, `verifySync`, as Tutorlane's hash threads run them), and the
 * answer is `{"ok":true}` or a 401. No framework, database, session or cookie: what is left of a
 * sign-in when everything but its hash costs nothing. STORED is a hash the server itself stored,
 * so the parameters are the server's; this package depends on the same @node-rs/argon2.
 */
export const BARE_VERIFYING_SERVER_SOURCE = `
const http = require('node:http');
const os = require('node:os');
const { Worker } = require('node:worker_threads');
const stored = process.env.STORED;
const THREAD = "const { parentPort } = require('node:worker_threads');" +
  "const { verifySync } = require('@node-rs/argon2');" +
  "parentPort.on('message', ({ stored, password }) => parentPort.postMessage(verifySync(stored, password)));";
const idle = [];
const waiting = [];
function start(thread, job) {
  thread.job = job;
  thread.postMessage({ stored, password: job.password });
}
for (let i = 0; i < os.availableParallelism(); i++) {
  const thread = new Worker(THREAD, { eval: true });
  thread.on('message', (ok) => {
    const done = thread.job;
    const next = waiting.shift();
    if (next) start(thread, next);
    else idle.push(thread);
    done.resolve(ok);
  });
  idle.push(thread);
}
const verify = (password) =>
  new Promise((resolve) => {
    const job = { password, resolve };
    const thread = idle.pop();
    if (thread) start(thread, job);
    else waiting.push(job);
  });
http
  .createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', async () => {
      let password = '';
      try {
        password = String(JSON.parse(body).password ?? '');
      } catch {}
      const ok = req.method !== 'POST' || (await verify(password));
      const answer = JSON.stringify({ ok });
      res.writeHead(ok ? 200 : 401, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(answer),
        'cache-control': 'no-store',
      });
      res.end(answer);
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
`;

/** Starts the bare verifying server on every core, verifying against `stored`. */
export function startBareVerifyingServer(stored: string): Promise<BareServer> {
  return startEvalServer(BARE_VERIFYING_SERVER_SOURCE, { env: { STORED: stored }, probePath: '/' });
}

/**
 * Row 8's reference: a bare `ws` server that sends every message straight back to its sender, and
 * answers 200 to a plain GET (how the start is noticed). What a WebSocket round trip costs on this
 * machine at this moment, without any work in between.
 */
export const BARE_ECHO_SERVER_SOURCE = `
const http = require('node:http');
const { WebSocketServer } = require('ws');
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
});
new WebSocketServer({ server }).on('connection', (socket) => {
  socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
});
server.listen(Number(process.env.PORT), '127.0.0.1');
`;

export function startBareEchoServer(): Promise<BareServer> {
  return startEvalServer(BARE_ECHO_SERVER_SOURCE, { env: {}, probePath: '/' });
}
