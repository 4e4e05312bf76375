/**
 * A proposed new time on /schedule: the tutor proposes one with the slot picker and an optional
 * note; the student sees it on the lesson, in their own zone, and accepts it; the lesson is then
 * at that time.
 */
import { Temporal } from 'temporal-polyfill';
import { createAccount, expect, expectNoAccessibilityViolations, secondBrowser, test } from './fixtures';

const TUTOR_ZONE = 'America/New_York';
const STUDENT_ZONE = 'Europe/Berlin';

test.use({ timezoneId: TUTOR_ZONE });

test('the tutor proposes a new time; the student sees it and accepts it', async ({ page, browser }) => {
  await createAccount(page, { role: 'tutor', displayName: 'Tess Tutor' });
  const profile = await page.request.patch('/api/profile/details', {
    data: {
      headline: 'Algebra',
      about: 'Patient.',
      subjects: ['Algebra'],
      hourlyRate: 40,
      languages: ['English'],
    },
  });
  expect(profile.status()).toBe(200);
  const saved = await page.request.put('/api/availability', {
    data: {
      timeZone: TUTOR_ZONE,
      weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '08:00', end: '20:00' })),
      overrides: [],
      lessonMinutes: [60],
      slotStepMinutes: 60,
      minimumNoticeHours: 0,
      bookingHorizonDays: 30,
      bufferMinutes: 0,
      instantBooking: true,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const tutorId = (await (await page.request.get('/api/session')).json()).user.id as string;
  const start = Temporal.Now.zonedDateTimeISO(TUTOR_ZONE)
    .toPlainDate()
    .add({ days: 3 })
    .toZonedDateTime({ timeZone: TUTOR_ZONE, plainTime: Temporal.PlainTime.from('10:00') }).epochMilliseconds;
  const student = await secondBrowser(browser, STUDENT_ZONE);
  await createAccount(student, { role: 'student', displayName: 'Sam Student' });
  const booked = await student.request.post('/api/lessons', {
    data: { tutorId, start: new Date(start).toISOString(), minutes: 60, subject: 'Algebra' },
  });
  expect(booked.status(), await booked.text()).toBe(201);

  await page.goto('/schedule');
  const lesson = page.getByRole('region', { name: 'Upcoming lessons' }).getByRole('listitem').first();
  await lesson.getByRole('button', { name: 'Propose a new time' }).click();
  await lesson.getByLabel('Note (optional)').fill('Could we meet later that day?');
  await lesson
    .getByRole('button', { name: /^\d\d:\d\d$/ })
    .last()
    .click();
  await lesson.getByRole('button', { name: /^Propose \w+day, / }).click();
  await expect(page.getByRole('status').filter({ hasText: /^New time proposed/ })).toBeVisible();

  await student.goto('/schedule');
  const seen = student.getByRole('region', { name: 'Proposed new time' });
  await expect(seen).toContainText('Tess Tutor proposes moving this lesson to');
  await expect(seen).toContainText('Their note: Could we meet later that day?');
  await expectNoAccessibilityViolations(student);
  await seen.getByRole('button', { name: 'Accept new time' }).click();
  await expect(student.getByRole('status').filter({ hasText: /^New time accepted/ })).toBeVisible();
  await expect(student.getByRole('region', { name: 'Proposed new time' })).toHaveCount(0);
});
