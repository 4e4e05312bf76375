/**
 * A backup taken by the running server (the admin console's download) while requests keep coming,
 * then the data folder destroyed and `npm run restore` run: the server starts again with every
 * write it acknowledged before the backup (accounts, a lesson, a confirmed top-up's ledger entries,
 * messages, a review, a goal, a photo), the ledger still sums to zero, people sign in with the same
 * passwords and their sessions still hold (the generated secret came back too). A restore while the
 * server runs is refused and changes nothing.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import sharp from 'sharp';
import { Temporal } from 'temporal-polyfill';
import { expect, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { postHeaders, signIn } from '../support/http-accounts';
import { call, person, script } from '../support/http-people';
import { insertLesson, openAvailability } from '../support/lessons';
import { startMailCatcher } from '../support/mail-catcher';
import { type Finding, recordFinding, seconds } from './findings';
import { signalServer, startServer, tempDataDir } from './reliability-server';

const ZONE = 'Europe/Madrid';

/** Ten o'clock in Madrid, some days from now. */
const tenOClock = (days: number) =>
  Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from('10:00') }).epochMilliseconds;

/** The folders beside DATA_DIR that a restore makes (moved aside, unpacking). */
const siblingsOf = (dataDir: string) =>
  readdirSync(dirname(dataDir)).filter((name) => name.startsWith(`${basename(dataDir)}.`));

