/**
 * `npm run bench`: measures the budgets of docs/performance.md on the built app, each beside a
 * reference measured in the same run on the same machine, prints one table with every budget
 * marked, and writes the same, with every round, to bench/results.json. Progress goes to stderr,
 * the report to stdout. Whatever a figure starts or creates (servers, temp folders, databases) is
 * removed at the end, also on Ctrl-C.
 */
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import {
  type AccountRequest,
  type BenchAccount,
  createAccounts,
  mapLimited,
  publishTutor,
  signInAs,
} from './accounts';
import { copyToPostgres, ensureAppBuilt, grantAdmin, type Store, seedDemo } from './build';
import { measureBundleFigure } from './bundle-figure';
import { CLASS_STUDENTS, CLASSES, measureClassesFigure } from './classes-figure';
import { measureHttpFigures } from './http-figures';
import { measureJobsFigure, seedJobsStore } from './jobs-figure';
import { measureLessonsFigure } from './lessons-figure';
import { measureLighthouseFigure } from './lighthouse-figure';
import { type LoadGenerator, startLoadGenerator } from './load-generator';
import { measureMessagesFigure } from './messages-figure';
import {
  BOOKING_CONNECTIONS,
  type MoneyReadsStore,
  measureBookingFigure,
  measureMoneyReadsFigure,
  seedMoneyReadsStore,
} from './money-figure';
import { createBenchDatabase } from './postgres';
import { benchRoot, detectPinning, runCleanup, startTutorlane, tempDir } from './processes';
import {
  type BenchResults,
  type FigureResult,
  formatTable,
  type Row,
  skippedRow,
  summarize,
  writeResults,
} from './report';
import { measureRoomFigure } from './room-figure';
import { measureSearchFigure, type SearchStores, seedSearchStores } from './search-figure';
import { full, QUICK, rowsNote, wanted } from './settings';
import { measureStartupFigures } from './startup-figures';

/** Demo tutors for the pages, the session check and Lighthouse: what `npm run seed:demo` makes. */
const DEMO_TUTORS = 200;
/** Rows 7 and 8: pairs of a student and a tutor; row 8 opens a live channel for each of them. */
const PAIRS = full(500, 100);
/** Row 7's students, who book the tutor's lessons between them. */
const BOOKING_STUDENTS = 10;

const started = performance.now();
const startedAt = new Date().toISOString();
const progress = (message: string) =>
  process.stderr.write(
    `[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`,
  );

process.on('SIGINT', async () => {
  progress('interrupted: cleaning up');
  await runCleanup();
  process.exit(130);
});

const rows: Row[] = [];
const findings: Record<string, string[]> = {};
const details: Record<string, unknown> = {};
let failed = false;

/** Runs one figure; a figure that throws becomes a "skipped" row saying why, and the run goes on. */
async function figure(name: string, ids: string, measure: () => Promise<FigureResult>): Promise<void> {
  progress(`${name}…`);
  try {
    const result = await measure();
    rows.push(...result.rows);
    findings[name] = result.findings;
    details[name] = result.details;
  } catch (error) {
    failed = true;
    const message = (error as Error).message.split('\n')[0] ?? 'failed';
    rows.push(skippedRow(ids, name, '', `failed: ${message}`));
    details[name] = { error: (error as Error).stack };
    progress(`${name} failed: ${(error as Error).stack}`);
  }
}

const pinning = detectPinning();

/** Runs `measure` with a load generator of its own on the load core, closed after. */
async function withLoad<T>(measure: (load: LoadGenerator) => Promise<T>): Promise<T> {
  const load = startLoadGenerator(pinning.loadCore);
  try {
    return await measure(load);
  } finally {
    await load.close();
  }
}

/** The demo data folder rows 1, 2 and 3-4 share, seeded on first use. */
let demoStore: Promise<Store> | undefined;
function seededDemoStore(): Promise<Store> {
  demoStore ??= (async () => {
    const store = { dataDir: tempDir('demo') };
    await seedDemo(store, DEMO_TUTORS);
    return store;
  })();
  return demoStore;
}

