/**
 * A weekly series from the booking box, at 1280 and 390 px: the student chooses a time, asks for it
 * every week for 4 weeks, sees the weeks to be booked and the one skipped (the tutor's day off)
 * before confirming, and then finds the lessons, marked weekly, on /schedule.
 */
import type { Browser } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { clockLabel, lessonTimeLabel, shortDayLabel } from '../../src/shared/lessons/lesson-times';
import { createAccount, expect, expectNoAccessibilityViolations, secondBrowser, test } from './fixtures';

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

const HOUR = 60 * 60 * 1000;
const today = () => Temporal.Now.plainDateISO(ZONE);
const at = (date: Temporal.PlainDate, time: string) =>
  date.toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;

/** A published tutor of Spanish, open 09:00-21:00 every day but `dayOff`, in the test's zone. */
async function weeklyTutor(browser: Browser, name: string, dayOff: Temporal.PlainDate): Promise<string> {
  const page = await secondBrowser(browser, ZONE);
  await createAccount(page, { role: 'tutor', displayName: name });
  const profile = await page.request.patch('/api/profile/details', {
    data: {
      headline: `${name.split(' ')[0]} teaches every week`,
      about: 'Steady practice, week by week.',
      subjects: ['Spanish'],
      hourlyRate: 40,
      languages: ['English'],
      timeZone: ZONE,
    },
  });
  expect(profile.status()).toBe(200);
  const hours = await page.request.put('/api/availability', {
    data: {
      timeZone: ZONE,
      weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '09:00', end: '21:00' })),
      overrides: [{ date: dayOff.toString(), windows: [] }],
      lessonMinutes: [60],
      slotStepMinutes: 30,
      minimumNoticeHours: 0,
      bookingHorizonDays: 60,
      bufferMinutes: 0,
      instantBooking: true,
    },
  });
  expect(hours.status(), await hours.text()).toBe(200);
  const id = (await (await page.request.get('/api/session')).json()).user.id as string;
  await page.context().close();
  return id;
}

test('a student books a lesson every week for 4 weeks, sees the weeks first, and finds them on the schedule', async ({
  page,
  browser,
}) => {
  // Two accounts (an argon2id hash each), two accessibility scans and a series booked and read back.
  test.slow();
  const day = today().add({ days: 2 });
  const dayOff = day.add({ weeks: 1 });
  const tutorId = await weeklyTutor(browser, 'Wanda Weekly', dayOff);
  await createAccount(page, { role: 'student' });
  await page.goto(`/tutors/${tutorId}`);
  const booking = page.getByRole('region', { name: 'Book a lesson' });

  await booking
    .getByRole('radio', { name: new RegExp(`^${shortDayLabel(at(day, '12:00'), ZONE)}, `) })
    .check();
  const start = at(day, '10:00');
  await booking.getByRole('button', { name: clockLabel(start, ZONE), exact: true }).click();

  const repeat = booking.getByRole('checkbox', { name: 'Repeat every week' });
  await repeat.check();
  const weeks = booking.getByRole('spinbutton', { name: 'Weeks' });
  await expect(weeks).toHaveValue('4');

  // The preview: three weeks booked, the week of the day off skipped, with why; the total held.
  const weekStarts = [0, 1, 2, 3].map((n) => at(day.add({ weeks: n }), '10:00'));
  const preview = booking.getByRole('region', { name: '3 weekly lessons · $120.00 in all' });
  await expect(preview).toBeVisible();
  for (const n of [0, 2, 3]) {
    const weekStart = weekStarts[n] ?? 0;
    await expect(preview.getByText(lessonTimeLabel(weekStart, weekStart + HOUR, ZONE))).toBeVisible();
  }
  await expect(preview).toContainText('Not booked');
  await expect(preview).toContainText('The tutor is not available then');
  await expectNoAccessibilityViolations(page);

  // A number of weeks out of range is said, and nothing is sent.
  await weeks.fill('30');
  await expect(booking.getByText('Choose 2 to 26 weeks')).toBeVisible();
  await weeks.fill('4');
  await expect(preview).toBeVisible();

  await booking.getByRole('button', { name: 'Confirm booking' }).click();
  const booked = booking.getByRole('status').filter({ hasText: 'Booked every week' });
  await expect(booked).toContainText('3 lessons');
  await expect(booked).toContainText('1 week was not free');
  await expect(booked.getByRole('listitem')).toHaveCount(3);

  await booked.getByRole('link', { name: 'See your schedule' }).click();
  await expect(page.getByRole('heading', { name: 'Schedule', level: 1 })).toBeVisible();
  const upcoming = page.getByRole('region', { name: 'Upcoming lessons' });
  await expect(upcoming.getByText('Weekly', { exact: true })).toHaveCount(3);
  await expect(upcoming.getByRole('button', { name: 'Cancel the rest of the series' })).toHaveCount(3);
  await expectNoAccessibilityViolations(page);
});