it('restores everything acknowledged before a backup taken under load, and refuses while the server runs', async ({
  task,
}) => {
  const startedAt = Date.now();
  const mail = await startMailCatcher();
  onTestFinished(() => mail.close());
  const dataDir = tempDataDir();
  const env = {
    DATA_DIR: dataDir,
    SMTP_URL: mail.smtpUrl,
    PAYMENTS: 'on',
    CURRENCY: 'USD',
    BACKUP_EVERY_HOURS: '0',
  };
  const backupFile = join(mkdtempSync(join(tmpdir(), 'tutorlane-backup-file-')), 'school.tar.gz');
  onTestFinished(() => rmSync(dirname(backupFile), { recursive: true, force: true }));

  // The people and the tutor's listing, photo included.
  let server = await startServer(env);
  const tutor = await person(server.url, mail, 'tutor', 'Tess Tutor');
  const student = await person(server.url, mail, 'student', 'Sam Student');
  const admin = await person(server.url, mail, 'student', 'Ada Admin');
  const published = await call(server.url, tutor, 'PATCH', '/api/profile/details', {
    headline: 'Algebra made calm',
    about: 'Step by step, at your pace.',
    subjects: ['Algebra', 'Calculus'],
    hourlyRate: 40,
    languages: ['English'],
  });
  expect(published.status, published.text).toBe(200);
  expect((await call(server.url, tutor, 'PUT', '/api/availability', openAvailability)).status).toBe(200);
  const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  const photo = await fetch(`${server.url}/api/profile/photo`, {
    method: 'PUT',
    headers: { ...postHeaders(server.url), 'content-type': 'image/png', cookie: tutor.cookie },
    body: new Uint8Array(image),
  });
  expect(photo.status, await photo.text()).toBe(200);
  const photoBefore = Buffer.from(
    await (await fetch(`${server.url}/api/tutors/${tutor.id}/photo`)).arrayBuffer(),
  );

  // What only time or an operator makes: the admin role, and a lesson that took place last week.
  signalServer(server, 'SIGTERM');
  expect(await server.exited).toBe(0);
  expect((await script('admin', ['grant', admin.email], { DATA_DIR: dataDir })).stdout).toContain(
    admin.email,
  );
  const offline = await openDatabase({ dataDir });
  await insertLesson(offline.db, {
    tutorId: tutor.id,
    studentId: student.id,
    status: 'completed',
    start: Date.now() - 7 * 86_400_000,
    subject: 'Algebra',
  });
  await offline.close();

  server = await startServer(env);
  const { url } = server;
  const asked = await call(url, student, 'POST', '/api/wallet/top-ups', {
    amountCents: 10_000,
    method: 'manual',
  });
  expect(asked.status, asked.text).toBe(201);
  const confirmed = await call(url, admin, 'POST', `/api/admin/top-ups/${asked.body.topUp.id}/confirm`, {});
  expect(confirmed.status, confirmed.text).toBe(200);
  const booked = await call(url, student, 'POST', '/api/lessons', {
    tutorId: tutor.id,
    start: new Date(tenOClock(3)).toISOString(),
    minutes: 60,
    subject: 'Algebra',
  });
  expect(booked.status, booked.text).toBe(201);
  const opened = await call(url, student, 'POST', '/api/conversations', {
    tutorId: tutor.id,
    text: 'Hello!',
  });
  expect(opened.status, opened.text).toBe(201);
  const conversationId = opened.body.id as string;
  const review = await call(url, student, 'PUT', `/api/tutors/${tutor.id}/review`, {
    rating: 5,
    text: 'Patient, clear and always well prepared for our lessons.',
  });
  expect(review.status, review.text).toBe(201);
  const goal = await call(url, student, 'POST', '/api/goals', { subject: 'Algebra', title: 'Pass the exam' });
  expect(goal.status, goal.text).toBe(201);

  // Messages keep coming while the backup is taken; each answered one is noted with when. Paced,
  // and at most 25 a person, under the 30 a minute a person may send however long the backup takes.
  const acknowledged: string[] = [];
  let writing = true;
  const writer = (async () => {
    for (let n = 0; writing && n < 50; n++) {
      if (n > 0) await new Promise((resolve) => setTimeout(resolve, 150));
      const text = `Message number ${n}`;
      const sent = await call(
        url,
        n % 2 ? tutor : student,
        'POST',
        `/api/conversations/${conversationId}/messages`,
        {
          text,
        },
      );
      expect(sent.status, sent.text).toBe(201);
      acknowledged.push(text);
    }
  })();
  while (acknowledged.length < 5) await new Promise((resolve) => setTimeout(resolve, 20));
  // Every message answered so far was answered before the backup was asked for. Counted, not
  // timed: the fifth answer and this line can fall in the same millisecond.
  const answeredBefore = acknowledged.length;
  const backup = await fetch(`${url}/api/admin/backup`, { headers: { cookie: admin.cookie } });
  expect(backup.status).toBe(200);
  expect(backup.headers.get('content-disposition')).toMatch(
    /^attachment; filename="tutorlane-backup-.+\.tar\.gz"$/,
  );
  writeFileSync(backupFile, Buffer.from(await backup.arrayBuffer()));
  await new Promise((resolve) => setTimeout(resolve, 200));
  writing = false;
  await writer;
  const mustHave = acknowledged.slice(0, answeredBefore);
  expect(mustHave.length).toBeGreaterThanOrEqual(5);

  // While the server runs, a restore is refused and changes nothing.
  const secretBefore = readFileSync(join(dataDir, 'auth-secret'), 'utf8');
  const refused = await script('restore', [backupFile], { DATA_DIR: dataDir });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('Stop the server');
  expect(siblingsOf(dataDir)).toEqual([]);
  expect(readFileSync(join(dataDir, 'auth-secret'), 'utf8')).toBe(secretBefore);
  expect((await fetch(`${url}/api/health`)).status).toBe(200);

  signalServer(server, 'SIGTERM');
  expect(await server.exited).toBe(0);
  rmSync(dataDir, { recursive: true, force: true });

  const restoreStarted = Date.now();
  const restored = await script('restore', [backupFile], { DATA_DIR: dataDir });
  const restoreMs = Date.now() - restoreStarted;
  expect(restored.code, restored.stderr).toBe(0);
  expect(restored.stdout).toContain(`into ${dataDir}`);
  expect(readFileSync(join(dataDir, 'auth-secret'), 'utf8')).toBe(secretBefore);

  server = await startServer(env);
  const again = server.url;
  // The sessions from before hold (same secret, same session rows), and passwords still sign in.
  expect((await call(again, student, 'GET', '/api/session')).body.user.email).toBe(student.email);
  for (const who of [tutor, student, admin]) {
    const res = await signIn(again, who.email);
    expect(res.status, who.email).toBe(200);
  }
  const lesson = await call(again, student, 'GET', `/api/lessons/${booked.body.id}`);
  expect(lesson.status, lesson.text).toBe(200);
  const messages = await call(again, student, 'GET', `/api/conversations/${conversationId}/messages`);
  expect(messages.status).toBe(200);
  const texts = new Set((messages.body.messages as { text: string }[]).map((message) => message.text));
  for (const text of ['Hello!', ...mustHave]) expect(texts.has(text), text).toBe(true);
  const reviews = await call(again, undefined, 'GET', `/api/tutors/${tutor.id}/reviews`);
  expect(reviews.body.count).toBe(1);
  const goals = await call(again, student, 'GET', '/api/goals');
  expect((goals.body.goals as { title: string }[]).map((g) => g.title)).toEqual(['Pass the exam']);
  const wallet = await call(again, student, 'GET', '/api/wallet');
  expect(wallet.body.balance.amountCents + wallet.body.held.amountCents).toBe(10_000);
  const finance = await call(again, admin, 'GET', '/api/admin/finance');
  expect(finance.status, finance.text).toBe(200);
  const totals = finance.body.totals;
  const cents = [
    totals.studentBalances,
    totals.held,
    totals.tutorPayable,
    totals.schoolRevenue,
    totals.clearing.manual,
    totals.clearing.stripe,
  ].map((total: { amountCents: number }) => total.amountCents);
  expect(cents.reduce((sum: number, n: number) => sum + n, 0)).toBe(0);
  expect(totals.held.amountCents).toBeGreaterThan(0);
  const photoAfter = await fetch(`${again}/api/tutors/${tutor.id}/photo`);
  expect(photoAfter.status).toBe(200);
  expect(Buffer.from(await photoAfter.arrayBuffer()).equals(photoBefore)).toBe(true);
  expect(existsSync(join(dataDir, 'db'))).toBe(true);
  recordFinding(task, {
    short: 'backup and restore',
    detail: `backup of ${Math.round(statSync(backupFile).size / 1024)} KB taken under load with ${acknowledged.length} messages sent around it (${mustHave.length} before it, all restored); restore ${seconds(restoreMs)}; refused while running; whole test ${seconds(Date.now() - startedAt)}`,
  } satisfies Finding);
  signalServer(server, 'SIGTERM');
  expect(await server.exited).toBe(0);
});
