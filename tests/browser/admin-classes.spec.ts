/**
 * The console's classes: a tutor's class with two students enrolled (set up through the API), the
 * seeded admin opens "Classes" from the console's navigation and removes one student for a
 * reason, in a confirmation dialog; the class then lists only the other, and its tutor's
 * schedule shows the session once, with the seats held.
 */
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  secondBrowser,
  seededPair,
  signInAs,
  test,
  unique,
} from './fixtures';

const DAY = 24 * 60 * 60 * 1000;

test('an admin removes a student from a class, for a reason', { tag: '@phone' }, async ({
  page,
  browser,
}) => {
  // Both widths run against one server, and a retry meets the class its first attempt made: each
  // attempt its own class, which the admin tells apart.
  const title = `Titration circle ${unique()}`;
  await createAccount(page, { role: 'tutor', displayName: 'Cleo Classes' });
  const profile = await page.request.patch('/api/profile/details', {
    data: {
      headline: 'Chemistry in small groups',
      about: 'Patient lessons, step by step.',
      subjects: ['Chemistry'],
      hourlyRate: 40,
      languages: ['English'],
    },
  });
  expect(profile.status()).toBe(200);
  const hours = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '09:00', end: '17:00' }));
  const saved = await page.request.put('/api/availability', {
    data: {
      timeZone: 'Europe/Madrid',
      weekly: hours,
      overrides: [],
      lessonMinutes: [60],
      slotStepMinutes: 60,
      minimumNoticeHours: 0,
      bookingHorizonDays: 30,
      bufferMinutes: 0,
      instantBooking: true,
    },
  });
  expect(saved.status()).toBe(200);
  // A whole hour, three days ahead.
  const start = new Date(Math.ceil((Date.now() + 3 * DAY) / 3_600_000) * 3_600_000).toISOString();
  const made = await page.request.post('/api/classes', {
    data: {
      title,
      subject: 'Chemistry',
      language: 'English',
      description: 'Small groups, real lab questions.',
      minutes: 60,
      seats: 3,
      minStudents: 1,
      priceCents: 0,
      sessions: [start],
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const classId = (await made.json()).class.id as string;
  for (const displayName of ['Rita Removed', 'Kim Kept']) {
    const learner = await secondBrowser(browser);
    await createAccount(learner, { role: 'student', displayName });
    expect((await learner.request.post(`/api/classes/${classId}/enrol`)).status()).toBe(201);
  }

  const admin = await secondBrowser(browser);
  await signInAs(admin, seededPair().admin);
  await admin.goto('/admin');
  await admin
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link', { name: 'Classes' })
    .click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Classes' })).toBeVisible();
  const card = admin.getByRole('article', { name: new RegExp(`^${title}`) });
  await expect(card).toContainText('2 of 3 taken');
  await expectNoAccessibilityViolations(admin);

  await card.getByRole('button', { name: 'Remove Rita Removed' }).click();
  const dialog = admin.getByRole('dialog', { name: `Remove Rita Removed from ${title}?` });
  // The reason is required.
  await dialog.getByRole('button', { name: 'Remove the student' }).click();
  await expect(dialog).toContainText('Please give a reason');
  await dialog.getByRole('textbox', { name: 'Reason (required)' }).fill('Asked us to, by phone');
  await dialog.getByRole('button', { name: 'Remove the student' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    admin.getByRole('status').filter({ hasText: `Removed Rita Removed from ${title}` }),
  ).toBeVisible();
  await expect(card).toContainText('1 of 3 taken');
  await expect(card).not.toContainText('Rita Removed');
  await expect(card).toContainText('Kim Kept');

  // The tutor's schedule holds the session once, with the seat still held.
  await page.goto('/schedule');
  await expect(page.getByRole('link', { name: title }).first()).toHaveAttribute(
    'href',
    `/classes/${classId}`,
  );
  await expect(page.getByText('1 of 3 students').first()).toBeVisible();
});
