/**
 * The reference for the HTTP and start-up figures: a bare node:http server started with `node -e`,
 * answering every request with the same JSON as Tutorlane's GET /api/health. It is what "as fast
 * as Node can answer" means on this machine at this moment. Beside it, for figure 3's findings, a
 * bare server that answers a sign-in's request with nothing but its password hash.
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

/** Runs `source` with `node -e` (from the project root) and waits for its first 200 on `probePath`. */
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
 * Figure 3's best case: a bare node:http server whose only work is the password hash. Every POST
 * carries the sign-in's JSON body; its password is verified against STORED on one of a thread per
 * core (a verify at a time each, `verifySync`, as Tutorlane's hash threads run them), and the
 * answer is `{"ok":true}` or a 401. No framework, database, session or cookie: what is left of a
 * sign-in when everything but its hash costs nothing. Run from the project root, so it loads the
 * same @node-rs/argon2 as the server.
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
