/**
 * Busy is not down: on the embedded store, /api/health keeps answering 200 through bursts of 40
 * requests at once (bookings, wallet and finance reads) with every core kept busy by other work,
 * and while backups are taken, downloaded by an admin and written on a schedule. A load balancer
 * or orchestrator that believed a 503 there would drop or restart the only server for being busy.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Temporal } from 'temporal-polyfill';
import { expect, it, onTestFinished } from 'vitest';
import { call, type Person, person, script } from '../support/http-people';
import { openAvailability } from '../support/lessons';
import { startMailCatcher } from '../support/mail-catcher';
import { recordFinding, seconds } from './findings';
import { expectRunning, signalServer, sleep, startServer, tempDataDir } from './reliability-server';

const STUDENTS = 8;
const BURSTS = 4;
/** Each burst: this many bookings, as many wallet reads, and half as many finance reads. */
const BOOKINGS_PER_BURST = 16;
const HOURLY_RATE = 40;
const ZONE = 'Europe/Madrid';
/** A scheduled backup every 3.6 s, so several are taken during the test. */
const BACKUP_EVERY_HOURS = '0.001';
const DOWNLOADS = 5;

/** Distinct hour-long slots of the tutor's open week (08:00 to 20:00 in Madrid), from two days on. */
function slots(count: number): number[] {
  const today = Temporal.Now.zonedDateTimeISO(ZONE).toPlainDate();
  return Array.from({ length: count }, (_, n) => {
    const date = today.add({ days: 2 + Math.floor(n / 12) });
    const time = Temporal.PlainTime.from({ hour: 8 + (n % 12) });
    return date.toZonedDateTime({ timeZone: ZONE, plainTime: time }).epochMilliseconds;
  });
}

/** One busy loop per core, in processes of their own, each ending by itself after `ms`. */
function busyCpus(ms: number): () => void {
  const children: ChildProcess[] = Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ['-e', `const end = Date.now() + ${ms}; while (Date.now() < end) {}`], {
      stdio: 'ignore',
    }),
  );
  return () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  };
}

interface Poll {
  status: number;
  ms: number;
  phase: string;
}

/** Asks /api/health every 50 ms until stopped, noting each answer with the phase it fell in. */
function pollHealth(url: string) {
  const polls: Poll[] = [];
  let phase = 'idle';
  let polling = true;
  const done = (async () => {
    while (polling) {
      const started = Date.now();
      const during = phase;
      let status = 0;
      try {
        const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(10_000) });
        status = res.status;
        await res.text();
      } catch {
        status = 0;
      }
      polls.push({ status, ms: Date.now() - started, phase: during });
      await sleep(50);
    }
  })();
  return {
    polls,
    phase(name: string) {
      phase = name;
    },
    async stop() {
      polling = false;
      await done;
    },
  };
}

