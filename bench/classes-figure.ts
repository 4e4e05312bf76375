/**
 * Row 14, enrolling in group classes (POST /api/classes/:id/enrol) against a tutor's page
 * (GET /api/tutors/:id) on the same server in interleaved rounds, the server on one core and the
 * load generator on the other: 150 students at 8 connections, each asking once for one of 20
 * classes of 5 seats, 7 or 8 students to a class, so that of every class's students five get a seat
 * and the others wait. The classes are split over the rounds (four a round of five), each round's
 * students asking for its classes at once. Budget: p95 <= 4x, exactly 100 seats taken and 50
 * waitlisted, each class's waitlist at positions 1..n, and the admin's finance totals summing to
 * zero after. The school takes payments: each class has a price, held from the student's balance
 * for its session when a seat is taken (docs/api.md, "Group classes").
 * Everything comes through the public API: the students' balances are transfers an admin confirms,
 * the classes are their tutors' own.
 */
import { type BenchAccount, callApi, mapLimited, postHeaders, signIn } from './accounts';
import { exact, interleaved, medianCpu, problems, ROUNDS, runWithCpu } from './http-figures';
import type { LoadGenerator, LoadRequest } from './load-generator';
import { type Finance, ratioRow, totalsSum } from './money-figure';
import { cpuText } from './proc';
import { type Pinning, startTutorlane } from './processes';
import type { FigureResult } from './report';
import { full } from './settings';
import { median } from './stats';

const DAY = 24 * 60 * 60 * 1000;
/** Row 14's students, classes, seats and connections. */
export const CLASS_STUDENTS = 150;
export const CLASSES = 20;
const SEATS = 5;
const CONNECTIONS = 8;
const BUDGET = 4;
/** A class's price a session, in cents; one session a class. */
const PRICE_CENTS = 2_500;
/** What each student's transfer brings, in cents: a seat and more. */
const TOP_UP_CENTS = 10_000;
const ROUND_SECONDS = full(2, 1);
const WARMUP_SECONDS = full(2, 1);

interface ClassView {
  id: string;
  seats: number;
  seatsTaken: number;
  waitlist: number;
}

interface AdminClass extends ClassView {
  students: { id: string; status: string; position: number | null }[];
}

/** The classes' standings after the rounds: seats, waitlist and whether each waitlist is 1..n. */
function standings(classes: AdminClass[]) {
  let seats = 0;
  let waiting = 0;
  let gapFree = true;
  for (const cls of classes) {
    seats += cls.students.filter((s) => s.status === 'enrolled').length;
    const positions = cls.students
      .filter((s) => s.status === 'waitlisted')
      .map((s) => s.position ?? 0)
      .sort((a, b) => a - b);
    waiting += positions.length;
    if (positions.some((position, index) => position !== index + 1)) gapFree = false;
    if (cls.seatsTaken !== cls.students.filter((s) => s.status === 'enrolled').length) gapFree = false;
  }
  return { seats, waiting, gapFree };
}

/**
 * Row 14 on one store: `tutors` (CLASSES of them) each offer a class, `students` (CLASS_STUDENTS)
 * are given balances and enrol. The store's server is started here with payments on.
 */
