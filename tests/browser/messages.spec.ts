/**
 * Messages between two browsers: a student writes to a tutor from the tutor's page, the tutor's
 * unread count rises without a reload and falls once the conversation is read, the answer arrives
 * live in the student's open thread, links are links, and the composer works by keyboard.
 */
import type { Page } from '@playwright/test';
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  isNavFolded,
  openMenuIfCollapsed,
  secondBrowser,
  test,
} from './fixtures';

/** The nav's Messages link, with its unread count in its name. */
async function messagesLink(page: Page) {
  await openMenuIfCollapsed(page);
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Messages/ });
}

test('a student writes to a tutor, who answers live; the unread count rises and falls', {
  tag: '@phone',
}, async ({ page, browser }) => {
  // The tutor: a published profile, waiting on the dashboard.
  await createAccount(page, { role: 'tutor', displayName: 'Mira Messenger' });
  expect(
    (
      await page.request.patch('/api/profile/details', {
        data: {
          headline: 'Chemistry, calmly',
          about: 'Patient lessons.',
          subjects: ['Chemistry'],
          hourlyRate: 40,
          languages: ['English'],
        },
      })
    ).status(),
  ).toBe(200);
  const tutorId = (await (await page.request.get('/api/session')).json()).user.id as string;
  await page.goto('/dashboard');
  await expect(await messagesLink(page)).toHaveAccessibleName('Messages');

  // The student asks a question from the tutor's page.
  const student = await secondBrowser(browser);
  await createAccount(student, { role: 'student', displayName: 'Sol Student' });
  await student.goto(`/tutors/${tutorId}`);
  await student.getByRole('link', { name: 'Message', exact: true }).click();
  await expect(student.getByRole('heading', { name: 'New message to Mira Messenger' })).toBeVisible();
  const studentBox = student.getByRole('textbox', { name: 'Message Mira Messenger' });
  await expect(studentBox).toBeFocused();
  await expectNoAccessibilityViolations(student);
  await studentBox.fill('Hello! My notes are at https://example.com/notes');
  await studentBox.press('Enter');
  await expect(student).toHaveURL(/\/messages\/[\w-]+$/);
  const studentLog = student.getByRole('log', { name: 'Messages with Mira Messenger' });
  await expect(studentLog).toContainText('Hello! My notes are at');
  const studentComposer = student.getByRole('textbox', { name: 'Message Mira Messenger' });
  await expect(studentComposer).toHaveValue('');

  // Sent from the first screen, the writer stays in the box of the conversation it started.
  await expect(studentComposer).toBeFocused();

  // The tutor's count rises without a reload.
  await expect(await messagesLink(page)).toHaveAccessibleName(/^Messages\s*1 unread$/);
  await (await messagesLink(page)).click();
  const inbox = page.getByRole('navigation', { name: 'Conversations' });
  const row = inbox.getByRole('link', { name: /Sol Student/ });
  await expect(row).toContainText('1 unread');
  await row.click();

  // Reading the conversation clears the count; the address is a link that tells the other site nothing.
  const tutorLog = page.getByRole('log', { name: 'Messages with Sol Student' });
  const link = tutorLog.getByRole('link', { name: 'https://example.com/notes' });
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(await messagesLink(page)).toHaveAccessibleName('Messages');
  if (isNavFolded(page)) await page.getByRole('button', { name: 'Toggle menu' }).click();
  await expectNoAccessibilityViolations(page);

  // The tutor answers in two lines (Shift+Enter), sent by Enter; the box keeps focus.
  const tutorBox = page.getByRole('textbox', { name: 'Message Sol Student' });
  await tutorBox.click();
  await tutorBox.pressSequentially('Welcome, Sol.');
  await tutorBox.press('Shift+Enter');
  await tutorBox.pressSequentially('When would you like to start?');
  await tutorBox.press('Enter');
  await expect(tutorLog).toContainText('When would you like to start?');
  await expect(tutorBox).toBeFocused();
  await expect(tutorBox).toHaveValue('');

  // The student's open thread receives it live, with its line break, and counts nothing unread.
  const answer = studentLog.getByRole('listitem').filter({ hasText: 'Welcome, Sol.' });
  await expect(answer).toContainText('Welcome, Sol.\nWhen would you like to start?');
  await expect(await messagesLink(student)).toHaveAccessibleName('Messages');
  await student.context().close();
});

test('an empty inbox says how to start; message mails turn off on the profile; a stranger’s link says not found', {
  tag: '@phone',
}, async ({ page }) => {
  const phone = (page.viewportSize()?.width ?? 1280) < 768;
  await createAccount(page, { role: 'student' });
  await page.goto('/messages');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toContainText(
    'No conversations yet.',
  );
  await expect(page.getByRole('link', { name: 'Find a tutor' })).toHaveAttribute('href', '/tutors');
  await expectNoAccessibilityViolations(page);

  // Mail about unread messages is on until the person turns it off on their profile.
  await page.goto('/profile');
  const mails = page.getByRole('checkbox', { name: 'Email me about unread messages' });
  await expect(mails).toBeChecked();
  await mails.uncheck();
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByRole('status')).toContainText('saved');
  expect(await (await page.request.get('/api/profile/details')).json()).toMatchObject({
    messageMails: false,
  });

  await page.goto('/messages/not-a-conversation');
  await expect(page.getByRole('heading', { name: 'Conversation not found' })).toBeVisible();
  // A phone shows the conversation's screen alone; a wider screen keeps the inbox beside it.
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toBeVisible({ visible: !phone });
});

