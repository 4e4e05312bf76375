/**
 * Rows 10 and 11, money at speed, each against a tutor's page (GET /api/tutors/:id) on the same
 * server in interleaved rounds, the server on one core and the load generator on the other:
 *   10  bookings that hold their price (POST /api/lessons, the school taking payments): eight
 *       connections, each a different student with a balance booking their own tutor's free hours
 *       one after another: p95 <= 4x, no error, and the finance totals summing to zero after;
 *   11  a student's wallet with 2,000 transactions (GET /api/wallet) and the admin's finance totals
 *       over 200,000 ledger entries (GET /api/admin/finance): p95 <= 2x and <= 5x.
 * Row 10's balances come as a school gives them: each student asks for a transfer and an admin
 * confirms it through the API. Row 11's volume comes from `npm run seed:demo`'s options.
 */
import { type BenchAccount, callApi, mapLimited, postHeaders, signIn } from './accounts';
import { seedDemo } from './build';
import { exact, interleaved, medianCpu, problems, ROUNDS, runWithCpu } from './http-figures';
import type { LoadGenerator, LoadRequest, LoadResult } from './load-generator';
import { cpuText } from './proc';
import { type Pinning, startTutorlane, tempDir } from './processes';
import { type FigureResult, type Row, status } from './report';
import { full } from './settings';
import { formatSpread, median, ratios, spread } from './stats';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ROUND_SECONDS = full(2, 1);
const WARMUP_SECONDS = full(2, 1);

/** Row 10: connections, and bookings each makes a round (a student may book 120 an hour). */
export const BOOKING_CONNECTIONS = 8;
const BOOKINGS_A_ROUND = full(12, 5);
const BOOKING_BUDGET = 4;
/** What a student's transfer brings, in cents: the most one may ask for (5,000 units). */
const TOP_UP_CENTS = 500_000;

/** Row 11. */
const WALLET_TRANSACTIONS = full(2_000, 500);
const LEDGER_ENTRIES = full(200_000, 20_000);
const READ_CONNECTIONS = 4;
const WALLET_BUDGET = 2;
const FINANCE_BUDGET = 5;
/** The password of every demo account, as `npm run seed:demo` prints it. */
const DEMO_PASSWORD = 'tutorlane-demo';
const DEMO_ADMIN_EMAIL = 'admin@demo.tutorlane.test';

export interface Finance {
  totals: {
    studentBalances: { amountCents: number };
    held: { amountCents: number };
    packages: { amountCents: number };
    tutorPayable: { amountCents: number };
    schoolRevenue: { amountCents: number };
    clearing: { manual: { amountCents: number }; stripe: { amountCents: number } };
  };
}

/** The sum of every total the finance page shows: zero when the ledger balances. */
export function totalsSum(finance: Finance): number {
  const t = finance.totals;
  return [
    t.studentBalances,
    t.held,
    t.packages,
    t.tutorPayable,
    t.schoolRevenue,
    t.clearing.manual,
    t.clearing.stripe,
  ].reduce((sum, amount) => sum + amount.amountCents, 0);
}

/** The tutor's hours: every day, all day, in UTC, bookable at once and without notice. */
const allDay = {
  timeZone: 'UTC',
  weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '00:00', end: '24:00' })),
  overrides: [],
  lessonMinutes: [60],
  slotStepMinutes: 60,
  minimumNoticeHours: 0,
  bookingHorizonDays: 60,
  bufferMinutes: 0,
  instantBooking: true,
};

function readLoad(url: string, paths: string[], cookie?: string): LoadRequest {
  return {
    url,
    method: 'GET',
    path: paths[0] as string,
    paths,
    headers: cookie ? { cookie } : {},
    connections: READ_CONNECTIONS,
    durationSeconds: ROUND_SECONDS,
    exactLatencies: true,
  };
}

type Measured = LoadResult & { cpu: { all: number; requestThread: number } };

/** "p95 12.3 ms (…) against 4.5 ms (…): 2.73x (…)" as a row. */
export function ratioRow(
  id: string,
  figure: string,
  subject: Measured[],
  reference: Measured[],
  budget: number,
  extraOk = true,
): Row {
  const subjectP95 = exact(subject, 'p95Ms');
  const referenceP95 = exact(reference, 'p95Ms');
  const ratio = spread(ratios(subjectP95.samples, referenceP95.samples));
  return {
    id,
    figure,
    measured: formatSpread(subjectP95, ' ms', 1),
    reference: `GET /api/tutors/:id ${formatSpread(referenceP95, ' ms', 1)}`,
    ratio: formatSpread(ratio, 'x', 2),
    budget: `<= ${budget.toFixed(2)}x`,
    status: status(ratio.median <= budget && extraOk),
  };
}

