/**
 * Row 12, the minute jobs with much due at once, on one store: `npm run seed:demo` leaves 5,000
 * confirmed lessons that ended a minute ago (each its pair's first, with its price held) and 2,500
 * lessons starting in half an hour (an hour reminder due for each of their 5,000 people); the
 * server then starts as `npm start` starts it, with the school taking payments, and its jobs' first
 * pass, a second after start, has it all to do. The pass is timed by the server itself
 * (tutorlane_minute_job_duration_seconds on GET /metrics): <= 10 s for each job. Then every mail
 * the pass queued is counted as the server writes it under DATA_DIR/mail (no SMTP_URL): each
 * person's once, none twice; the time until the last is written is reported.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Store, seedDemo } from './build';
import { startTutorlane } from './processes';
import { type FigureResult, status } from './report';
import { full } from './settings';

const DUE_LESSONS = full(5_000, 500);
const DUE_REMINDERS = full(5_000, 500);
const BUDGET_SECONDS = 10;
/** Long enough for the first pass and every mail on a slow store; a stuck pass fails the row. */
const WAIT_MS = 10 * 60 * 1000;

/** A series' value in Prometheus' text format, or undefined. */
function seriesValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

interface MailCount {
  total: number;
  reminders: number;
  invitations: number;
  /** Mails with the same recipient and subject as another. */
  twice: number;
}

/**
 * The mails the seed's people were sent, read from the .txt copies the server writes. A count
 * made again every half second while the server writes 10,000 mails: each file is read once, the
 * first time it is seen, so the count does not take the core the server is writing them on.
 */
function mailCounter(dataDir: string): () => MailCount {
  const read = new Map<string, { to: string; subject: string }>();
  return () => {
    let files: string[] = [];
    try {
      files = readdirSync(join(dataDir, 'mail')).filter((file) => file.endsWith('.txt'));
    } catch {
      // No mail yet.
    }
    for (const file of files) {
      if (read.has(file)) continue;
      const text = readFileSync(join(dataDir, 'mail', file), 'utf8');
      // A file the server is still writing is read again next time, whole.
      const subject = /^Subject: (.+)\n\n/m.exec(text)?.[1];
      if (subject !== undefined) read.set(file, { to: /^To: (.+)$/m.exec(text)?.[1] ?? '', subject });
    }
    const seen = new Set<string>();
    const count: MailCount = { total: 0, reminders: 0, invitations: 0, twice: 0 };
    for (const { to, subject } of read.values()) {
      if (!to.startsWith('load.')) continue;
      const key = `${to}\n${subject}`;
      if (seen.has(key)) count.twice += 1;
      seen.add(key);
      count.total += 1;
      if (subject.startsWith('Reminder:')) count.reminders += 1;
      else if (subject.startsWith('How are your lessons')) count.invitations += 1;
    }
    return count;
  };
}

/**
 * The row's seed on an empty store: lessons ending as it ends and reminders due half an hour
 * before their lessons, so the server that measures it starts within minutes of it.
 */
export async function seedJobsStore(
  id: string,
  store: Store,
  progress: (line: string) => void,
): Promise<Store> {
  progress(`${id}: seeding ${DUE_LESSONS} lessons ending now and ${DUE_REMINDERS} reminders due…`);
  await seedDemo(store, 20, ['--due-lessons', String(DUE_LESSONS), '--due-reminders', String(DUE_REMINDERS)]);
  return store;
}

/** Starts a server on the store `seedJobsStore` filled and times its jobs' first pass. */
export async function measureJobsFigure(options: {
  id: string;
  storeName: string;
  store: Store;
}): Promise<FigureResult> {
  const { id, storeName, store } = options;
  const token = randomBytes(16).toString('hex');
  const started = performance.now();
  const server = await startTutorlane({
    dataDir: store.dataDir,
    env: {
      PAYMENTS: 'on',
      METRICS_TOKEN: token,
      ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    },
  });
  try {
    const scrape = async () => {
      const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
      return res.text();
    };
    const series = (text: string, name: string, job: string) => seriesValue(text, `${name}{job="${job}"}`);
    let text = await scrape();
    const passed = (job: string) => (series(text, 'tutorlane_minute_job_runs_total', job) ?? 0) >= 1;
    while (!(passed('lessons') && passed('reminders'))) {
      if (performance.now() - started > WAIT_MS) throw new Error('the minute jobs made no first pass');
      await sleep(100);
      text = await scrape();
    }
    const failed = ['lessons', 'reminders'].filter(
      (job) => (series(text, 'tutorlane_minute_job_failures_total', job) ?? 0) > 0,
    );
    if (failed.length > 0) throw new Error(`the first pass of ${failed.join(' and ')} failed`);
    const seconds = (job: string) =>
      series(text, 'tutorlane_minute_job_duration_seconds_sum', job) ?? Number.NaN;
    const lessonsSeconds = seconds('lessons');
    const remindersSeconds = seconds('reminders');

    // Every mail written, or none more for a while.
    const expected = DUE_LESSONS + DUE_REMINDERS;
    const countMails = mailCounter(store.dataDir);
    let mails = countMails();
    let lastChange = performance.now();
    while (mails.total < expected && performance.now() - lastChange < 30_000) {
      if (performance.now() - started > WAIT_MS) break;
      await sleep(500);
      const now = countMails();
      if (now.total !== mails.total) lastChange = performance.now();
      mails = now;
    }
    const allMailedSeconds = (performance.now() - started) / 1000;
    const eachOnce =
      mails.twice === 0 && mails.invitations === DUE_LESSONS && mails.reminders === DUE_REMINDERS;
    const slowest = Math.max(lessonsSeconds, remindersSeconds);
    return {
      rows: [
        {
          id,
          figure: `the minute jobs' first pass, ${DUE_LESSONS.toLocaleString('en')} lessons ending and ${DUE_REMINDERS.toLocaleString('en')} reminders due, ${storeName}`,
          measured: `lessons ${lessonsSeconds.toFixed(2)} s, reminders ${remindersSeconds.toFixed(2)} s; ${mails.invitations} invitations and ${mails.reminders} reminders mailed, ${mails.twice} twice`,
          reference: '-',
          ratio: '-',
          budget: `<= ${BUDGET_SECONDS} s each, each mail once`,
          status: status(slowest <= BUDGET_SECONDS && eachOnce),
        },
      ],
      findings: [
        `${id} ${storeName}: the lessons' pass completed and settled ${DUE_LESSONS} lessons in ` +
          `${lessonsSeconds.toFixed(2)} s, the reminders' pass queued ${DUE_REMINDERS} mails in ` +
          `${remindersSeconds.toFixed(2)} s (the two run side by side); all ${mails.total} mails written ` +
          `${allMailedSeconds.toFixed(1)} s after the server was started`,
      ],
      details: { lessonsSeconds, remindersSeconds, mails, allMailedSeconds },
    };
  } finally {
    await server.stop();
  }
}
