/**
 * The lesson room between two browsers with Chromium's fake camera and microphone: both join,
 * each sees the other's video playing, Mute shows on the other side, a chat line arrives, one
 * leaves and the other sees it, then rejoins; a stranger gets the Not Found page. Media stays on
 * loopback: the suite runs in a network namespace that has nothing else (scripts/loopback-only.sh).
 */
import { expectPlaying, publishTutorSoon, withFakeMedia } from './calls';
import { createAccount, expect, expectNoAccessibilityViolations, secondBrowser, test } from './fixtures';

withFakeMedia();

test('a tutor and a student meet in the lesson room: video both ways, mute, chat, leaving and rejoining', {
  tag: '@phone',
}, async ({ page, browser }) => {
  // The tutor offers a window starting in two minutes, in a zone where it stays within the day.
  await createAccount(page, { role: 'tutor', displayName: 'Rosa Room' });
  const { start, tutorId } = await publishTutorSoon(page);

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