/** The demo store copied into a PostgreSQL database for row 3c-4b, with the database's drop. */
let demoCopy: Promise<{ store: Store; drop: () => Promise<void> } | { unavailable: string }> | undefined;
function copiedDemoStore(): NonNullable<typeof demoCopy> {
  demoCopy ??= (async () => {
    const database = await createBenchDatabase('http');
    if ('unavailable' in database) return database;
    // The embedded demo store, copied: one seed for both stores.
    await copyToPostgres((await seededDemoStore()).dataDir, database.url);
    return { store: { dataDir: tempDir('http-pg'), databaseUrl: database.url }, drop: database.drop };
  })();
  return demoCopy;
}

/** Rows 3 and 4 on PostgreSQL, then on the embedded store (whose row 4 needs PostgreSQL's hash). */
async function httpFigures(): Promise<void> {
  let storedHash: string | undefined;
  await figure('http, PostgreSQL', '3c-4b', async () => {
    const database = await copiedDemoStore();
    if ('unavailable' in database) {
      return {
        rows: [
          skippedRow('3c', 'session check, PostgreSQL', 'p99 <= 25 ms', database.unavailable),
          skippedRow('3d', "tutor's page, PostgreSQL", 'p99 <= 25 ms', database.unavailable),
          skippedRow('4b', 'sign-in, PostgreSQL', '>= 0.70x', database.unavailable),
        ],
        findings: [],
        details: {},
      };
    }
    const { store } = database;
    const target = { storeName: 'PostgreSQL', store, ids: { session: '3c', tutorPage: '3d', signIn: '4b' } };
    const result = await withLoad((load) => measureHttpFigures(target, pinning, load));
    storedHash = result.storedHash;
    await database.drop();
    return result;
  });
  await figure('http, embedded', '3a-4a', async () => {
    const target = {
      storeName: 'embedded',
      store: await seededDemoStore(),
      ids: { session: '3a', tutorPage: '3b', signIn: '4a' },
    };
    return withLoad((load) => measureHttpFigures(target, pinning, load, storedHash));
  });
}

interface Community {
  dataDir: string;
  databaseUrl?: string | undefined;
  authSecret?: string | undefined;
  students: BenchAccount[];
  tutors: BenchAccount[];
  /** Row 8's pairs (none when row 8 is not measured): student i writes to tutor i. */
  pairs: { students: BenchAccount[]; tutors: BenchAccount[] };
  /** An admin of the store (`npm run admin -- grant`), who confirms row 10's transfers. */
  admin: BenchAccount;
}

// ---- The community (rows 7, 8, 10, 14): made once, on the embedded store, and copied to PostgreSQL.
/** Row 14's students follow row 10's; its tutors follow row 10's. */
const CLASS_STUDENTS_FROM = BOOKING_STUDENTS + BOOKING_CONNECTIONS;
const CLASS_TUTORS_FROM = 1 + BOOKING_CONNECTIONS;

/** Whether a row measured on the PostgreSQL community is asked for. */
const postgresCommunityWanted = () => wanted(8) || wanted(10) || wanted(14);

/**
 * Accounts for rows 7, 10 and 14, signed up once through the captcha on the embedded store and
 * verified, the tutors published, and an admin; row 8's pairs, demo people of `npm run seed:demo --
 * --pairs`, signed in through the API (a thousand sign-ups through the captcha took most of the
 * data's time, and a send is the same whoever signed up how); `copy` is the same community moved
 * into a PostgreSQL database (`npm run move-to-postgres`, null when none answers) before any row
 * changes it, which two servers may share. Row 7's students are the first ten, row 10's the next
 * eight, with tutors 2 to 9, row 14's the next 150, with the 20 tutors after.
 */