const rate = (rounds: LoadResult[]) => median(rounds.map((r) => r.requestsPerSecond)).toFixed(0);

/**
 * Row 10 on one store: `students` book `tutors` (one each, in pairs), the admin confirms their
 * transfers. The store's server is started here with payments on.
 */
export async function measureBookingFigure(options: {
  id: string;
  storeName: string;
  dataDir: string;
  env: Record<string, string>;
  students: BenchAccount[];
  tutors: BenchAccount[];
  admin: { email: string; password: string };
  pinning: Pinning;
  load: LoadGenerator;
}): Promise<FigureResult> {
  const { id, storeName, students, tutors, pinning, load } = options;
  const server = await startTutorlane({
    dataDir: options.dataDir,
    core: pinning.serverCore,
    env: { ...options.env, PAYMENTS: 'on', COMMISSION_PERCENT: '15' },
  });
  try {
    const { url } = server;
    const adminCookie = await signIn(url, options.admin.email, options.admin.password);
    // Each student asks for a transfer, and the admin confirms it when it arrives.
    await mapLimited(students, 4, async (student) => {
      const { topUp } = (await callApi(url, '/api/wallet/top-ups', {
        method: 'POST',
        cookie: student.cookie,
        body: { amountCents: TOP_UP_CENTS, method: 'manual' },
      })) as { topUp: { id: string } };
      await callApi(url, `/api/admin/top-ups/${encodeURIComponent(topUp.id)}/confirm`, {
        method: 'POST',
        cookie: adminCookie,
        body: {},
      });
    });
    await mapLimited(tutors, 4, (tutor) =>
      callApi(url, '/api/availability', { method: 'PUT', cookie: tutor.cookie, body: allDay }),
    );

    // Each connection books its own tutor's hours in turn, from tomorrow on: nobody's overlap.
    const from = Math.ceil(Date.now() / DAY) * DAY + DAY;
    let hour = 0;
    const bookingLoad = (count: number): LoadRequest => {
      const hours = Array.from({ length: count }, () => hour++);
      return {
        url,
        method: 'POST',
        path: '/api/lessons',
        headers: postHeaders(url),
        connections: BOOKING_CONNECTIONS,
        durationSeconds: 0,
        amount: count * students.length,
        randomForwardedFor: true,
        exactLatencies: true,
        perConnection: students.map((student, index) => ({
          headers: { cookie: student.cookie },
          bodies: hours.map((h) =>
            JSON.stringify({
              tutorId: (tutors[index] as BenchAccount).id,
              start: new Date(from + h * HOUR).toISOString(),
              minutes: 60,
              subject: 'Algebra',
            }),
          ),
        })),
      };
    };
    const pageLoad: LoadRequest = {
      ...readLoad(
        url,
        tutors.map((tutor) => `/api/tutors/${encodeURIComponent(tutor.id)}`),
      ),
      connections: BOOKING_CONNECTIONS,
    };
    await load.run({ ...pageLoad, durationSeconds: WARMUP_SECONDS });
    await load.run(bookingLoad(2));
    const pid = server.child.pid;
    const [pageRounds = [], bookingRounds = []] = await interleaved([
      () => runWithCpu(load, pageLoad, pid),
      () => runWithCpu(load, bookingLoad(BOOKINGS_A_ROUND), pid),
    ]);
    const finance = (await callApi(url, '/api/admin/finance', { cookie: adminCookie })) as Finance;
    const sum = totalsSum(finance);
    const failures = bookingRounds.reduce((n, r) => n + r.errors + r.non2xx, 0);
    const booked = bookingRounds.reduce((n, r) => n + r.ok, 0);
    const row = ratioRow(
      id,
      `booking with the price held POST /api/lessons, ${storeName}: p95 at ${BOOKING_CONNECTIONS} students`,
      bookingRounds,
      pageRounds,
      BOOKING_BUDGET,
      failures === 0 && sum === 0,
    );
    row.measured += `; ${failures} errors; totals sum to ${sum}`;
    return {
      rows: [row],
      findings: [
        `${id} ${storeName}: ${booked} bookings in ${ROUNDS} rounds of ${BOOKINGS_A_ROUND} a student, ` +
          `${rate(bookingRounds)} a second, p50 ${exact(bookingRounds, 'p50Ms').median.toFixed(1)} ms; ` +
          `the tutor's page ${rate(pageRounds)} req/s; the finance totals after sum to ${sum} ` +
          `(held ${finance.totals.held.amountCents}, balances ${finance.totals.studentBalances.amountCents} cents)`,
        `${id} ${storeName}: the server's CPU per booking ${cpuText(medianCpu(bookingRounds))}; per ` +
          `tutor's page ${cpuText(medianCpu(pageRounds))}`,
        ...problems(`${id} bookings`, bookingRounds),
        ...problems(`${id} tutor's page`, pageRounds),
      ],
      details: { pageRounds, bookingRounds, finance },
    };
  } finally {
    await server.stop();
  }
}