test('a message over the limit is kept whole, counted and refused before it is sent', async ({
  page,
  browser,
}) => {
  const tutor = await secondBrowser(browser);
  await createAccount(tutor, { role: 'tutor', displayName: 'Lena Limit' });
  expect(
    (
      await tutor.request.patch('/api/profile/details', {
        data: {
          headline: 'Long answers',
          about: 'Patient lessons.',
          subjects: ['Chemistry'],
          hourlyRate: 30,
          languages: ['English'],
        },
      })
    ).status(),
  ).toBe(200);
  const tutorId = (await (await tutor.request.get('/api/session')).json()).user.id as string;
  await tutor.context().close();

  await createAccount(page, { role: 'student' });
  await page.goto(`/messages?to=${tutorId}`);
  const box = page.getByRole('textbox', { name: 'Message Lena Limit' });
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/conversations')) sent.push(request.url());
  });

  // Far from the limit, no count; near it, the count, also said politely once the typing pauses.
  await box.fill('x'.repeat(1700));
  await expect(page.getByText(/\/ 2,000/)).toHaveCount(0);
  await box.fill('x'.repeat(1950));
  await expect(page.getByText('1,950 / 2,000', { exact: true })).toBeVisible();
  await expect(box).toHaveAccessibleDescription(/1,950 of 2,000 characters/);
  await expect(page.getByText('50 characters left', { exact: true })).toHaveCount(1);

  // Pasted over the limit: nothing is cut, and Enter says why it is not sent.
  const long = 'y'.repeat(2012);
  await box.fill(long);
  await expect(box).toHaveValue(long);
  await expect(page.getByText('2,012 / 2,000: 12 too many', { exact: true })).toBeVisible();
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await box.press('Enter');
  await expect(page.getByRole('alert')).toHaveText(
    'A message can be at most 2,000 characters; this one has 2,012. Please shorten it by 12.',
  );
  await expect(box).toHaveValue(long);
  await expect(box).toBeFocused();
  expect(sent).toEqual([]);
  await expectNoAccessibilityViolations(page);
  await page.screenshot({ path: test.info().outputPath('composer-over-limit.png') });

  // Shortened to fit, it goes.
  await box.press('Control+End');
  for (let i = 0; i < 12; i += 1) await box.press('Backspace');
  await expect(page.getByText('2,000 / 2,000', { exact: true })).toBeVisible();
  await box.press('Enter');
  await expect(page).toHaveURL(/\/messages\/[\w-]+$/);
  await expect(page.getByRole('log', { name: 'Messages with Lena Limit' })).toContainText('y'.repeat(100));
});

test('a class’s conversation shows its title and members, and each line under its writer’s name', {
  tag: '@phone',
}, async ({ page, browser }) => {
  // The tutor, published, makes a class: its conversation comes with it.
  await createAccount(page, { role: 'tutor', displayName: 'Clara Class' });
  const details = {
    headline: 'Algebra in a circle',
    about: 'Past papers, together.',
    subjects: ['Algebra'],
    hourlyRate: 30,
    languages: ['English'],
  };
  expect((await page.request.patch('/api/profile/details', { data: details })).status()).toBe(200);
  const weekly = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '08:00', end: '20:00' }));
  const availability = {
    timeZone: 'Europe/Madrid',
    weekly,
    overrides: [],
    lessonMinutes: [60],
    slotStepMinutes: 30,
    minimumNoticeHours: 0,
    bookingHorizonDays: 60,
    bufferMinutes: 0,
    instantBooking: true,
  };
  expect((await page.request.put('/api/availability', { data: availability })).status()).toBe(200);
  const start = new Date(Date.now() + 5 * 24 * 60 * 60 * 1000);
  start.setUTCHours(15, 0, 0, 0);
  const made = await page.request.post('/api/classes', {
    data: {
      title: 'Exam prep circle',
      subject: 'Algebra',
      language: 'English',
      description: 'Past papers, together.',
      minutes: 60,
      seats: 3,
      minStudents: 1,
      priceCents: 0,
      sessions: [start.toISOString()],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const classId = ((await made.json()) as { class: { id: string } }).class.id;

  // A student enrols, and finds the class among their conversations.
  const student = await secondBrowser(browser);
  await createAccount(student, { role: 'student', displayName: 'Ana Group' });
  expect((await student.request.post(`/api/classes/${classId}/enrol`)).status()).toBe(201);
  await student.goto('/messages');
  const row = student.getByRole('navigation', { name: 'Conversations' }).getByRole('link', {
    name: /Exam prep circle/,
  });
  await expect(row).toContainText('Class');
  await row.click();
  await expect(student.getByRole('heading', { name: /Exam prep circle/ })).toBeVisible();
  await expect(student.getByText('Clara Class (tutor), You')).toBeVisible();
  // A group has no one person to block.
  await expect(student.getByRole('button', { name: 'Block' })).toHaveCount(0);
  const box = student.getByRole('textbox', { name: 'Message Exam prep circle' });
  await box.fill('Hello everyone!');
  await box.press('Enter');

  // The tutor reads it under Ana's name, and answers live.
  await page.goto('/messages');
  await page
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('link', { name: /Exam prep circle/ })
    .click();
  const tutorLog = page.getByRole('log', { name: 'Messages in Exam prep circle' });
  await expect(tutorLog.getByRole('listitem').filter({ hasText: 'Hello everyone!' })).toContainText(
    'Ana Group',
  );
  await page.getByRole('textbox', { name: 'Message Exam prep circle' }).fill('Welcome, Ana.');
  await page.getByRole('textbox', { name: 'Message Exam prep circle' }).press('Enter');
  const studentLog = student.getByRole('log', { name: 'Messages in Exam prep circle' });
  await expect(studentLog.getByRole('listitem').filter({ hasText: 'Welcome, Ana.' })).toContainText(
    'Clara Class',
  );
  // Nothing spills sideways at a phone's width.
  expect(await student.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectNoAccessibilityViolations(student);
  await student.context().close();
});