async function makeCommunity(): Promise<{ embedded: Community; copy: Promise<Community | null> }> {
  const dataDir = tempDir('community-embedded');
  // One demo tutor is the least seed:demo makes; the pairs are what row 8 needs.
  const seeded = wanted(8) ? await seedDemo({ dataDir }, 1, ['--pairs', String(PAIRS)]) : '';
  const demoPassword = /with the password "([^"]+)"/.exec(seeded)?.[1];
  if (wanted(8) && !demoPassword) throw new Error(`seed:demo printed no password:\n${seeded}`);
  const students = Math.max(
    BOOKING_STUDENTS + BOOKING_CONNECTIONS,
    wanted(14) ? CLASS_STUDENTS_FROM + CLASS_STUDENTS : 0,
  );
  const tutors = CLASS_TUTORS_FROM + (wanted(14) ? CLASSES : 0);
  progress(
    `signing up ${students} students and ${tutors} tutors through the captcha` +
      (wanted(8) ? `, signing in ${PAIRS} pairs of demo students and tutors…` : '…'),
  );
  const server = await startTutorlane({ dataDir, env: {} });
  let embedded: Community;
  try {
    const requests: AccountRequest[] = [
      ...Array.from({ length: students }, (_, i) => ({ role: 'student' as const, name: `Student ${i + 1}` })),
      ...Array.from({ length: tutors }, (_, i) => ({ role: 'tutor' as const, name: `Tutor ${i + 1}` })),
      { role: 'student' as const, name: 'Bench Admin' },
    ];
    const accounts = await createAccounts({ url: server.url, dataDir }, requests);
    const admin = accounts.pop() as BenchAccount;
    const tutorAccounts = accounts.filter((account) => account.role === 'tutor');
    await mapLimited(tutorAccounts, 8, (tutor) => publishTutor(server.url, tutor));
    const pairOf = (role: 'student' | 'tutor') =>
      mapLimited(Array.from({ length: wanted(8) ? PAIRS : 0 }), 8, (_, i) =>
        signInAs(server.url, `pair.${role}${i + 1}@demo.tutorlane.test`, demoPassword as string, role),
      );
    const pairs = { students: await pairOf('student'), tutors: await pairOf('tutor') };
    progress(`${accounts.length} accounts, ${pairs.students.length} pairs and an admin ready`);
    embedded = {
      dataDir,
      students: accounts.filter((account) => account.role === 'student'),
      tutors: tutorAccounts,
      pairs,
      admin,
    };
  } finally {
    await server.stop();
  }
  // Only on the store's own machine is the admin role given; the server is stopped by now.
  await grantAdmin({ dataDir }, embedded.admin.email);
  const copy = postgresCommunityWanted()
    ? (async (): Promise<Community | null> => {
        const database = await createBenchDatabase('community');
        if ('unavailable' in database) return null;
        const authSecret = await copyToPostgres(dataDir, database.url);
        progress('the community copied to PostgreSQL');
        // Every server on the database signs sessions with the secret the copied ones carry.
        return { ...embedded, dataDir: tempDir('community-postgres'), databaseUrl: database.url, authSecret };
      })()
    : Promise.resolve(null);
  // Copied before any row changes the embedded one.
  await copy;
  return { embedded, copy };
}

let community: ReturnType<typeof makeCommunity> | undefined;
async function sharedCommunity(kind: 'embedded' | 'postgres' = 'embedded'): Promise<Community | null> {
  community ??= makeCommunity();
  const made = await community;
  return kind === 'embedded' ? made.embedded : made.copy;
}
// ---- end of the community

/** Rows 8a-8c: message delivery on the embedded store, on PostgreSQL, on two servers sharing it. */
async function messagesFigures(): Promise<void> {
  await figure('messages, embedded', '8a', async () => {
    const { dataDir, pairs } = (await sharedCommunity()) as Community;
    return measureMessagesFigure({
      id: '8a',
      storeName: 'embedded',
      dataDirs: [dataDir],
      students: pairs.students,
      tutors: pairs.tutors,
    });
  });
  for (const id of ['8b', '8c'] as const)
    await figure(`messages, ${id === '8b' ? 'PostgreSQL' : 'two servers on PostgreSQL'}`, id, async () => {
      const community = await sharedCommunity('postgres');
      if (!community)
        return {
          rows: [
            skippedRow(
              id,
              'message delivery on PostgreSQL',
              'p95 <= 50 ms',
              'no PostgreSQL at 127.0.0.1:5432',
            ),
          ],
          findings: [],
          details: {},
        };
      const { dataDir, databaseUrl, authSecret, pairs } = community;
      return measureMessagesFigure({
        id,
        storeName: 'PostgreSQL',
        dataDirs: id === '8b' ? [dataDir] : [dataDir, tempDir('community-second-server')],
        databaseUrl,
        authSecret,
        students: pairs.students,
        tutors: pairs.tutors,
      });
    });
}

