/**
 * What the room specs share: Chromium's fake camera and microphone (the full browser: the
 * headless shell counts no decoded frame of a remote video), the rule that media flows only inside
 * a loopback-only network namespace (scripts/loopback-only.sh), a tutor published with a window
 * starting in a minute or two, and a check that a named video really plays.
 */
import type { Page } from '@playwright/test';
import { chromiumFlags, fullChromiumPath } from './chromium';
import { expect, test } from './fixtures';

/** Skips the spec outside the loopback-only namespace, and launches Chromium with fake media. */
export function withFakeMedia() {
  test.skip(
    process.env.LOOPBACK_ONLY !== '1',
    'WebRTC media may only flow inside a loopback-only network namespace (scripts/loopback-only.sh)',
  );
  test.use({
    launchOptions: {
      executablePath: fullChromiumPath,
      args: [
        ...chromiumFlags,
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        '--allow-loopback-in-peer-connection',
      ],
    },
  });
}

/** A zone where the next hour does not cross midnight, so a lesson can start in a minute or two. */
function zoneAwayFromMidnight(): string {
  for (const zone of ['UTC', 'Asia/Tokyo']) {
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: zone }).format(),
    );
    if (hour < 22) return zone;
  }
  return 'America/New_York';
}

/** "HH:MM" and "YYYY-MM-DD" of an instant in a zone. */
function local(at: number, zone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/**
 * Publishes the signed-in tutor (Physics, in English) with a window of an hour starting on the
 * minute after next, in a zone where it stays within the day; answers that start and their id.
 */
export async function publishTutorSoon(page: Page) {
  const details = {
    headline: 'Live lessons',
    about: 'Patient.',
    subjects: ['Physics'],
    hourlyRate: 30,
    languages: ['English'],
  };
  expect((await page.request.patch('/api/profile/details', { data: details })).status()).toBe(200);
  const zone = zoneAwayFromMidnight();
  const start = Math.ceil((Date.now() + 2 * 60_000) / 60_000) * 60_000;
  const from = local(start, zone);
  const to = local(start + 60 * 60_000, zone);
  const saved = await page.request.put('/api/availability', {
    data: {
      timeZone: zone,
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
  expect(saved.status(), await saved.text()).toBe(200);
  const tutorId = (await (await page.request.get('/api/session')).json()).user.id as string;
  return { start, tutorId };
}

/** Frames the named video has decoded so far (0 until it plays something). */
const framesOf = (page: Page, name: string) =>
  page
    .getByRole('region', { name: 'Video' })
    .locator(`video[aria-label="${name}"]`)
    .evaluate((video: HTMLVideoElement) =>
      video.videoWidth > 0 ? video.getVideoPlaybackQuality().totalVideoFrames : 0,
    );

/** The named video shows frames, and keeps showing new ones. */
export async function expectPlaying(page: Page, name: string) {
  await expect.poll(() => framesOf(page, name), { timeout: 30_000 }).toBeGreaterThan(0);
  const before = await framesOf(page, name);
  await expect.poll(() => framesOf(page, name), { timeout: 10_000 }).toBeGreaterThan(before);
}
