/**
 * The booking picker as a person uses it at 1280 and 390 px: the week's days say which have free
 * times, a day shows only its times, and the confirmation opens right under the chosen time, in
 * view. The subject a search was for is preselected; otherwise a tutor of several subjects has the
 * student choose. A taken time, an empty week, a failed load, and moving a lesson on /schedule.
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { clockLabel, lessonTimeLabel, shortDayLabel } from '../../src/shared/lessons/lesson-times';
import { createAccount, expect, expectNoAccessibilityViolations, secondBrowser, test } from './fixtures';

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

/** The page's height at phone width before the picker showed one day at a time, with the tutor below. */
const HEIGHT_BEFORE = 4365;

const today = () => Temporal.Now.plainDateISO(ZONE);
const at = (date: Temporal.PlainDate, time: string) =>
  date.toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
const dayName = (date: Temporal.PlainDate) => shortDayLabel(at(date, '12:00'), ZONE);
const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1280) < 640;

/**
 * A published tutor, set up through the API in a browser of their own, open 09:00-21:00 every day
 * at 15-minute steps (as in the complaint about the long page), in the test's zone.
 */
async function openTutor(
  browser: Browser,
  name: string,
  options: {
    subjects: string[];
    daysOff?: Temporal.PlainDate[];
    weekdayOff?: number;
  },
): Promise<string> {
  const page = await secondBrowser(browser, ZONE);
  await createAccount(page, { role: 'tutor', displayName: name });
  const profile = await page.request.patch('/api/profile/details', {
    data: {
      headline: `${name.split(' ')[0]} teaches with patience`,
      about: 'Clear explanations, lots of practice.',
      subjects: options.subjects,
      hourlyRate: 40,
      languages: ['English'],
      timeZone: ZONE,
    },
  });
  expect(profile.status()).toBe(200);
  const hours = await page.request.put('/api/availability', {
    data: {
      timeZone: ZONE,
      weekly: [0, 1, 2, 3, 4, 5, 6]
        .filter((weekday) => weekday !== options.weekdayOff)
        .map((weekday) => ({ weekday, start: '09:00', end: '21:00' })),
      overrides: (options.daysOff ?? []).map((date) => ({ date: date.toString(), windows: [] })),
      lessonMinutes: [60],
      slotStepMinutes: 15,
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

function dayOf(booking: Locator, date: Temporal.PlainDate) {
  return booking.getByRole('radio', { name: new RegExp(`^${dayName(date)}, `) });
}

function timesOf(booking: Locator, date: Temporal.PlainDate) {
  return booking.getByRole('group', { name: new RegExp(`^${dayName(date)}`) });
}

test('a student picks a day, then a time; the confirmation opens under it in view, asks for a subject, and books', {
  tag: '@phone',
}, async ({ page, browser }) => {
  // A day off three days ahead: its weekday has no hours.
  const dayOff = today().add({ days: 3 });
  const tutorId = await openTutor(browser, 'Gina Guitar', {
    subjects: ['Spanish', 'Guitar'],
    weekdayOff: dayOff.dayOfWeek % 7,
  });
  await createAccount(page, { role: 'student' });
  await page.goto(`/tutors/${tutorId}`);
  const booking = page.getByRole('region', { name: 'Book a lesson' });

  // The week's days, each saying whether it has free times; the first that has some is open.
  const days = booking.getByRole('group', { name: 'Day' }).getByRole('radio');
  await expect(days).toHaveCount(7);
  await expect(dayOf(booking, dayOff)).toHaveAccessibleName(`${dayName(dayOff)}, no free times`);
  await expect(dayOf(booking, dayOff)).toBeDisabled();
  await expect(dayOf(booking, today().add({ days: 2 }))).toHaveAccessibleName(
    `${dayName(today().add({ days: 2 }))}, 45 free times`,
  );
  const enabled: number[] = [];
  for (let index = 0; index < 7; index++) if (await days.nth(index).isEnabled()) enabled.push(index);
  const [firstFree = -1, secondFree = -1] = enabled;
  await expect(days.nth(firstFree)).toBeChecked();
  await expect(booking.getByRole('button', { name: /^\d\d:\d\d$/ }).first()).toBeVisible();

  // A page a fraction of what it was: one day's times, not the week's.
  if (isPhone(page)) {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThan(HEIGHT_BEFORE / 2);
  }

  // The arrow keys walk the days that have times, past the day off.
  await days.nth(firstFree).focus();
  await page.keyboard.press('ArrowRight');
  await expect(days.nth(secondFree)).toBeChecked();
  await expect(days.nth(secondFree)).toBeFocused();

  // Another day: only its times are shown.
  const day = today().add({ days: 2 });
  await dayOf(booking, day).check();
  const times = timesOf(booking, day);
  await expect(times).toContainText('45 free times');
  await expect(booking.getByRole('group', { name: new RegExp(`^${dayName(today())}`) })).toHaveCount(0);
  await expect(times.getByRole('button', { name: '09:00', exact: true })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  // The arrow keys walk the times too.
  await times.getByRole('button', { name: '09:00', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(times.getByRole('button', { name: '09:15', exact: true })).toBeFocused();

  // The last time of the day: the confirmation opens right under it and comes into view.
  const start = at(day, '20:00');
  const time = times.getByRole('button', { name: clockLabel(start, ZONE), exact: true });
  await time.click();
  await expect(time).toHaveAttribute('aria-pressed', 'true');
  const confirm = booking.getByRole('button', { name: 'Confirm booking' });
  await expect(confirm).toBeInViewport();
  await expect(booking.getByText(lessonTimeLabel(start, start + 3_600_000, ZONE))).toBeFocused();
  await expectNoAccessibilityViolations(page);

  // Nothing searched for and two subjects: the student chooses, never a subject picked for them.
  const subject = booking.getByLabel('Subject');
  await expect(subject).toHaveValue('');
  await confirm.click();
  await expect(booking.getByText('Choose a subject for the lesson')).toBeVisible();
  await expect(subject).toBeFocused();
  await expect(subject).toHaveAttribute('aria-invalid', 'true');
  await expect(booking.getByRole('status')).toHaveCount(0);

  await subject.selectOption('Guitar');
  await expect(booking.getByText('Choose a subject for the lesson')).toHaveCount(0);
  await confirm.click();
  const booked = booking.getByRole('status');
  await expect(booked).toContainText(`Booked: ${lessonTimeLabel(start, start + 3_600_000, ZONE)}`);
  await expect(booked).toBeInViewport();
  // The time is taken now, and so are the three before it that would end inside it; the day stays open.
  await expect(times.getByRole('button', { name: clockLabel(start, ZONE), exact: true })).toHaveCount(0);
  await expect(times).toContainText('41 free times');
  const lessons = await (await page.request.get('/api/lessons')).json();
  expect(lessons.lessons.map((lesson: { subject: string }) => lesson.subject)).toEqual(['Guitar']);
});

test('the subject searched for is preselected for the booking, in any letter case', async ({
  page,
  browser,
}) => {
  const unique = `Gina${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const tutorId = await openTutor(browser, `${unique} Strummer`, { subjects: ['Spanish', 'Guitar'] });
  await createAccount(page, { role: 'student' });

  // A text search for "guitar" finds her; her page has Guitar ready to book.
  await page.goto(`/tutors?q=${unique}+guitar`);
  await page.getByRole('link', { name: `${unique} Strummer` }).click();
  await expect(page).toHaveURL(new RegExp(`/tutors/${tutorId}\\?subject=Guitar$`));
  const booking = page.getByRole('region', { name: 'Book a lesson' });
  await booking
    .getByRole('button', { name: /^\d\d:\d\d$/ })
    .first()
    .click();
  await expect(booking.getByLabel('Subject')).toHaveValue('Guitar');
  await expect(booking.getByRole('button', { name: 'Confirm booking' })).toBeInViewport();

  // The subject filter counts too.
  await page.goto(`/tutors?q=${unique}&subject=Spanish`);
  await page.getByRole('link', { name: `${unique} Strummer` }).click();
  await booking
    .getByRole('button', { name: /^\d\d:\d\d$/ })
    .first()
    .click();
  await expect(booking.getByLabel('Subject')).toHaveValue('Spanish');

  // A link in lower case still means her Guitar; a subject she does not teach means nothing.
  await page.goto(`/tutors/${tutorId}?subject=guitar`);
  await booking
    .getByRole('button', { name: /^\d\d:\d\d$/ })
    .first()
    .click();
  await expect(booking.getByLabel('Subject')).toHaveValue('Guitar');
  await page.goto(`/tutors/${tutorId}?subject=Piano`);
  await booking
    .getByRole('button', { name: /^\d\d:\d\d$/ })
    .first()
    .click();
  await expect(booking.getByLabel('Subject')).toHaveValue('');
});

test('a time taken meanwhile is said so, and the day is shown as it is now', async ({ page, browser }) => {
  const tutorId = await openTutor(browser, 'Tara Taken', { subjects: ['Algebra'] });
  await createAccount(page, { role: 'student' });
  const day = today().add({ days: 2 });
  const start = at(day, '15:00');
  await page.goto(`/tutors/${tutorId}`);
  const booking = page.getByRole('region', { name: 'Book a lesson' });
  await dayOf(booking, day).check();
  const time = timesOf(booking, day).getByRole('button', { name: clockLabel(start, ZONE), exact: true });
  await time.click();
  // One subject: that one, said with the time.
  await expect(booking.getByLabel('Subject')).toHaveCount(0);
  await expect(booking).toContainText('60 min · $40 · Algebra');

  // Someone else books it first.
  const other = await secondBrowser(browser, ZONE);
  await createAccount(other, { role: 'student', displayName: 'Quick Quentin' });
  const taken = await other.request.post('/api/lessons', {
    data: { tutorId, start: new Date(start).toISOString(), minutes: 60, subject: 'Algebra' },
  });
  expect(taken.status()).toBe(201);
  await other.context().close();

  await booking.getByRole('button', { name: 'Confirm booking' }).click();
  const alert = booking.getByRole('alert');
  await expect(alert).toHaveText('This time is no longer available. Please choose another time.');
  await expect(alert).toBeInViewport();
  await expect(time).toHaveCount(0);
  await expect(booking.getByRole('button', { name: 'Confirm booking' })).toHaveCount(0);
  await expect(dayOf(booking, day)).toBeChecked();
});

test('a week without free times leads to the next free day; a failed load offers to load again', async ({
  page,
  browser,
}) => {
  const week = Array.from({ length: 7 }, (_, i) => today().add({ days: i }));
  const tutorId = await openTutor(browser, 'Vera Vacation', { subjects: ['French'], daysOff: week });
  await page.goto(`/tutors/${tutorId}`);
  const booking = page.getByRole('region', { name: 'Book a lesson' });
  await expect(booking).toContainText('No free times this week.');
  for (const date of week) await expect(dayOf(booking, date)).toBeDisabled();

  const nextFree = today().add({ days: 7 });
  await booking.getByRole('button', { name: `Next free day: ${dayName(nextFree)}` }).click();
  await expect(dayOf(booking, nextFree)).toBeChecked();
  await expect(timesOf(booking, nextFree)).toContainText('45 free times');
  await expect(booking.getByRole('button', { name: 'Previous week' })).toBeEnabled();

  // A visitor who chooses a time is asked to sign up or in, right there.
  await timesOf(booking, nextFree).getByRole('button', { name: '10:00', exact: true }).click();
  await expect(booking.getByRole('link', { name: 'Sign up to book' })).toBeInViewport();

  // The free times fail to load: said so, with a way to load them again.
  const slots = /\/api\/tutors\/[^/]+\/slots\?/;
  await page.route(slots, (route) =>
    route.fulfill({ status: 503, json: { message: 'The service is busy. Please try again.' } }),
  );
  await booking.getByRole('button', { name: 'Previous week' }).click();
  await expect(booking.getByRole('alert')).toHaveText('The service is busy. Please try again.');
  await expectNoAccessibilityViolations(page);
  await page.unroute(slots);
  await booking.getByRole('button', { name: 'Try loading the free times again' }).click();
  await expect(booking).toContainText('No free times this week.');
  await expect(booking.getByRole('alert')).toHaveCount(0);
});

test('a student moves a lesson on /schedule: a day, a time, and the move right under it', {
  tag: '@phone',
}, async ({ page, browser }) => {
  const tutorId = await openTutor(browser, 'Milo Mover', { subjects: ['Chemistry'] });
  await createAccount(page, { role: 'student' });
  const first = at(today().add({ days: 3 }), '10:00');
  const booked = await page.request.post('/api/lessons', {
    data: { tutorId, start: new Date(first).toISOString(), minutes: 60, subject: 'Chemistry' },
  });
  expect(booked.status()).toBe(201);

  await page.goto('/schedule');
  const upcoming = page.getByRole('region', { name: 'Upcoming lessons' });
  await upcoming.getByRole('button', { name: 'Reschedule' }).click();
  const day = today().add({ days: 4 });
  await dayOf(upcoming, day).check();
  const start = at(day, '18:30');
  const label = lessonTimeLabel(start, start + 3_600_000, ZONE);
  await timesOf(upcoming, day)
    .getByRole('button', { name: clockLabel(start, ZONE), exact: true })
    .click();
  const move = upcoming.getByRole('button', { name: `Move the lesson to ${label}` });
  await expect(move).toBeInViewport();
  await expectNoAccessibilityViolations(page);
  await move.click();
  await expect(page.getByRole('status').filter({ hasText: /^Lesson moved/ })).toHaveText(
    `Lesson moved: Chemistry with Milo Mover is now on ${label}.`,
  );
  await expect(upcoming).toContainText(label);
});