/** Row 10 on each store: bookings holding their price, at 8 connections of different students. */
async function bookingFigures(): Promise<void> {
  for (const kind of ['embedded', 'postgres'] as const) {
    const id = kind === 'embedded' ? '10a' : '10b';
    const storeName = kind === 'embedded' ? 'embedded' : 'PostgreSQL';
    await figure(`bookings, ${storeName}`, id, async () => {
      const community = await sharedCommunity(kind);
      if (!community)
        return {
          rows: [skippedRow(id, `booking, ${storeName}`, 'p95 <= 4x', 'no PostgreSQL at 127.0.0.1:5432')],
          findings: [],
          details: {},
        };
      const { dataDir, databaseUrl, authSecret, students, tutors, admin } = community;
      return withLoad((load) =>
        measureBookingFigure({
          id,
          storeName,
          dataDir,
          env: {
            ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
            ...(authSecret ? { AUTH_SECRET: authSecret } : {}),
          },
          students: students.slice(BOOKING_STUDENTS, BOOKING_STUDENTS + BOOKING_CONNECTIONS),
          tutors: tutors.slice(1, 1 + BOOKING_CONNECTIONS),
          admin: { email: admin.email, password: admin.password },
          pinning,
          load,
        }),
      );
    });
  }
}

// ---- Row 14 on each store: enrolling in group classes.
async function classFigures(): Promise<void> {
  for (const kind of ['embedded', 'postgres'] as const) {
    const id = kind === 'embedded' ? '14a' : '14b';
    const storeName = kind === 'embedded' ? 'embedded' : 'PostgreSQL';
    await figure(`group classes, ${storeName}`, id, async () => {
      const community = await sharedCommunity(kind);
      if (!community)
        return {
          rows: [skippedRow(id, `enrolling, ${storeName}`, 'p95 <= 4x', 'no PostgreSQL at 127.0.0.1:5432')],
          findings: [],
          details: {},
        };
      const { dataDir, databaseUrl, authSecret, students, tutors, admin } = community;
      return withLoad((load) =>
        measureClassesFigure({
          id,
          storeName,
          dataDir,
          env: {
            ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
            ...(authSecret ? { AUTH_SECRET: authSecret } : {}),
          },
          students: students.slice(CLASS_STUDENTS_FROM, CLASS_STUDENTS_FROM + CLASS_STUDENTS),
          tutors: tutors.slice(CLASS_TUTORS_FROM, CLASS_TUTORS_FROM + CLASSES),
          admin: { email: admin.email, password: admin.password },
          pinning,
          load,
        }),
      );
    });
  }
}
// ---- end of row 14

/** Row 12 on each store: the minute jobs' first pass with thousands due. */
async function jobsFigures(): Promise<void> {
  // Both stores seeded side by side (each seed is mostly one process on one core, and nothing is
  // measured meanwhile), then each measured alone, its server started within a minute or two of its
  // seed: the lessons still just ended, the reminders still due.
  const database = await createBenchDatabase('jobs');
  const embedded = seedJobsStore('12a', { dataDir: tempDir('jobs') }, progress);
  const postgres =
    'unavailable' in database
      ? undefined
      : seedJobsStore('12b', { dataDir: tempDir('jobs-pg'), databaseUrl: database.url }, progress);
  await Promise.allSettled([embedded, postgres]);
  await figure('minute jobs, embedded', '12a', async () =>
    measureJobsFigure({ id: '12a', storeName: 'embedded', store: await embedded }),
  );
  await figure('minute jobs, PostgreSQL', '12b', async () => {
    if ('unavailable' in database || !postgres)
      return {
        rows: [
          skippedRow(
            '12b',
            'minute jobs, PostgreSQL',
            '<= 10 s',
            'unavailable' in database ? database.unavailable : 'no PostgreSQL',
          ),
        ],
        findings: [],
        details: {},
      };
    try {
      return await measureJobsFigure({ id: '12b', storeName: 'PostgreSQL', store: await postgres });
    } finally {
      await database.drop();
    }
  });
}

/** Which of rows 11 and 15 are asked for: one seeded store and server serves both. */
const moneyRows = { money: wanted(11), family: wanted(15) };
let searchStores: Promise<SearchStores> | undefined;
let moneyReadsStore: Promise<MoneyReadsStore> | undefined;

/**
 * Every store the rows read, made before the first row is measured and side by side: each seed is
 * mostly one process on one core and the community's sign-up mostly this process's captcha work, so
 * together they keep both cores busy where one after another they left one idle, and no measurement
 * runs meanwhile. A store that fails here fails its own rows when they await it.
 */