/** Row 15: the demo parent's children and their lessons, and its budget against a tutor's page. */
const FAMILY_LESSONS = 500;
const DASHBOARD_BUDGET = 3;
const DEMO_PARENT_EMAIL = 'parent@demo.tutorlane.test';

/** Which of rows 11 and 15 a money-reads store is seeded and measured for. */
export interface MoneyReadsRows {
  money: boolean;
  family: boolean;
}

/** The seeded store of rows 11 and 15, who to sign in as, and how long the seed took. */
export interface MoneyReadsStore {
  dataDir: string;
  studentEmail: string;
  seedSeconds: number;
}

/**
 * The store of rows 11 and 15 (either or both, as asked): a demo store with a long wallet, a large
 * ledger and a busy family. Seeded before any server opens it.
 */
export async function seedMoneyReadsStore(
  progress: (line: string) => void,
  which: MoneyReadsRows,
): Promise<MoneyReadsStore> {
  const store = { dataDir: tempDir('money-reads') };
  progress(
    `${[which.money && '11', which.family && '15'].filter(Boolean).join(' and ')}: seeding 200 demo tutors` +
      (which.money ? `, ${WALLET_TRANSACTIONS} wallet transactions, ${LEDGER_ENTRIES} ledger entries` : '') +
      (which.family ? `, a parent's ${FAMILY_LESSONS} lessons` : '') +
      '…',
  );
  const seeded = performance.now();
  const printed = await seedDemo(store, 200, [
    ...(which.money
      ? ['--wallet-transactions', String(WALLET_TRANSACTIONS), '--ledger-entries', String(LEDGER_ENTRIES)]
      : []),
    ...(which.family ? ['--family-lessons', String(FAMILY_LESSONS)] : []),
  ]);
  const seedSeconds = (performance.now() - seeded) / 1000;
  const studentEmail = /a demo student\s+(\S+)/.exec(printed)?.[1];
  if (!studentEmail) throw new Error('seed:demo printed no demo student to sign in as');
  return { dataDir: store.dataDir, studentEmail, seedSeconds };
}

/**
 * Rows 11 and 15 (either or both, as `which` asks) on the store `seedMoneyReadsStore` made for
 * them: the wallet, the ledger and the family read by their owners. One server for both rows.
 */