it('answers 200 on health through bursts of requests with the CPU busy, and while backups are taken', async ({
  task,
}) => {
  const mail = await startMailCatcher();
  onTestFinished(() => mail.close());
  const dataDir = tempDataDir();
  const env = {
    DATA_DIR: dataDir,
    SMTP_URL: mail.smtpUrl,
    PAYMENTS: 'on',
    CURRENCY: 'USD',
    BACKUP_EVERY_HOURS,
  };

  // The people, then the admin's grant while the server is stopped, as an operator would do it.
  let server = await startServer(env);
  const tutor = await person(server.url, mail, 'tutor', 'Tess Tutor');
  const admin = await person(server.url, mail, 'student', 'Ada Admin');
  const students: Person[] = [];
  for (let n = 0; n < STUDENTS; n++) students.push(await person(server.url, mail, 'student', `Sam ${n}`));
  const published = await call(server.url, tutor, 'PATCH', '/api/profile/details', {
    headline: 'Algebra made calm',
    about: 'Step by step, at your pace.',
    subjects: ['Algebra', 'Calculus'],
    hourlyRate: HOURLY_RATE,
    languages: ['English'],
  });
  expect(published.status, published.text).toBe(200);
  expect((await call(server.url, tutor, 'PUT', '/api/availability', openAvailability)).status).toBe(200);
  signalServer(server, 'SIGTERM');
  expect(await server.exited).toBe(0);
  expect((await script('admin', ['grant', admin.email], { DATA_DIR: dataDir })).stdout).toContain(
    admin.email,
  );

  server = await startServer(env);
  const { url } = server;
  for (const student of students) {
    const asked = await call(url, student, 'POST', '/api/wallet/top-ups', {
      amountCents: 100_000,
      method: 'manual',
    });
    expect(asked.status, asked.text).toBe(201);
    const confirmed = await call(url, admin, 'POST', `/api/admin/top-ups/${asked.body.topUp.id}/confirm`, {});
    expect(confirmed.status, confirmed.text).toBe(200);
  }

  const health = pollHealth(url);
  const stopCpus = busyCpus(120_000);
  onTestFinished(stopCpus);
  onTestFinished(() => health.stop());

  // Bursts of 40 requests sent at once, each answered before the next burst.
  const starts = slots(BURSTS * BOOKINGS_PER_BURST);
  const answers: { what: string; status: number; ms: number }[] = [];
  const timed = async (what: string, send: () => Promise<{ status: number }>) => {
    const started = Date.now();
    const { status } = await send();
    answers.push({ what, status, ms: Date.now() - started });
  };
  const burstsStarted = Date.now();
  health.phase('bursts');
  for (let burst = 0; burst < BURSTS; burst++) {
    const work: Promise<void>[] = [];
    for (let n = 0; n < BOOKINGS_PER_BURST; n++) {
      const student = students[n % STUDENTS] as Person;
      const start = starts[burst * BOOKINGS_PER_BURST + n] as number;
      work.push(
        timed('booking', () =>
          call(url, student, 'POST', '/api/lessons', {
            tutorId: tutor.id,
            start: new Date(start).toISOString(),
            minutes: 60,
            subject: 'Algebra',
          }),
        ),
        timed('wallet', () => call(url, student, 'GET', '/api/wallet')),
      );
      if (n % 2 === 0) work.push(timed('finance', () => call(url, admin, 'GET', '/api/admin/finance')));
    }
    await Promise.all(work);
  }
  const burstsMs = Date.now() - burstsStarted;

  // The admin downloads backups, one after another, while scheduled ones are written too.
  health.phase('backups');
  const downloadsStarted = Date.now();
  for (let n = 0; n < DOWNLOADS; n++) {
    const backup = await fetch(`${url}/api/admin/backup`, { headers: { cookie: admin.cookie } });
    expect(backup.status).toBe(200);
    expect((await backup.arrayBuffer()).byteLength).toBeGreaterThan(0);
  }
  // Long enough for a scheduled backup to be written after the bursts.
  while (Date.now() - downloadsStarted < 8000) await sleep(100);
  const downloadsMs = Date.now() - downloadsStarted;
  await health.stop();
  stopCpus();

  const output = server.output();
  const scheduled = readdirSync(join(dataDir, 'backups')).filter((name) => name.endsWith('.tar.gz')).length;
  const unhealthy = health.polls.filter((poll) => poll.status !== 200);
  const inPhase = (phase: string) => health.polls.filter((poll) => poll.phase === phase);
  const slowestPoll = Math.max(...health.polls.map((poll) => poll.ms));
  const refused = answers.filter((answer) => answer.status >= 300);
  const slowest = Math.max(...answers.map((answer) => answer.ms));
  recordFinding(task, {
    short: 'health when busy',
    detail: `${answers.length} requests in ${BURSTS} bursts over ${seconds(burstsMs)} with ${availableParallelism()} cores kept busy (slowest ${slowest} ms, ${refused.length} not 2xx); ${DOWNLOADS} backups downloaded and ${scheduled} scheduled ones kept; health polled ${inPhase('bursts').length} times during the bursts and ${inPhase('backups').length} during ${seconds(downloadsMs)} of backups: ${unhealthy.length} not 200, slowest ${slowestPoll} ms`,
  });

  expect(
    refused.map((answer) => `${answer.what} ${answer.status}`),
    output,
  ).toEqual([]);
  expect(inPhase('bursts').length).toBeGreaterThan(10);
  expect(inPhase('backups').length).toBeGreaterThan(10);
  expect(
    unhealthy.map((poll) => `${poll.phase}: ${poll.status} after ${poll.ms} ms`),
    output,
  ).toEqual([]);
  expect(scheduled, output).toBeGreaterThanOrEqual(2);
  expect(output).not.toContain('database unavailable');
  expect(output).not.toContain('scheduled backup failed');

  expectRunning(server);
  signalServer(server, 'SIGTERM');
  expect(await server.exited).toBe(0);
});
