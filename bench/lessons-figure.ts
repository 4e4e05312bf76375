/**
 * Row 7: a tutor's free times for 31 days (GET /api/tutors/:id/slots) for a tutor with weekly
 * hours and 200 pending and confirmed lessons in that range, against the tutor's page
 * (GET /api/tutors/:id) on the same server in the same run: the median over interleaved rounds of
 * slots p95 / tutor-page p95 <= 2, at 4 connections with the server on one core.
 *
 * Everything is made through the API: the tutor sets hours every day of the week in UTC, and
 * students book the lessons, the first half confirmed at once, the second half as requests (the
 * tutor switches instant booking off in between), seven a day.
 */
import { type BenchAccount, callApi, mapLimited } from './accounts';
import { exact, interleaved, medianCpu, problems, ROUNDS, runWithCpu } from './http-figures';
import type { LoadGenerator, LoadRequest } from './load-generator';
import { cpuText } from './proc';
import { type Pinning, startTutorlane } from './processes';
import { type FigureResult, status } from './report';
import { full } from './settings';
import { formatSpread, median, ratios, spread } from './stats';

const LESSONS = 200;
const RANGE_DAYS = 31;
const LESSONS_A_DAY = 7;
const CONNECTIONS = 4;
const ROUND_SECONDS = full(2, 1);
const WARMUP_SECONDS = full(2, 1);
const BUDGET_RATIO = 2;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** The tutor's hours: every day, all day, in UTC; lessons of an hour, starting every half hour. */
function availability(instantBooking: boolean) {
  return {
    timeZone: 'UTC',
    weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '00:00', end: '24:00' })),
    overrides: [],
    lessonMinutes: [60],
    slotStepMinutes: 30,
    minimumNoticeHours: 0,
    bookingHorizonDays: 60,
    bufferMinutes: 0,
    instantBooking,
  };
}

/** Books the lessons: seven a day at 08:00, 10:00... 20:00 UTC, students in turn. */
async function bookLessons(
  url: string,
  tutor: BenchAccount,
  students: BenchAccount[],
  from: number,
): Promise<void> {
  const book = (index: number) =>
    callApi(url, '/api/lessons', {
      method: 'POST',
      cookie: (students[index % students.length] as BenchAccount).cookie,
      body: {
        tutorId: tutor.id,
        start: new Date(
          from + Math.floor(index / LESSONS_A_DAY) * DAY + (8 + 2 * (index % LESSONS_A_DAY)) * HOUR,
        ).toISOString(),
        minutes: 60,
        subject: 'Algebra',
      },
    });
  const half = LESSONS / 2;
  const indexes = Array.from({ length: LESSONS }, (_, i) => i);
  await callApi(url, '/api/availability', { method: 'PUT', cookie: tutor.cookie, body: availability(true) });
  await mapLimited(indexes.slice(0, half), 4, book);
  await callApi(url, '/api/availability', { method: 'PUT', cookie: tutor.cookie, body: availability(false) });
  await mapLimited(indexes.slice(half), 4, book);
}

export async function measureLessonsFigure(options: {
  dataDir: string;
  tutor: BenchAccount;
  students: BenchAccount[];
  pinning: Pinning;
  load: LoadGenerator;
}): Promise<FigureResult> {
  const { dataDir, tutor, students, pinning, load } = options;
  const server = await startTutorlane({ dataDir, core: pinning.serverCore });
  try {
    // From the next UTC midnight: every lesson is well ahead of now.
    const from = Math.ceil(Date.now() / DAY) * DAY;
    const to = from + RANGE_DAYS * DAY;
    await bookLessons(server.url, tutor, students, from);
    const range = `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
    const { lessons } = (await callApi(server.url, `/api/lessons?${range}`, { cookie: tutor.cookie })) as {
      lessons: { status: string }[];
    };
    const byStatus = (wanted: string) => lessons.filter((lesson) => lesson.status === wanted).length;
    if (lessons.length !== LESSONS)
      throw new Error(`the tutor has ${lessons.length} lessons, not ${LESSONS}`);

    const id = encodeURIComponent(tutor.id);
    const slotsPath = `/api/tutors/${id}/slots?${range}&minutes=60`;
    const pagePath = `/api/tutors/${id}`;
    const { slots } = (await callApi(server.url, slotsPath)) as { slots: unknown[] };
    const base = {
      url: server.url,
      method: 'GET',
      headers: {},
      connections: CONNECTIONS,
      durationSeconds: ROUND_SECONDS,
      exactLatencies: true,
    } satisfies Partial<LoadRequest>;
    const slotsLoad: LoadRequest = { ...base, path: slotsPath };
    const pageLoad: LoadRequest = { ...base, path: pagePath };
    await load.run({ ...pageLoad, durationSeconds: WARMUP_SECONDS });
    await load.run({ ...slotsLoad, durationSeconds: WARMUP_SECONDS });
    const pid = server.child.pid;
    const [pageRounds = [], slotsRounds = []] = await interleaved([
      () => runWithCpu(load, pageLoad, pid),
      () => runWithCpu(load, slotsLoad, pid),
    ]);

    const slotsP95 = exact(slotsRounds, 'p95Ms');
    const pageP95 = exact(pageRounds, 'p95Ms');
    const ratio = spread(ratios(slotsP95.samples, pageP95.samples));
    const rate = (rounds: typeof pageRounds) => median(rounds.map((r) => r.requestsPerSecond)).toFixed(0);
    return {
      rows: [
        {
          id: '7',
          figure: `slots for ${RANGE_DAYS} days, ${LESSONS} lessons in range, embedded: p95 at ${CONNECTIONS} conn.`,
          measured: formatSpread(slotsP95, ' ms', 1),
          reference: `GET /api/tutors/:id ${formatSpread(pageP95, ' ms', 1)}`,
          ratio: formatSpread(ratio, 'x', 2),
          budget: `<= ${BUDGET_RATIO.toFixed(2)}x`,
          status: status(ratio.median <= BUDGET_RATIO),
        },
      ],
      findings: [
        `7: ${byStatus('confirmed')} confirmed and ${byStatus('pending')} pending lessons in the range; ` +
          `the answer holds ${slots.length} free slots of 60 minutes`,
        `7: slots ${rate(slotsRounds)} req/s, p50 ${exact(slotsRounds, 'p50Ms').median.toFixed(1)} ms; ` +
          `tutor's page ${rate(pageRounds)} req/s, p50 ${exact(pageRounds, 'p50Ms').median.toFixed(1)} ms; ` +
          `${ROUNDS} rounds of ${ROUND_SECONDS} s each`,
        `7: the server's CPU per request: slots ${cpuText(medianCpu(slotsRounds))}; tutor's page ` +
          `${cpuText(medianCpu(pageRounds))}; the other threads are mostly the embedded database`,
        ...problems('7 slots', slotsRounds),
        ...problems("7 tutor's page", pageRounds),
      ],
      details: { slotsPath, slotsCount: slots.length, pageRounds, slotsRounds },
    };
  } finally {
    await server.stop();
  }
}
