/**
 * The lesson room between two browsers with Chromium's fake camera and microphone: both join,
 * each sees the other's video playing, Mute shows on the other side, a chat line arrives, one
 * leaves and the other sees it, then rejoins; a stranger gets the Not Found page. Media stays on
 * loopback: the suite runs in a network namespace that has nothing else (scripts/loopback-only.sh).
 */
import type { Page } from '@playwright/test';
import { chromiumFlags, fullChromiumPath } from './chromium';
import { createAccount, expect, expectNoAccessibilityViolations, secondBrowser, test } from './fixtures';

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

/** Frames the named video has decoded so far (0 until it plays something). */
const framesOf = (page: Page, name: string) =>
  page
    .getByRole('region', { name: 'Video' })
    .locator(`video[aria-label="${name}"]`)
    .evaluate((video: HTMLVideoElement) =>
      video.videoWidth > 0 ? video.getVideoPlaybackQuality().totalVideoFrames : 0,
    );

async function expectPlaying(page: Page, name: string) {
  await expect.poll(() => framesOf(page, name), { timeout: 30_000 }).toBeGreaterThan(0);
  const before = await framesOf(page, name);
  await expect.poll(() => framesOf(page, name), { timeout: 10_000 }).toBeGreaterThan(before);
}

test('a tutor and a student meet in the lesson room: video both ways, mute, chat, leaving and rejoining', {
  tag: '@phone',
}, async ({ page, browser }) => {
  // The tutor offers a window starting in two minutes, in a zone where it stays within the day.
  await createAccount(page, { role: 'tutor', displayName: 'Rosa Room' });
  expect(
    (
      await page.request.patch('/api/profile/details', {
        data: {
          headline: 'Live lessons',
          about: 'Patient.',
          subjects: ['Physics'],
          hourlyRate: 30,
          languages: ['English'],
        },
      })
    ).status(),
  ).toBe(200);
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

  const student = await secondBrowser(browser);
  await createAccount(student, { role: 'student', displayName: 'Sami Student' });
  const booked = await student.request.post('/api/lessons', {
    data: { tutorId, start: new Date(start).toISOString(), minutes: 30, subject: 'Physics' },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const lessonId = (await booked.json()).id as string;

  // The schedule offers Join, since the room is open.
  await student.goto('/schedule');
  await student.getByRole('region', { name: 'Upcoming lessons' }).getByRole('link', { name: 'Join' }).click();
  await expect(student).toHaveURL(new RegExp(`/lessons/${lessonId}/room$`));
  await expect(student.getByRole('heading', { name: 'Ready to join?' })).toBeVisible();
  await expect(student.getByRole('button', { name: 'Join now' })).toBeEnabled();
  await expectNoAccessibilityViolations(student);
  await student.getByRole('button', { name: 'Join now' }).click();
  await expect(student.getByRole('status').filter({ hasText: 'Waiting for Rosa Room' })).toBeVisible();

  await page.goto(`/lessons/${lessonId}/room`);
  await page.getByRole('button', { name: 'Join now' }).click();

  // Video both ways.
  await expectPlaying(page, 'Sami Student’s video');
  await expectPlaying(student, 'Rosa Room’s video');
  await expect(page.getByRole('status').filter({ hasText: 'Connected with Sami Student.' })).toBeVisible();
  await expectNoAccessibilityViolations(page);

  // Mute is a toggle, and the other side is told.
  const mute = student.getByRole('button', { name: 'Mute' });
  await expect(mute).toHaveAttribute('aria-pressed', 'false');
  await mute.click();
  await expect(mute).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Sami Student is muted.' })).toBeVisible();
  await student.getByRole('button', { name: 'Stop video' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sami Student’s camera is off.' })).toBeVisible();

  // A chat line arrives, and stays with the lesson.
  const chat = student.getByRole('textbox', { name: 'Chat message' });
  await chat.fill('Can you see my notes?');
  await chat.press('Enter');
  await expect(page.getByRole('log', { name: 'Lesson chat lines' })).toContainText('Can you see my notes?');
  await expect(chat).toBeFocused();

  // A stranger is told the room does not exist.
  const stranger = await secondBrowser(browser);
  await createAccount(stranger, { role: 'student', displayName: 'Nosy Neighbour' });
  await stranger.goto(`/lessons/${lessonId}/room`);
  await expect(stranger.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await stranger.context().close();

  // The student leaves; the tutor sees it.
  await student.getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sami Student left the lesson.' })).toBeVisible();
  // And comes back: the call starts again by itself.
  await student.getByRole('button', { name: 'Join now' }).click();
  await expectPlaying(page, 'Sami Student’s video');
  await expect(page.getByRole('status').filter({ hasText: 'Connected with Sami Student.' })).toBeVisible();
  await student.context().close();
});