async function prepareStores(): Promise<void> {
  const preparing: Promise<unknown>[] = [];
  if (wanted(1) || wanted(2) || wanted(3) || wanted(4) || wanted(16)) preparing.push(seededDemoStore());
  if (wanted(3) || wanted(4)) preparing.push(copiedDemoStore());
  if (wanted(13)) {
    searchStores = seedSearchStores(progress);
    preparing.push(searchStores);
  }
  if (wanted(11) || wanted(15)) {
    moneyReadsStore = seedMoneyReadsStore(progress, moneyRows);
    preparing.push(moneyReadsStore);
  }
  if (wanted(7) || postgresCommunityWanted()) preparing.push(sharedCommunity());
  if (preparing.length === 0) return;
  progress(`making what the rows read, ${preparing.length} at once…`);
  await Promise.allSettled(preparing);
  progress('all made');
}

progress(`${availableParallelism()} cores; ${pinning.note}; ${QUICK ? 'QUICK mode; ' : ''}${rowsNote}`);
try {
  const built = await ensureAppBuilt(progress);
  if (!built) progress('dist (browser app, server bundle, database template) is up to date');
  await prepareStores();
  if (wanted(1) || wanted(16))
    await figure('bundle', '1,16', async () =>
      measureBundleFigure((await seededDemoStore()).dataDir, { initial: wanted(1), languages: wanted(16) }),
    );
  if (wanted(5)) await figure('start-up', '5', measureStartupFigures);
  if (wanted(3) || wanted(4)) await httpFigures();
  if (wanted(13))
    await figure('search', '13', async () => {
      const stores = await (searchStores ?? seedSearchStores(progress));
      return withLoad((load) => measureSearchFigure(pinning, load, stores));
    });
  if (wanted(7))
    await figure('lessons', '7', async () => {
      const { dataDir, students, tutors } = (await sharedCommunity()) as Community;
      return withLoad((load) =>
        measureLessonsFigure({
          dataDir,
          tutor: tutors[0] as BenchAccount,
          students: students.slice(0, BOOKING_STUDENTS),
          pinning,
          load,
        }),
      );
    });
  if (wanted(8)) await messagesFigures();
  if (wanted(10)) await bookingFigures();
  if (wanted(14)) await classFigures();
  // Rows 11 and 15 share one seeded store and server.
  if (wanted(11) || wanted(15))
    await figure('money reads and the family', wanted(11) ? '11' : '15', async () => {
      const seeded = await (moneyReadsStore ?? seedMoneyReadsStore(progress, moneyRows));
      return withLoad((load) => measureMoneyReadsFigure(pinning, load, seeded, moneyRows));
    });
  if (wanted(12)) await jobsFigures();
  if (wanted(9)) await figure('lesson room', '9', measureRoomFigure);
  if (wanted(2))
    await figure('lighthouse', '2', async () => measureLighthouseFigure((await seededDemoStore()).dataDir));
} finally {
  await runCleanup();
}

rows.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
const durationSeconds = Math.round((performance.now() - started) / 1000);
const mode = `${QUICK ? 'quick (BENCH_QUICK=1)' : 'full'}, ${rowsNote}`;
const results: BenchResults = {
  startedAt,
  durationSeconds,
  mode,
  machine: {
    cpus: availableParallelism(),
    node: process.version,
    pinning: pinning.note,
    loadAverageAtEnd: loadavg().map((load) => Number(load.toFixed(2))),
  },
  summary: summarize(rows),
  rows,
  findings,
  details,
};
const resultsFile = join(benchRoot, 'results.json');
writeResults(resultsFile, results);

const { met, notMet, skipped } = results.summary;
process.stdout.write(
  [
    '',
    `Tutorlane benchmark, ${startedAt} (${durationSeconds} s, ${results.machine.cpus} cores, ${pinning.note}; ${mode})`,
    '',
    formatTable(rows),
    '',
    `${met} met, ${notMet} not met, ${skipped} skipped. ` +
      'Ratios are subject / reference, round by round; the budget checks their median.',
    '',
    'Findings:',
    ...Object.values(findings)
      .flat()
      .map((line) => `- ${line}`),
    '',
    `Written to ${resultsFile}`,
    '',
  ].join('\n'),
);
process.exit(failed ? 1 : 0);