export async function measureClassesFigure(options: {
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
  if (students.length < CLASS_STUDENTS || tutors.length < CLASSES)
    throw new Error(`row ${id} needs ${CLASS_STUDENTS} students and ${CLASSES} tutors`);
  const server = await startTutorlane({
    dataDir: options.dataDir,
    core: pinning.serverCore,
    env: { ...options.env, PAYMENTS: 'on', COMMISSION_PERCENT: '15' },
  });
  try {
    const { url } = server;
    const adminCookie = await signIn(url, options.admin.email, options.admin.password);
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
    // Each tutor's class, a week ahead at an hour of its own.
    const firstSession = Math.ceil(Date.now() / DAY) * DAY + 7 * DAY;
    const classes = await mapLimited(tutors, 4, async (tutor, index) => {
      const { class: created } = (await callApi(url, '/api/classes', {
        method: 'POST',
        cookie: tutor.cookie,
        body: {
          title: `Algebra in a group ${index + 1}`,
          subject: 'Algebra',
          language: 'English',
          minutes: 60,
          seats: SEATS,
          minStudents: 2,
          priceCents: PRICE_CENTS,
          sessions: [new Date(firstSession + index * 60 * 60 * 1000).toISOString()],
        },
      })) as { class: ClassView };
      return created.id;
    });

    // Student i asks for class i % CLASSES: 8 students for the first ten classes, 7 for the rest.
    // Round r takes the classes whose number modulo ROUNDS is r, and their students.
    const roundRequests = Array.from({ length: ROUNDS }, (_, round) =>
      students
        .map((student, i) => ({ student, cls: i % CLASSES }))
        .filter(({ cls }) => cls % ROUNDS === round)
        .map(({ student, cls }) => ({
          path: `/api/classes/${encodeURIComponent(classes[cls] as string)}/enrol`,
          headers: { ...postHeaders(url), cookie: student.cookie },
          body: '{}',
        })),
    );
    let round = 0;
    const enrolLoad = (): LoadRequest => {
      const perRequest = roundRequests[round++] ?? [];
      return {
        url,
        method: 'POST',
        path: perRequest[0]?.path ?? '/',
        headers: {},
        connections: CONNECTIONS,
        durationSeconds: 0,
        randomForwardedFor: true,
        exactLatencies: true,
        perRequest,
      };
    };
    const pageLoad: LoadRequest = {
      url,
      method: 'GET',
      path: '/',
      paths: tutors.map((tutor) => `/api/tutors/${encodeURIComponent(tutor.id)}`),
      headers: {},
      connections: CONNECTIONS,
      durationSeconds: ROUND_SECONDS,
      exactLatencies: true,
    };
    await load.run({ ...pageLoad, durationSeconds: WARMUP_SECONDS });
    const pid = server.child.pid;
    const [pageRounds = [], enrolRounds = []] = await interleaved([
      () => runWithCpu(load, pageLoad, pid),
      () => runWithCpu(load, enrolLoad(), pid),
    ]);
    const finance = (await callApi(url, '/api/admin/finance', { cookie: adminCookie })) as Finance;
    const sum = totalsSum(finance);
    const ours = new Set(classes);
    const { classes: listed } = (await callApi(url, '/api/admin/classes', { cookie: adminCookie })) as {
      classes: AdminClass[];
    };
    const { seats, waiting, gapFree } = standings(listed.filter((cls) => ours.has(cls.id)));
    const failures = enrolRounds.reduce((n, r) => n + r.errors + r.non2xx, 0);
    const expectedSeats = CLASSES * SEATS;
    const expectedWaiting = CLASS_STUDENTS - expectedSeats;
    const row = ratioRow(
      id,
      `enrolling in a class POST /api/classes/:id/enrol, ${storeName}: p95 of ${CLASS_STUDENTS} students at ${CONNECTIONS} conn.`,
      enrolRounds,
      pageRounds,
      BUDGET,
      failures === 0 && sum === 0 && seats === expectedSeats && waiting === expectedWaiting && gapFree,
    );
    row.measured +=
      `; ${seats} seats, ${waiting} waiting${gapFree ? ' in order' : ', positions with gaps'}` +
      `; ${failures} errors; totals sum to ${sum}`;
    const rate = (rounds: { requestsPerSecond: number }[]) =>
      median(rounds.map((r) => r.requestsPerSecond)).toFixed(0);
    return {
      rows: [row],
      findings: [
        `${id} ${storeName}: ${CLASS_STUDENTS} enrolments in ${ROUNDS} rounds (${CLASSES / ROUNDS} classes ` +
          `a round), ${rate(enrolRounds)} a second, p50 ${exact(enrolRounds, 'p50Ms').median.toFixed(1)} ms; ` +
          `${seats} seats taken of ${expectedSeats}, ${waiting} waiting of ${expectedWaiting}; the finance totals ` +
          `sum to ${sum} (held ${finance.totals.held.amountCents} cents)`,
        `${id} ${storeName}: the server's CPU per enrolment ${cpuText(medianCpu(enrolRounds))}; per ` +
          `tutor's page ${cpuText(medianCpu(pageRounds))}`,
        ...problems(`${id} enrolments`, enrolRounds),
        ...problems(`${id} tutor's page`, pageRounds),
      ],
      details: { pageRounds, enrolRounds, finance, classes: listed },
    };
  } finally {
    await server.stop();
  }
}