export async function measureMoneyReadsFigure(
  pinning: Pinning,
  load: LoadGenerator,
  seeded: MoneyReadsStore,
  which: MoneyReadsRows,
): Promise<FigureResult> {
  const { studentEmail, seedSeconds } = seeded;
  const store = { dataDir: seeded.dataDir };
  const server = await startTutorlane({
    dataDir: store.dataDir,
    core: pinning.serverCore,
    env: { PAYMENTS: 'on' },
  });
  try {
    const { url } = server;
    const listing = (await callApi(url, '/api/tutors?sort=newest')) as { tutors: { id: string }[] };
    const tutorPaths = listing.tutors.map((tutor) => `/api/tutors/${encodeURIComponent(tutor.id)}`);
    const pageLoad = readLoad(url, tutorPaths);
    const subjects: { name: string; load: LoadRequest }[] = [];
    let finance: Finance | undefined;
    let children = 0;
    if (which.money) {
      const studentCookie = await signIn(url, studentEmail, DEMO_PASSWORD);
      const adminCookie = await signIn(url, DEMO_ADMIN_EMAIL, DEMO_PASSWORD);
      const wallet = (await callApi(url, '/api/wallet', { cookie: studentCookie })) as {
        transactions: unknown[];
        nextBefore: string | null;
      };
      if (wallet.transactions.length === 0 || wallet.nextBefore === null)
        throw new Error('the demo student’s wallet has no history past its first page');
      finance = (await callApi(url, '/api/admin/finance', { cookie: adminCookie })) as Finance;
      subjects.push({ name: 'wallet', load: readLoad(url, ['/api/wallet'], studentCookie) });
      subjects.push({ name: 'finance', load: readLoad(url, ['/api/admin/finance'], adminCookie) });
    }
    if (which.family) {
      const parentCookie = await signIn(url, DEMO_PARENT_EMAIL, DEMO_PASSWORD);
      const dashboard = (await callApi(url, '/api/dashboard', { cookie: parentCookie })) as {
        role: string;
        children?: unknown[];
      };
      children = dashboard.children?.length ?? 0;
      if (dashboard.role !== 'parent' || children !== 3)
        throw new Error(`the demo parent's dashboard shows ${children} children, not 3`);
      subjects.push({ name: 'dashboard', load: readLoad(url, ['/api/dashboard'], parentCookie) });
    }
    for (const warm of [pageLoad, ...subjects.map((subject) => subject.load)])
      await load.run({ ...warm, durationSeconds: WARMUP_SECONDS });
    const pid = server.child.pid;
    const [pageRounds = [], ...subjectRounds] = await interleaved([
      () => runWithCpu(load, pageLoad, pid),
      ...subjects.map((subject) => () => runWithCpu(load, subject.load, pid)),
    ]);
    const roundsOf = (name: string) => subjectRounds[subjects.findIndex((s) => s.name === name)] ?? [];
    const readText = (label: string, rounds: Measured[]) =>
      `${label} ${rate(rounds)} req/s, p50 ${exact(rounds, 'p50Ms').median.toFixed(1)} ms, CPU ` +
      `${cpuText(medianCpu(rounds))}`;
    const rows: Row[] = [];
    const findings = [
      `${[which.money && '11', which.family && '15'].filter(Boolean).join(', ')}: seeded in ${seedSeconds.toFixed(0)} s`,
    ];
    if (which.money && finance) {
      const walletRounds = roundsOf('wallet');
      const financeRounds = roundsOf('finance');
      rows.push(
        ratioRow(
          '11a',
          `a student's wallet GET /api/wallet, ${WALLET_TRANSACTIONS.toLocaleString('en')} transactions, embedded: p95 at ${READ_CONNECTIONS} conn.`,
          walletRounds,
          pageRounds,
          WALLET_BUDGET,
        ),
        ratioRow(
          '11b',
          `the finance totals GET /api/admin/finance, ${LEDGER_ENTRIES.toLocaleString('en')} entries, embedded: p95 at ${READ_CONNECTIONS} conn.`,
          financeRounds,
          pageRounds,
          FINANCE_BUDGET,
          totalsSum(finance) === 0,
        ),
      );
      findings.push(
        `11: the finance totals sum to ${totalsSum(finance)}`,
        `11: ${readText('wallet', walletRounds)}; ${readText('finance', financeRounds)}; ${readText("tutor's page", pageRounds)}`,
        ...problems('11 wallet', walletRounds),
        ...problems('11 finance', financeRounds),
      );
    }
    if (which.family) {
      const dashboardRounds = roundsOf('dashboard');
      rows.push(
        ratioRow(
          '15',
          `a parent's dashboard GET /api/dashboard, 3 children, ${FAMILY_LESSONS} lessons, embedded: p95 at ${READ_CONNECTIONS} conn.`,
          dashboardRounds,
          pageRounds,
          DASHBOARD_BUDGET,
        ),
      );
      findings.push(
        `15: ${readText("the parent's dashboard", dashboardRounds)}; ${readText("tutor's page", pageRounds)}`,
        ...problems('15 dashboard', dashboardRounds),
      );
    }
    findings.push(...problems("11/15 tutor's page", pageRounds));
    return {
      rows,
      findings,
      details: { pageRounds, subjects: subjects.map((s) => s.name), subjectRounds },
    };
  } finally {
    await server.stop();
  }
}
