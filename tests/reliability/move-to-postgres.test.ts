/**
 * A school that began on the embedded store moves to PostgreSQL with `npm run move-to-postgres`:
 * a server on the new DATABASE_URL with the printed AUTH_SECRET has the same people (signing in
 * with the same passwords, their sessions still holding), their messages and the tutor's photo.
 * Then PostgreSQL's own round trip: `npm run backup` (pg_dump) and `npm run restore` (pg_restore)
 * bring back what was removed after the backup; where pg_dump is not installed, both say so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { expect, it, onTestFinished } from 'vitest';
import { postHeaders, signIn } from '../support/http-accounts';
import { call, person, script } from '../support/http-people';
import { startMailCatcher } from '../support/mail-catcher';
import { createPostgresDatabase, POSTGRES } from '../support/postgres-database';
import { type Finding, recordFinding, seconds } from './findings';
import { signalServer, startServer, tempDataDir } from './reliability-server';

const hasPgDump = () => spawnSync('pg_dump', ['--version']).status === 0;

it('moves every table to PostgreSQL, where the same people sign in; pg_dump and pg_restore round-trip', async ({
  task,
  skip,
}) => {
  const database = await createPostgresDatabase('tutorlane_move');
  if (!database) {
    skip('no PostgreSQL answers on 127.0.0.1:5432');
    return;
  }
  onTestFinished(() => database.drop());
  const url = `postgres://postgres@${POSTGRES.host}:${POSTGRES.port}/${database.name}`;
  const mail = await startMailCatcher();
  onTestFinished(() => mail.close());
  const dataDir = tempDataDir();
  const startedAt = Date.now();

  let server = await startServer({ DATA_DIR: dataDir, SMTP_URL: mail.smtpUrl });
  const tutor = await person(server.url, mail, 'tutor', 'Tess Tutor');
  const student = await person(server.url, mail, 'student', 'Sam Student');
  const published = await call(server.url, tutor, 'PATCH', '/api/profile/details', {
    headline: 'Algebra made calm',
    about: 'Step by step, at your pace.',
    subjects: ['Algebra'],
    hourlyRate: 40,
    languages: ['English'],
  });
  expect(published.status, published.text).toBe(200);
  const image = await sharp({ create: { width: 48, height: 48, channels: 3, background: '#cc6633' } })
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
  const opened = await call(server.url, student, 'POST', '/api/conversations', {
    tutorId: tutor.id,
    text: 'Hello from the embedded days',
  });
  expect(opened.status, opened.text).toBe(201);
  const goal = await call(server.url, student, 'POST', '/api/goals', {
    subject: 'Algebra',
    title: 'Pass the exam',
  });
  expect(goal.status, goal.text).toBe(201);

  // While the server holds the embedded store, the move is refused.
  const refused = await script('move-to-postgres', [url], { DATA_DIR: dataDir });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('Stop the server');
  signalServer(server, 'SIGTERM');
  expect(await server.exited).toBe(0);

  const moveStarted = Date.now();
  const moved = await script('move-to-postgres', [url], { DATA_DIR: dataDir });
  const moveMs = Date.now() - moveStarted;
  expect(moved.code, moved.stderr).toBe(0);
  expect(moved.stdout).toContain("every table's row count matches");
  const secret = /AUTH_SECRET=(\S+)/.exec(moved.stdout)?.[1];
  expect(secret).toBe(readFileSync(join(dataDir, 'auth-secret'), 'utf8').trim());
  // A second move finds the database no longer empty and copies nothing.
  const twice = await script('move-to-postgres', [url], { DATA_DIR: dataDir });
  expect(twice.code).not.toBe(0);
  expect(twice.stderr).toContain('not empty');

  const onPostgres = { DATA_DIR: tempDataDir(), DATABASE_URL: url, AUTH_SECRET: secret as string };
  server = await startServer(onPostgres);
  expect((await call(server.url, student, 'GET', '/api/session')).body.user.email).toBe(student.email);
  for (const who of [tutor, student])
    expect((await signIn(server.url, who.email)).status, who.email).toBe(200);
  const messages = await call(server.url, tutor, 'GET', `/api/conversations/${opened.body.id}/messages`);
  expect((messages.body.messages as { text: string }[]).map((m) => m.text)).toEqual([
    'Hello from the embedded days',
  ]);
  const photoAfter = await fetch(`${server.url}/api/tutors/${tutor.id}/photo`);
  expect(Buffer.from(await photoAfter.arrayBuffer()).equals(photoBefore)).toBe(true);
  // New rows get new ids after the copied ones (the sequences were moved on).
  const more = await call(server.url, student, 'POST', `/api/conversations/${opened.body.id}/messages`, {
    text: 'And now on PostgreSQL',
  });
  expect(more.status, more.text).toBe(201);
  const goal2 = await call(server.url, student, 'POST', '/api/goals', {
    subject: 'Algebra',
    title: 'Ace the test',
  });
  expect(goal2.status, goal2.text).toBe(201);
  signalServer(server, 'SIGTERM');
  expect(await server.exited).toBe(0);

  const folder = mkdtempSync(join(tmpdir(), 'tutorlane-pg-backup-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  const file = join(folder, 'school.dump');
  const backedUp = await script('backup', [file], onPostgres);
  const restoredFrom = async () => script('restore', [file], onPostgres);
  if (!hasPgDump()) {
    expect(backedUp.code).not.toBe(0);
    expect(backedUp.stderr).toContain('pg_dump is not installed');
    expect(existsSync(file)).toBe(false);
    recordFinding(task, {
      short: 'move to PostgreSQL',
      detail: `moved in ${seconds(moveMs)}; pg_dump not installed here, as the commands say`,
    } satisfies Finding);
    return;
  }
  expect(backedUp.code, backedUp.stderr).toBe(0);
  expect(backedUp.stdout).toContain('pg_dump');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  onTestFinished(() => client.end());
  const countMessages = async () =>
    Number((await client.query('select count(*)::int as n from messages')).rows[0].n);
  expect(await countMessages()).toBe(2);
  await client.query('delete from messages');
  expect(await countMessages()).toBe(0);
  const restored = await restoredFrom();
  expect(restored.code, restored.stderr).toBe(0);
  expect(restored.stdout).toContain('pg_restore');
  expect(await countMessages()).toBe(2);

  recordFinding(task, {
    short: 'move to PostgreSQL',
    detail: `moved in ${seconds(moveMs)} with matching row counts; the same people signed in; pg_dump/pg_restore round trip brought back what was removed; whole test ${seconds(Date.now() - startedAt)}`,
  } satisfies Finding);
});
