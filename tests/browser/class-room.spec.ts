/**
 * A class session's room with three people in three browsers (Chromium's fake camera and
 * microphone): the tutor and two students join, each sees the two others' videos playing (a mesh:
 * one connection per pair), the tutor mutes a student for everyone, the student is told and
 * unmutes, a chat line reaches everyone, and a stranger gets the Not Found page. Media stays on
 * loopback: the suite runs in a network namespace that has nothing else (scripts/loopback-only.sh).
 */
import type { Page } from '@playwright/test';
import { expectPlaying, publishTutorSoon, withFakeMedia } from './calls';
import { createAccount, expect, expectNoAccessibilityViolations, secondBrowser, test } from './fixtures';

withFakeMedia();

const status = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Video' }).getByRole('status').filter({ hasText: text });

test(
  'a tutor and two students meet in a class room: every camera, muting for everyone, the chat',
  {
    tag: '@phone',
  },
  async ({ page: tutor, browser }, testInfo) => {
    // Four accounts (an argon2id hash each), three browsers and six connections on two cores.
    test.slow();
    await createAccount(tutor, { role: 'tutor', displayName: 'Rosa Room' });
    const { start } = await publishTutorSoon(tutor);
    const made = await tutor.request.post('/api/classes', {
      data: {
        title: 'Physics circle',
        subject: 'Physics',
        language: 'English',
        description: 'Forces, together.',
        minutes: 30,
        seats: 3,
        minStudents: 1,
        priceCents: 0,
        sessions: [new Date(start).toISOString()],
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    const created = (await made.json()).class as { id: string; sessions: { id: string }[] };
    const room = `/classes/${created.id}/sessions/${created.sessions[0]?.id}/room`;

    const students: Page[] = [];
    for (const displayName of ['Ana Alvarez', 'Ben Brook']) {
      const student = await secondBrowser(browser);
      await createAccount(student, { role: 'student', displayName });
      const enrolled = await student.request.post(`/api/classes/${created.id}/enrol`);
      expect(enrolled.status(), await enrolled.text()).toBe(201);
      students.push(student);
    }
    const [ana, ben] = students as [Page, Page];

    // Everyone joins; each sees the two others.
    for (const page of [tutor, ana, ben]) {
      await page.goto(room);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Physics circle');
      await page.getByRole('button', { name: 'Join now' }).click();
    }
    const everyone = { 'Rosa Room': tutor, 'Ana Alvarez': ana, 'Ben Brook': ben };
    for (const [name, page] of Object.entries(everyone))
      for (const other of Object.keys(everyone).filter((other) => other !== name))
        await expectPlaying(page, `${other}’s video`);
    await expect(status(tutor, 'Connected with Ana Alvarez.')).toBeVisible();
    await expect(status(tutor, 'Connected with Ben Brook.')).toBeVisible();
    await expectNoAccessibilityViolations(tutor);

    // The tutor mutes Ana for everyone: she is told who did it, Ben sees it, and she may unmute.
    await tutor.getByRole('button', { name: 'Mute Ana Alvarez for everyone' }).click();
    await expect(ana.getByText('Rosa Room muted your microphone for everyone.')).toBeVisible();
    await expect(ana.getByRole('button', { name: 'Mute', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(status(ben, 'Ana Alvarez is muted.')).toBeVisible();
    await expect(status(tutor, 'Ana Alvarez is muted.')).toBeVisible();
    // Students have no such button: only the tutor mutes others.
    await expect(ben.getByRole('button', { name: /for everyone/ })).toHaveCount(0);
    await ana.getByRole('button', { name: 'Unmute' }).click();
    await expect(ana.getByRole('button', { name: 'Mute', exact: true })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await expect(status(ben, 'Ana Alvarez is muted.')).toHaveCount(0);

    // A chat line reaches everyone, and stays with the session.
    const chat = ben.getByRole('textbox', { name: 'Chat message' });
    await chat.fill('Is the second diagram on the board?');
    await chat.press('Enter');
    for (const page of [tutor, ana])
      await expect(page.getByRole('log', { name: 'Class chat lines' })).toContainText(
        'Is the second diagram on the board?',
      );

    const width = tutor.viewportSize()?.width;
    for (const [name, page] of Object.entries(everyone))
      await page.screenshot({
        path: testInfo.outputPath(`class-room-${width}-${name.split(' ')[0]}.png`),
        fullPage: true,
      });

    // A stranger is told the room does not exist.
    const stranger = await secondBrowser(browser);
    await createAccount(stranger, { role: 'student', displayName: 'Nosy Neighbour' });
    await stranger.goto(room);
    await expect(stranger.getByRole('heading', { level: 1 })).toHaveText('Page not found');

    // Ben leaves: the others see it.
    await ben.getByRole('button', { name: 'Leave' }).click();
    await expect(status(tutor, 'Ben Brook left the room.')).toBeVisible();
    await expect(status(ana, 'Ben Brook left the room.')).toBeVisible();
    for (const page of [ana, ben, stranger]) await page.context().close();
  },
);
