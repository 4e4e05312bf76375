/**
 * Row 8: how long a message takes from its send (POST /api/conversations/:id/messages) to the other
 * person's live channel (the WebSocket at /api/live), with every account's channel open, at a
 * steady rate for a bounded time: p95 <= 50 ms, and none lost (accepted with a 201 but never
 * delivered). 8a on the embedded store, 8b on PostgreSQL, 8c on two servers sharing one PostgreSQL,
 * each student's channel (and sends) on one and their tutor's on the other, so that every delivery
 * crosses between the servers through LISTEN/NOTIFY. Beside it, in the same run, a bare `ws` echo
 * server's round trip with as many clients at the same rate; and (8d, on the embedded store) what
 * a connected channel costs the server in memory (its resident size with every channel open
 * against none, divided by the channels).
 *
 * The accounts come in pairs, a student and a tutor, each pair one conversation the student opens.
 * Message n goes to conversation n mod pairs, from the student on one pass over the pairs and from
 * the tutor on the next, so each person sends a few messages a minute: well under the 30 a minute
 * a user may send. Channels open as a browser opens them: the session cookie, and the app's origin.
 * Every client lives in this process, which keeps one clock for sends and deliveries.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { type BenchAccount, callApi, mapLimited } from './accounts';
import { type CpuReading, cpuPer, cpuText, readCpu, residentKb } from './proc';
import { startTutorlane } from './processes';
import { startBareEchoServer } from './reference-servers';
import { type FigureResult, status } from './report';
import { full } from './settings';
import { maximum, percentile } from './stats';

/** Messages a second, and for how long. */
export const RATE = full(200, 50);
const SECONDS = full(20, 5);
const BUDGET_P95_MS = 50;
/** How long after the last send a delivery may still arrive before its message counts as lost. */
const GRACE_MS = 5000;

interface Pair {
  student: BenchAccount;
  tutor: BenchAccount;
  conversationId: string;
}

interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function percentiles(values: number[]): Percentiles {
  return {
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    max: values.length ? maximum(values) : Number.NaN,
  };
}

const text = (p: Percentiles) => `${p.p50.toFixed(1)}/${p.p95.toFixed(1)}/${p.p99.toFixed(1)} ms`;

/** Opens a WebSocket and resolves once it is open (and, given `ready`, once that frame came). */
function connect(url: string, headers: Record<string, string>, ready?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    const timer = setTimeout(() => reject(new Error(`${url} did not open within 30 s`)), 30_000);
    const done = () => {
      clearTimeout(timer);
      resolve(socket);
    };
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`${url} answered HTTP ${response.statusCode}`)),
    );
    socket.once('error', reject);
    if (!ready) socket.once('open', done);
    else
      socket.on('message', function first(data) {
        if ((JSON.parse(String(data)) as { type: string }).type !== ready) return;
        socket.off('message', first);
        done();
      });
  });
}

async function closeAll(sockets: WebSocket[]): Promise<void> {
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === WebSocket.CLOSED) return resolve();
          socket.once('close', () => resolve());
          socket.close();
        }),
    ),
  );
}

/**
 * Sends `count` messages at RATE a second, each from the moment it is due: `send(n)` starts the
 * n-th and is not awaited, so a slow answer never holds back the next send.
 */
async function atRate(count: number, send: (n: number) => Promise<void>): Promise<void> {
  const started = performance.now();
  const sending: Promise<void>[] = [];
  for (let n = 0; n < count; n++) {
    const due = started + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    sending.push(send(n));
  }
  await Promise.all(sending);
}

/** The median of a few readings of the server's resident memory, in kB. */
async function settledResidentKb(pid: number | undefined): Promise<number> {
  await sleep(2000);
  const readings: number[] = [];
  for (let i = 0; i < 5; i++) {
    readings.push(residentKb(pid) ?? Number.NaN);
    await sleep(200);
  }
  return percentile(readings, 50);
}

/** The bare echo server's round trip, with `clients` connected, at RATE for SECONDS. */
async function echoRoundTrip(clients: number): Promise<{ rtt: Percentiles; lost: number }> {
  const echo = await startBareEchoServer();
  const url = echo.url.replace('http', 'ws');
  const sockets = await mapLimited(Array.from({ length: clients }), 50, () => connect(url, {}));
  const sentAt = new Map<number, number>();
  const rtts: number[] = [];
  for (const socket of sockets)
    socket.on('message', (data) => {
      const n = Number(String(data));
      const sent = sentAt.get(n);
      if (sent === undefined) return;
      rtts.push(performance.now() - sent);
      sentAt.delete(n);
    });
  await atRate(RATE * SECONDS, async (n) => {
    sentAt.set(n, performance.now());
    (sockets[n % sockets.length] as WebSocket).send(String(n));
  });
  const deadline = performance.now() + GRACE_MS;
  while (sentAt.size > 0 && performance.now() < deadline) await sleep(50);
  await closeAll(sockets);
  await echo.stop();
  return { rtt: percentiles(rtts), lost: sentAt.size };
}

