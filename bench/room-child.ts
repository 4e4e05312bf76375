/**
 * Row 9, run inside a network namespace that has only loopback (room-figure.ts starts it): a
 * server of its own, a tutor and a student with a lesson starting in two minutes, and two
 * Chromium pages with fake cameras. Each round both join the room; the time from the second
 * "Join now" to the first video frame on both sides is measured, with the signals the two pages
 * sent meanwhile; then both leave. Prints one JSON line: { seconds: [...], signals: [...] }.
 */
import { chromium, type Page } from 'playwright-core';
import { callApi, createAccounts, publishTutor } from './accounts';
import { runCleanup, startTutorlane, tempDir } from './processes';

const ROUNDS = Number(process.env.ROOM_ROUNDS ?? 5);

/** "HH:MM" and "YYYY-MM-DD" of an instant in UTC. */
const utc = (at: number) => {
  const iso = new Date(at).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
};

async function firstRemoteFrame(page: Page, name: string) {
  await page.waitForFunction(
    (label) => {
      const video = document.querySelector<HTMLVideoElement>(`video[aria-label="${label}"]`);
      return Boolean(video && video.videoWidth > 0 && video.getVideoPlaybackQuality().totalVideoFrames > 0);
    },
    name,
    { polling: 'raf', timeout: 30_000 },
  );
}

try {
  const dataDir = tempDir('room');
  const server = await startTutorlane({ dataDir });
  const [tutor, student] = await createAccounts({ url: server.url, dataDir }, [
    { role: 'tutor', name: 'Rhea Room' },
    { role: 'student', name: 'Sid Student' },
  ]);
  if (!tutor || !student) throw new Error('no accounts');
  await publishTutor(server.url, tutor);
  // A window from the next minute for an hour, in UTC; a start after 23:00 waits for the next day.
  const start = Math.ceil((Date.now() + 60_000) / 60_000) * 60_000;
  if (new Date(start).getUTCHours() === 23) throw new Error('run row 9 outside 23:00-24:00 UTC');
  const from = utc(start);
  const to = utc(start + 45 * 60_000);
  await callApi(server.url, '/api/availability', {
    method: 'PUT',
    cookie: tutor.cookie,
    body: {
      timeZone: 'UTC',
      weekly: [],
      overrides: [{ date: from.date, windows: [{ start: from.time, end: to.time }] }],
      lessonMinutes: [30],
      slotStepMinutes: 15,
      minimumNoticeHours: 0,
      bookingHorizonDays: 30,
      bufferMinutes: 0,
      instantBooking: true,
    },
  });
  const lesson = (await callApi(server.url, '/api/lessons', {
    method: 'POST',
    cookie: student.cookie,
    body: { tutorId: tutor.id, start: new Date(start).toISOString(), minutes: 30, subject: 'Algebra' },
  })) as { id: string };

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--allow-loopback-in-peer-connection',
    ],
  });
  const pages = await Promise.all(
    [tutor, student].map(async (who) => {
      const context = await browser.newContext({ baseURL: server.url });
      await context.addCookies(
        who.cookie.split('; ').map((pair) => {
          const at = pair.indexOf('=');
          return { name: pair.slice(0, at), value: pair.slice(at + 1), url: server.url };
        }),
      );
      const page = await context.newPage();
      await page.goto(`/lessons/${lesson.id}/room`);
      return page;
    }),
  );
  const [tutorPage, studentPage] = pages as [Page, Page];
  let signals = 0;
  for (const page of pages)
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/room/signal')) signals += 1;
    });

  const seconds: number[] = [];
  const counts: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const page of pages) await page.getByRole('button', { name: 'Join now' }).waitFor();
    await tutorPage.getByRole('button', { name: 'Join now' }).click();
    await tutorPage.getByRole('status').filter({ hasText: 'Waiting for' }).waitFor();
    signals = 0;
    const joined = performance.now();
    await studentPage.getByRole('button', { name: 'Join now' }).click();
    await Promise.all([
      firstRemoteFrame(tutorPage, 'Sid Student’s video'),
      firstRemoteFrame(studentPage, 'Rhea Room’s video'),
    ]);
    seconds.push((performance.now() - joined) / 1000);
    counts.push(signals);
    for (const page of pages) await page.getByRole('button', { name: 'Leave' }).click();
  }
  await browser.close();
  process.stdout.write(`${JSON.stringify({ seconds, signals: counts })}\n`);
} finally {
  await runCleanup();
}
