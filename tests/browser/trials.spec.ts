/**
 * Trial lessons and "Book again" as a student meets them: a tutor's card and page show the trial
 * and its price, the booking box offers it as a choice and books it (then no longer offers it);
 * "Book again" on the dashboard opens the tutor's page with the same length, subject and time a
 * week on already chosen, on its day in the student's saved zone even where the browser's differs.
 */
import { createAccount, expect, secondBrowser, seededPair, signInAs, test } from './fixtures';

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

const openHours = {
  timeZone: ZONE,
  weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '00:00', end: '24:00' })),
  overrides: [],
  lessonMinutes: [60],
  slotStepMinutes: 30,
  minimumNoticeHours: 0,
  bookingHorizonDays: 60,
  bufferMinutes: 0,
  instantBooking: true,
};

test('a student finds a tutor by their trial, and books it from the page', async ({ page, browser }) => {
  const name = `Tia Trial${Date.now() % 100_000}`;
  const tutorPage = await secondBrowser(browser, ZONE);
  await createAccount(tutorPage, { role: 'tutor', displayName: name });
  const profile = await tutorPage.request.patch('/api/profile/details', {
    data: {
      headline: 'A first half hour to see if we fit',
      about: 'Patient, clear, practical.',
      subjects: ['Spanish', 'Guitar'],
      hourlyRate: 40,
      languages: ['English'],
      timeZone: ZONE,
    },
  });
  expect(profile.status()).toBe(200);
  const hours = await tutorPage.request.put('/api/availability', {
    data: { ...openHours, trial: { offered: true, priceCents: 1000 } },
  });
  expect(hours.status(), await hours.text()).toBe(200);
  await tutorPage.context().close();

  await createAccount(page, { role: 'student' });
  await page.goto(`/tutors?q=${encodeURIComponent(name)}&trial=true`);
  const card = page.getByRole('article').filter({ hasText: name });
  await expect(card).toContainText('Trial $10');
  await card.getByRole('link', { name }).click();

  await expect(page.getByText('Trial lesson: 30 minutes · $10')).toBeVisible();
  const booking = page.getByRole('region', { name: 'Book a lesson' });
  const length = booking.getByLabel('Lesson length');
  await length.selectOption({ label: 'Trial lesson (30 min, $10)' });
  await booking
    .getByRole('button', { name: /^\d\d:\d\d$/ })
    .first()
    .click();
  await expect(booking.getByText(/^Trial lesson · 30 min · \$10/)).toBeVisible();
  // Two subjects and no search for one: the student chooses.
  await booking.getByLabel('Subject').selectOption('Guitar');
  await booking.getByRole('button', { name: 'Confirm booking' }).click();
  await expect(booking.getByRole('status').filter({ hasText: 'Booked' })).toBeVisible();
  // One trial per tutor: the choice is gone.
  await expect(length).toHaveCount(0);
});

test('"Book again" opens the tutor with the same length, subject and time a week on chosen', async ({
  page,
  browser,
}) => {
  const pair = seededPair();
  const tutorPage = await secondBrowser(browser, ZONE);
  await signInAs(tutorPage, pair.tutor);
  const hours = await tutorPage.request.put('/api/availability', { data: openHours });
  expect(hours.status(), await hours.text()).toBe(200);
  await tutorPage.context().close();

  await signInAs(page, pair.student);
  await page.goto('/dashboard');
  const again = page.getByRole('link', { name: `Book ${pair.subject} with ${pair.tutor.displayName} again` });
  await again.first().click();
  await expect(page).toHaveURL(/minutes=60/);
  const booking = page.getByRole('region', { name: 'Book a lesson' });
  await expect(booking.getByRole('button', { pressed: true })).toBeVisible();
  const subject = booking.getByLabel('Subject');
  if (await subject.count()) await expect(subject).toHaveValue(pair.subject);
  await expect(booking.getByRole('button', { name: 'Confirm booking' })).toBeVisible();

  // Half past eleven at night in the student's saved zone (UTC) is already the next day in this
  // browser's (Berlin): a link to that time opens on its day in the saved zone, with it chosen.
  const today = new Date();
  const late = new Date(
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 3, 23, 30),
  );
  const dayLabel = new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(late);
  await page.goto(`/tutors/${pair.tutor.id}?minutes=60&start=${late.toISOString()}`);
  await expect(booking.getByText('Times are in Coordinated Universal Time (UTC).')).toBeVisible();
  await expect(booking.getByRole('radio', { name: new RegExp(`^${dayLabel},`) })).toBeChecked();
  await expect(booking.getByRole('button', { name: '23:30', pressed: true })).toBeVisible();
});