/**
 * The echo reference by its number of clients, measured once a run: 8a to 8c offer it the same
 * clients at the same rate for the same time, and it touches no store, so another 20 s of it per
 * row would only repeat it.
 */
const echoes = new Map<number, Promise<{ rtt: Percentiles; lost: number }>>();
function sharedEchoRoundTrip(clients: number): Promise<{ rtt: Percentiles; lost: number }> {
  let echo = echoes.get(clients);
  if (!echo) {
    echo = echoRoundTrip(clients);
    // A failed reference is measured again by the next row.
    echo.catch(() => echoes.delete(clients));
    echoes.set(clients, echo);
  }
  return echo;
}

export interface MessagesTarget {
  id: '8a' | '8b' | '8c';
  storeName: string;
  /** One data folder per server; with a `databaseUrl` they share that PostgreSQL. */
  dataDirs: string[];
  databaseUrl?: string | undefined;
  authSecret?: string | undefined;
  students: BenchAccount[];
  tutors: BenchAccount[];
}

export async function measureMessagesFigure(target: MessagesTarget): Promise<FigureResult> {
  const { students, tutors } = target;
  const clients = students.length + tutors.length;
  const echo = await sharedEchoRoundTrip(clients);

  // The servers on every core, like real ones; this process holds every client.
  const servers = await Promise.all(
    target.dataDirs.map((dataDir) =>
      startTutorlane({
        dataDir,
        env: {
          ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
          ...(target.authSecret ? { AUTH_SECRET: target.authSecret } : {}),
        },
      }),
    ),
  );
  const server = servers[0] as (typeof servers)[number];
  // Students on the first server; their tutors on the last (the same one when there is one).
  const tutorServer = servers[servers.length - 1] as (typeof servers)[number];
  try {
    const pairs: Pair[] = await mapLimited(students, 8, async (student, i) => {
      const tutor = tutors[i] as BenchAccount;
      const opened = (await callApi(server.url, '/api/conversations', {
        method: 'POST',
        cookie: student.cookie,
        body: { tutorId: tutor.id, text: 'Hello! Do you have time for algebra next week?' },
      })) as { id: string };
      return { student, tutor, conversationId: opened.id };
    });

    // Memory with no channel open, then with every one open: row 8d, read on the embedded store only.
    const memory = target.id === '8a';
    const before = memory ? await settledResidentKb(server.child.pid) : Number.NaN;
    const accounts = pairs.flatMap((pair) => [pair.student, pair.tutor]);
    const serverOf = (account: BenchAccount) => (account.role === 'student' ? server : tutorServer);
    const sockets = await mapLimited(accounts, 50, (account) => {
      const home = serverOf(account);
      return connect(
        `${home.url.replace('http', 'ws')}/api/live`,
        { cookie: account.cookie, origin: home.url },
        'ready',
      );
    });
    const after = memory ? await settledResidentKb(server.child.pid) : Number.NaN;

    // Deliveries: the recipient's channel hears of message n ("bench n") from the other person.
    const sentAt = new Map<number, number>();
    const accepted = new Set<number>();
    const delivered = new Map<number, number>();
    for (const [index, socket] of sockets.entries()) {
      const me = (accounts[index] as BenchAccount).id;
      socket.on('message', (data) => {
        const now = performance.now();
        const frame = JSON.parse(String(data)) as {
          type: string;
          message?: { senderId: string; text: string };
        };
        if (frame.type !== 'message' || !frame.message || frame.message.senderId === me) return;
        const n = Number(/^bench (\d+)$/.exec(frame.message.text)?.[1] ?? Number.NaN);
        const sent = sentAt.get(n);
        if (sent !== undefined && !delivered.has(n)) delivered.set(n, now - sent);
      });
    }

    const failures = new Map<string, number>();
    const answerMs: number[] = [];
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const cpuBefore = servers.map((one) => readCpu(one.child.pid));
    const sendsStarted = performance.now();
    await atRate(RATE * SECONDS, async (n) => {
      const pair = pairs[n % pairs.length] as Pair;
      const sender = Math.floor(n / pairs.length) % 2 === 0 ? pair.student : pair.tutor;
      const home = serverOf(sender);
      const started = performance.now();
      sentAt.set(n, started);
      try {
        const res = await fetch(`${home.url}/api/conversations/${pair.conversationId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: home.url, cookie: sender.cookie },
          body: JSON.stringify({ text: `bench ${n}` }),
        });
        await res.arrayBuffer();
        answerMs.push(performance.now() - started);
        if (res.status === 201) accepted.add(n);
        else failures.set(String(res.status), (failures.get(String(res.status)) ?? 0) + 1);
      } catch (error) {
        const reason = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
        failures.set(reason, (failures.get(reason) ?? 0) + 1);
      }
    });
    lag.disable();
    const sendsMs = performance.now() - sendsStarted;
    const cpuPerSend = servers.map((one, i) =>
      cpuPer(cpuBefore[i] as CpuReading, readCpu(one.child.pid), accepted.size),
    );
    const deadline = performance.now() + GRACE_MS;
    while ([...accepted].some((n) => !delivered.has(n)) && performance.now() < deadline) await sleep(50);
    await closeAll(sockets);

    const latencies = [...accepted].flatMap((n) => (delivered.has(n) ? [delivered.get(n) as number] : []));
    const lost = [...accepted].filter((n) => !delivered.has(n)).length;
    const failed = [...failures.values()].reduce((sum, count) => sum + count, 0);
    const delivery = percentiles(latencies);
    const perClientKb = (after - before) / sockets.length;
    const met = delivery.p95 <= BUDGET_P95_MS && lost === 0 && failed === 0;
    const twoServers = servers.length > 1;
    const conditions =
      `${sockets.length} channels, ${RATE} msg/s for ${SECONDS} s, ${target.storeName}` +
      (twoServers ? `, ${servers.length} servers, every delivery through LISTEN/NOTIFY` : '');
    const sendRow = {
      id: target.id,
      figure: `message send to the other side's channel, ${conditions}: p50/p95/p99`,
      measured: `${text(delivery)}; ${lost} lost, ${failed} refused`,
      reference: `bare ws echo round trip ${text(echo.rtt)}`,
      ratio: '',
      budget: `p95 <= ${BUDGET_P95_MS} ms, none lost, none refused`,
      status: status(met),
    };
    const id = target.id;
    return {
      rows: [
        sendRow,
        ...(target.id !== '8a'
          ? []
          : [
              {
                id: '8d',
                figure: 'server memory per connected channel (resident, all open against none)',
                measured: `${perClientKb.toFixed(1)} kB`,
                reference: `${(before / 1024).toFixed(0)} MB with none, ${(after / 1024).toFixed(0)} MB with ${sockets.length}`,
                ratio: '',
                budget: 'none',
                status: 'reported' as const,
              },
            ]),
      ],
      findings: [
        `${id}: ${accepted.size} of ${RATE * SECONDS} sends accepted; the send's own answer (201) took ` +
          `${text(percentiles(answerMs))}; slowest delivery ${delivery.max.toFixed(1)} ms`,
        `${id}: sends were answered at ${((accepted.size * 1000) / sendsMs).toFixed(0)} a second on average ` +
          `(offered: ${RATE}); each server's CPU per accepted send: ${cpuPerSend.map(cpuText).join('; ')}` +
          (target.databaseUrl ? '' : '; the other threads are mostly the embedded database'),
        ...(twoServers
          ? [
              `${id}: every delivery went from the sender's server through PostgreSQL's NOTIFY to the ` +
                "recipient's server (100% of deliveries on the LISTEN/NOTIFY path); compare 8b, one server",
            ]
          : []),
        ...(failures.size
          ? [`${id}: refused or failed sends: ${JSON.stringify(Object.fromEntries(failures))}`]
          : []),
        `${id}: this process's event loop (every client and the sender) was late by up to ` +
          `${(lag.percentile(99) / 1e6).toFixed(1)} ms at p99 during the sends, which the figures include`,
        `${id}: the echo reference (measured once for rows 8a-8c, before 8a) lost ${echo.lost} of ${RATE * SECONDS}`,
        ...(id === '8a'
          ? [
              '8d: resident memory is read from /proc; garbage not yet collected moves it by a few MB either way',
            ]
          : []),
      ],
      details: {
        delivery,
        echo,
        lost,
        failures: Object.fromEntries(failures),
        ...(memory ? { residentKb: { before, after, clients: sockets.length } } : {}),
        answer: percentiles(answerMs),
        cpuPerSend,
      },
    };
  } finally {
    await Promise.all(servers.map((one) => one.stop()));
  }
}
