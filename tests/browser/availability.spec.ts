/**
 * A tutor's availability screen in the browser: hours in the tutor's zone, dates, settings, the
 * preview; on a phone, sections that fold and a Save that stays on the screen.
 */
import type { Page } from '@playwright/test';
import {
  areSectionsFolded,
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  openMenuIfCollapsed,
  test,
  unfold,
} from './fixtures';

const DAY = 24 * 60 * 60 * 1000;

/** "2026-12-02": the local date of an instant in a zone. */
const dateIn = (at: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(at);
/** "09:00" in a zone. */
const clockIn = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    at,
  );
const words = (date: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', ...options }).format(Date.parse(`${date}T12:00:00Z`));
/** "Wednesday, December 2, 2026": how a date with its own hours is named. */
const longDay = (date: string) =>
  words(date, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
/** "Wed, Dec 2": how the preview names a day. */
const shortDay = (date: string) => words(date, { weekday: 'short', month: 'short', day: 'numeric' });

const preview = (page: Page) => page.getByRole('region', { name: 'Preview: the next 7 days' });
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save Availability' });
/** One day of the preview: its heading reads "Wed, Dec 2 · 3 times". */
const previewDay = (page: Page, date: string) =>
  preview(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: new RegExp(`^${shortDay(date)} ·`) }) });

/** Every section open, as they are on a desktop (on a phone each starts folded). */
async function unfoldAll(page: Page) {
  for (const name of ['Weekly hours', 'Days off and special hours', 'Booking settings', PREVIEW])
    await unfold(page, name);
}
const PREVIEW = 'Preview: the next 7 days';

test('a tutor sets weekly hours in their zone, a day off and settings, and finds them kept', {
  tag: '@phone',
}, async ({ page }) => {
  await createAccount(page, { role: 'tutor' });
  await page.goto('/availability');
  await expect(page).toHaveTitle('Availability · Tutorlane');
  await expect(page.getByRole('heading', { level: 1, name: 'Availability' })).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'Students cannot book lessons with you yet' }),
  ).toBeVisible();
  await unfoldAll(page);
  await expect(preview(page).getByText(/No times to book in the next 7 days/)).toBeVisible();
  await expectNoAccessibilityViolations(page);

  const zone = 'Asia/Tokyo';
  await page.getByLabel('Time zone', { exact: true }).selectOption(zone);
  await expect(page.getByText('Japan Standard Time (GMT+9) · Tokyo').first()).toBeVisible();

  // Monday: a morning, then an afternoon that runs to midnight. A new window takes the focus.
  await page.getByRole('button', { name: 'Add window to Monday', exact: true }).click();
  await expect(page.getByLabel('From (Monday, window 1)')).toBeFocused();
  await page.getByLabel('From (Monday, window 1)').selectOption('08:00');
  await page.getByLabel('To (Monday, window 1)').selectOption('12:00');
  await page.getByRole('button', { name: 'Add window to Monday', exact: true }).click();
  await expect(page.getByLabel('From (Monday, window 2)')).toHaveValue('13:00');
  await page.getByLabel('To (Monday, window 2)').selectOption('24:00');

  await page.getByRole('button', { name: 'Copy Monday to Tuesday–Friday' }).click();
  await expect(page.getByRole('status').filter({ hasText: "Monday's hours were copied" })).toBeVisible();
  await expect(page.getByLabel('To (Thursday, window 2)')).toHaveValue('24:00');
  await page.getByRole('button', { name: 'Remove Friday, window 2' }).click();
  await expect(page.getByLabel('From (Friday, window 2)')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add window to Friday', exact: true })).toBeFocused();

  // A day off, two days from now in the tutor's zone.
  const dayOff = dateIn(Date.now() + 2 * DAY, zone);
  await page.getByLabel('Date', { exact: true }).fill(dayOff);
  await page.getByRole('button', { name: 'Add day off' }).click();
  const dayOffGroup = page.getByRole('group', { name: longDay(dayOff) });
  await expect(dayOffGroup.getByText('Day off: no lessons can be booked on this date.')).toBeVisible();

  await page.getByRole('checkbox', { name: '30 minutes' }).check();
  await page.getByRole('checkbox', { name: '90 minutes' }).check();
  await page.getByLabel('Lessons start every').selectOption('60');
  await page.getByLabel('Minimum notice (hours)').fill('2');
  await page.getByLabel('Booking horizon (days)').fill('30');
  await page.getByLabel('Buffer between lessons (minutes)').fill('15');
  await page.getByRole('radio', { name: 'Requests you accept' }).check();
  await expect(page.getByText(/A request expires after 48 hours/)).toBeVisible();

  // The preview follows the form: the shortest length, on the hour, nothing on the day off.
  await expect(
    preview(page).getByText('start times students would see for a 30-minute lesson'),
  ).toBeVisible();
  await expect(preview(page).getByText('Japan Standard Time (GMT+9) · Tokyo')).toBeVisible();
  await expect(preview(page).getByText('08:00', { exact: true }).first()).toBeVisible();
  await expect(preview(page).getByText('23:00', { exact: true }).first()).toBeVisible();
  await expect(preview(page).getByText('08:30', { exact: true })).toHaveCount(0);
  await expect(previewDay(page, dayOff).getByRole('heading')).toHaveText(`${shortDay(dayOff)} · 0 times`);
  await expect(page.getByText('You have changes that are not saved yet.')).toBeVisible();
  await expectNoAccessibilityViolations(page);

  await page.getByRole('button', { name: 'Save Availability' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Your availability has been saved.' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Students cannot book lessons with you yet' })).toHaveCount(
    0,
  );
  await expect(page.getByText('You have changes that are not saved yet.')).toHaveCount(0);

  await page.reload();
  await unfoldAll(page);
  await expect(page.getByLabel('Time zone', { exact: true })).toHaveValue(zone);
  await expect(page.getByLabel('From (Monday, window 1)')).toHaveValue('08:00');
  await expect(page.getByLabel('To (Monday, window 1)')).toHaveValue('12:00');
  await expect(page.getByLabel('To (Monday, window 2)')).toHaveValue('24:00');
  await expect(page.getByLabel('To (Wednesday, window 2)')).toHaveValue('24:00');
  await expect(page.getByLabel('To (Friday, window 1)')).toHaveValue('12:00');
  await expect(page.getByLabel('From (Friday, window 2)')).toHaveCount(0);
  await expect(
    page.getByRole('group', { name: 'Saturday', exact: true }).getByText('Unavailable'),
  ).toBeVisible();
  await expect(page.getByRole('group', { name: longDay(dayOff) }).getByText(/Day off/)).toBeVisible();
  for (const minutes of [30, 60, 90]) {
    await expect(page.getByRole('checkbox', { name: `${minutes} minutes` })).toBeChecked();
  }
  await expect(page.getByRole('checkbox', { name: '45 minutes' })).not.toBeChecked();
  await expect(page.getByLabel('Lessons start every')).toHaveValue('60');
  await expect(page.getByLabel('Minimum notice (hours)')).toHaveValue('2');
  await expect(page.getByLabel('Booking horizon (days)')).toHaveValue('30');
  await expect(page.getByLabel('Buffer between lessons (minutes)')).toHaveValue('15');
  await expect(page.getByRole('radio', { name: 'Requests you accept' })).toBeChecked();
  await expect(page.getByText('You have changes that are not saved yet.')).toHaveCount(0);

  // What the server keeps is what the screen showed, and the zone is the profile's too.
  const saved = await (await page.request.get('/api/availability')).json();
  expect(saved).toMatchObject({
    timeZone: zone,
    overrides: [{ date: dayOff, windows: [] }],
    lessonMinutes: [30, 60, 90],
    slotStepMinutes: 60,
    minimumNoticeHours: 2,
    bookingHorizonDays: 30,
    bufferMinutes: 15,
    instantBooking: false,
  });
  expect(saved.weekly).toHaveLength(9);
  expect(saved.weekly).toContainEqual({ weekday: 1, start: '13:00', end: '24:00' });
  expect((await (await page.request.get('/api/profile/details')).json()).timeZone).toBe(zone);
});

test('a refused value is marked where it is, and nothing typed is lost', async ({ page }) => {
  await createAccount(page, { role: 'tutor' });
  await page.goto('/availability');
  await page.getByLabel('Time zone', { exact: true }).selectOption('America/Chicago');
  await page.getByRole('button', { name: 'Add window to Monday', exact: true }).click();
  await page.getByLabel('Minimum notice (hours)').fill('200');
  await page.getByRole('button', { name: 'Save Availability' }).click();

  const notice = 'Minimum notice must be a whole number of hours from 0 to 168';
  await expect(page.getByRole('alert')).toHaveText(notice);
  await expect(page.getByLabel('Minimum notice (hours)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Minimum notice (hours)')).toHaveAccessibleDescription(
    new RegExp(`^${notice}`),
  );
  await expect(page.getByLabel('Minimum notice (hours)')).toHaveValue('200');
  await expect(page.getByLabel('To (Monday, window 1)')).toHaveValue('17:00');
  await expect(
    preview(page).getByText('Enter a minimum notice of 0 to 168 hours to see the times you offer.'),
  ).toBeVisible();
  await expectNoAccessibilityViolations(page);

  // The server names a window by its place in the list: the screen finds it among the days.
  await page.getByLabel('Minimum notice (hours)').fill('24');
  await expect(page.getByLabel('Minimum notice (hours)')).not.toHaveAttribute('aria-invalid');
  await page.getByRole('button', { name: 'Add window to Wednesday', exact: true }).click();
  await page.getByLabel('From (Wednesday, window 1)').selectOption('10:00');
  await page.getByLabel('To (Wednesday, window 1)').selectOption('09:00');
  await page.getByRole('button', { name: 'Save Availability' }).click();
  const order = 'The end of a window must be after its start';
  await expect(page.getByRole('alert')).toHaveText(order);
  const wednesdayEnd = page.getByLabel('To (Wednesday, window 1)');
  await expect(wednesdayEnd).toHaveAttribute('aria-invalid', 'true');
  await expect(wednesdayEnd).toHaveAccessibleDescription(order);
  await expect(page.getByLabel('To (Monday, window 1)')).not.toHaveAttribute('aria-invalid');
  await page.getByRole('button', { name: 'Go to the problem' }).click();
  await expect(wednesdayEnd).toBeFocused();
  await wednesdayEnd.selectOption('12:00');
  await expect(wednesdayEnd).not.toHaveAttribute('aria-invalid');

  // Two windows of one day that overlap: the day is marked.
  await page.getByRole('button', { name: 'Add window to Wednesday', exact: true }).click();
  await expect(page.getByLabel('From (Wednesday, window 2)')).toHaveValue('13:00');
  await page.getByLabel('From (Wednesday, window 2)').selectOption('11:00');
  await page.getByRole('button', { name: 'Save Availability' }).click();
  const overlap = "Wednesday's windows 10:00-12:00 and 11:00-14:00 overlap";
  await expect(page.getByRole('alert')).toHaveText(overlap);
  await expect(page.getByRole('group', { name: 'Wednesday', exact: true })).toHaveAccessibleDescription(
    overlap,
  );
  await expectNoAccessibilityViolations(page);

  await page.getByRole('button', { name: 'Remove Wednesday, window 2' }).click();
  await page.getByRole('button', { name: 'Save Availability' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Your availability has been saved.' }),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Time zone', { exact: true })).toHaveValue('America/Chicago');
  await expect(page.getByLabel('To (Wednesday, window 1)')).toHaveValue('12:00');
  await expect(page.getByLabel('Minimum notice (hours)')).toHaveValue('24');
});

test('the preview leaves out a time a student has booked, and the buffer around it', async ({
  page,
  browser,
  clientAddress,
}) => {
  const zone = 'Europe/Berlin';
  await createAccount(page, { role: 'tutor', displayName: 'Bea Busy' });
  const tutorId = (await (await page.request.get('/api/session')).json()).user.id as string;
  const profile = await page.request.patch('/api/profile/details', {
    data: {
      headline: 'Geometry with drawings',
      about: 'Shapes first, formulas after.',
      subjects: ['Geometry'],
      hourlyRate: 35,
      languages: ['English'],
    },
  });
  expect(profile.status()).toBe(200);
  const weekly = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '08:00', end: '20:00' }));
  const saved = await page.request.put('/api/availability', {
    data: {
      timeZone: zone,
      weekly,
      overrides: [],
      lessonMinutes: [60],
      slotStepMinutes: 60,
      minimumNoticeHours: 0,
      bookingHorizonDays: 60,
      bufferMinutes: 0,
      instantBooking: true,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  // A student books 12:00 (Berlin) two days from now.
  const student = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': `${clientAddress}9` } });
  await createAccount(student, { role: 'student' });
  const from = Date.now() + 2 * DAY;
  const slots = (
    await (
      await student.request.get(
        `/api/tutors/${tutorId}/slots?from=${new Date(from).toISOString()}&to=${new Date(from + DAY).toISOString()}&minutes=60`,
      )
    ).json()
  ).slots as { start: string }[];
  const noon = slots.map((slot) => Date.parse(slot.start)).find((start) => clockIn(start, zone) === '12:00');
  if (noon === undefined) throw new Error('the tutor offers no 12:00');
  const booked = await student.request.post('/api/lessons', {
    data: { tutorId, start: new Date(noon).toISOString(), minutes: 60, subject: 'Geometry' },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  await student.close();

  await page.goto('/availability');
  const day = previewDay(page, dateIn(noon, zone));
  await expect(preview(page).getByText(/Times taken by your planned lessons/)).toBeVisible();
  await expect(day.getByText('11:00', { exact: true })).toBeVisible();
  await expect(day.getByText('12:00', { exact: true })).toHaveCount(0);
  await expect(day.getByText('13:00', { exact: true })).toBeVisible();
  // A 30-minute buffer also keeps the hours either side free: the preview follows at once.
  await page.getByLabel('Buffer between lessons (minutes)').fill('30');
  await expect(day.getByText('11:00', { exact: true })).toHaveCount(0);
  await expect(day.getByText('13:00', { exact: true })).toHaveCount(0);
  await expect(day.getByText('10:00', { exact: true })).toBeVisible();
  await expect(day.getByText('14:00', { exact: true })).toBeVisible();
});

test('a student learns that availability is for tutors', async ({ page }) => {
  await createAccount(page, { role: 'student' });
  await page.goto('/availability');
  await expect(page).toHaveTitle('Availability · Tutorlane');
  await expect(page.getByRole('heading', { level: 1, name: 'Availability' })).toBeVisible();
  await expect(page.getByText(/Availability is for tutors/)).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await page.getByRole('link', { name: 'Go to your dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a date that has passed is refused at the date field', async ({ page }) => {
  await createAccount(page, { role: 'tutor' });
  await page.goto('/availability');
  // Kiritimati is a day ahead of most of the world: its yesterday may be UTC's today.
  const zone = 'Pacific/Kiritimati';
  await page.getByLabel('Time zone', { exact: true }).selectOption(zone);
  const yesterday = dateIn(Date.now() - DAY, zone);
  const date = page.getByLabel('Date', { exact: true });
  await date.fill(yesterday);
  await page.getByRole('button', { name: 'Add day off' }).click();
  await expect(date).toHaveAttribute('aria-invalid', 'true');
  await expect(date).toHaveAccessibleDescription(
    `This date has passed: choose ${longDay(dateIn(Date.now(), zone))} or a later date.`,
  );
  await expect(date).toBeFocused();
  await expect(page.getByRole('group', { name: longDay(yesterday) })).toHaveCount(0);
  await expectNoAccessibilityViolations(page);
  await page.screenshot({ path: test.info().outputPath('past-date.png'), fullPage: true });

  // Today is fine.
  const today = dateIn(Date.now(), zone);
  await date.fill(today);
  await expect(date).not.toHaveAttribute('aria-invalid');
  await page.getByRole('button', { name: 'Add day off' }).click();
  await expect(page.getByRole('group', { name: longDay(today) })).toBeVisible();
});

test('leaving with changes not saved asks first, in the app and on a reload', { tag: '@phone' }, async ({
  page,
}) => {
  await createAccount(page, { role: 'tutor' });
  await page.goto('/availability');
  await unfold(page, 'Weekly hours');
  await page.getByRole('button', { name: 'Add window to Monday', exact: true }).click();
  await expect(page.getByText('You have changes that are not saved yet.')).toBeVisible();

  // A link in the app: our question, on Stay; Stay keeps everything as it was.
  const leaveByNav = async () => {
    await openMenuIfCollapsed(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  };
  await leaveByNav();
  const question = page.getByRole('alertdialog', { name: 'Leave without saving?' });
  await expect(question).toHaveAccessibleDescription(
    'Your changes to your availability are not saved yet. If you leave now, they are lost.',
  );
  await expect(question.getByRole('button', { name: 'Stay' })).toBeFocused();
  await expectNoAccessibilityViolations(page);
  await page.screenshot({ path: test.info().outputPath('leave-question.png') });
  await question.getByRole('button', { name: 'Stay' }).click();
  await expect(question).toBeHidden();
  await expect(page).toHaveURL(/\/availability$/);
  await expect(page.getByLabel('From (Monday, window 1)')).toHaveValue('09:00');
  // Escape stays too.
  await leaveByNav();
  await expect(question).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(question).toBeHidden();
  await expect(page).toHaveURL(/\/availability$/);

  // A reload: the browser's own question; staying keeps the page and what was typed.
  const asked = new Promise<string>((resolve) => {
    page.once('dialog', async (dialog) => {
      resolve(dialog.type());
      await dialog.dismiss();
    });
  });
  await page.evaluate(() => window.location.reload());
  expect(await asked).toBe('beforeunload');
  await expect(page.getByLabel('From (Monday, window 1)')).toHaveValue('09:00');

  // Leave means leave.
  await leaveByNav();
  await question.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/$/);

  // Once saved, nothing asks.
  await page.goto('/availability');
  await unfold(page, 'Weekly hours');
  await page.getByRole('button', { name: 'Add window to Tuesday', exact: true }).click();
  await page.getByRole('button', { name: 'Save Availability' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Your availability has been saved.' }),
  ).toBeVisible();
  await leaveByNav();
  await expect(page).toHaveURL(/\/$/);
});

test('on a phone the sections fold, each saying what it holds; Save stays on the screen while there are changes', {
  tag: '@phone',
}, async ({ page }) => {
  await createAccount(page, { role: 'tutor' });
  const workweek = [1, 2, 3, 4, 5].flatMap((weekday) => [
    { weekday, start: '09:00', end: '12:00' },
    { weekday, start: '14:00', end: '18:00' },
  ]);
  const hours = await page.request.put('/api/availability', {
    data: {
      timeZone: 'Europe/Madrid',
      weekly: workweek,
      overrides: [],
      lessonMinutes: [30, 60],
      slotStepMinutes: 60,
      minimumNoticeHours: 0,
      bookingHorizonDays: 60,
      bufferMinutes: 0,
      instantBooking: true,
    },
  });
  expect(hours.status(), await hours.text()).toBe(200);
  await page.goto('/availability');
  await expect(page.getByLabel('Time zone', { exact: true })).toHaveValue('Europe/Madrid');

  const sections = ['Weekly hours', 'Days off and special hours', 'Booking settings', PREVIEW];
  if (areSectionsFolded(page)) {
    // Folded: a button each, saying what it holds, and the whole page within two screens.
    for (const name of sections)
      await expect(page.getByRole('button', { name, exact: true })).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('button', { name: 'Weekly hours' })).toHaveAccessibleDescription(
      'Mon, Tue, Wed, Thu, Fri · 35 hours a week',
    );
    await expect(page.getByText('No days off or special hours to come.')).toBeVisible();
    await expect(page.getByText('30, 60-minute lessons · booked at once')).toBeVisible();
    await expect(
      preview(page).getByText(/^\d+ times students could book in the next 7 days\.$/),
    ).toBeVisible();
    await expect(page.getByLabel('From (Monday, window 1)')).toBeHidden();
    // The page, Save at its end included, within two screens (it was seven, Save four screens down).
    expect(await page.evaluate(() => document.body.scrollHeight)).toBeLessThan(2 * 844);
    await expectNoAccessibilityViolations(page);
    await page.screenshot({ path: test.info().outputPath('folded.png'), fullPage: true });
  } else {
    // Side by side on a desktop, every section open, nothing to open.
    for (const name of sections) await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Weekly hours', exact: true })).toHaveCount(0);
    await expect(page.getByLabel('From (Monday, window 1)')).toBeVisible();
  }

  // Nothing changed: Save rests at the end. A change at the top: it holds to the screen's bottom.
  await unfold(page, 'Weekly hours');
  await page.getByLabel('To (Monday, window 2)').selectOption('19:00');
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(saveButton(page)).toBeInViewport();
  await expect(page.getByText('You have changes that are not saved yet.')).toBeInViewport();
  await page.getByRole('group', { name: 'Sunday', exact: true }).scrollIntoViewIfNeeded();
  await expect(saveButton(page)).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('unsaved.png') });

  // Folded again, the week says what changed; a value refused inside a folded section opens it.
  if (areSectionsFolded(page)) {
    await page.getByRole('button', { name: 'Weekly hours', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Weekly hours' })).toHaveAccessibleDescription(
      'Mon, Tue, Wed, Thu, Fri · 36 hours a week',
    );
  }
  await unfold(page, 'Booking settings');
  await page.getByLabel('Booking horizon (days)').fill('9999');
  if (areSectionsFolded(page))
    await page.getByRole('button', { name: 'Booking settings', exact: true }).click();
  await saveButton(page).click();
  await expect(page.getByRole('alert')).toBeInViewport();
  await expect(page.getByLabel('Booking horizon (days)')).toBeVisible();
  await expect(page.getByLabel('Booking horizon (days)')).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Go to the problem' }).click();
  await expect(page.getByLabel('Booking horizon (days)')).toBeFocused();

  // Put right and saved: the answer is on the screen, and the page holds what was saved.
  await page.getByLabel('Booking horizon (days)').fill('30');
  await saveButton(page).click();
  const saved = page.getByRole('status').filter({ hasText: 'Your availability has been saved.' });
  await expect(saved).toBeInViewport();
  await expect(page.getByText('You have changes that are not saved yet.')).toHaveCount(0);
  const kept = await (await page.request.get('/api/availability')).json();
  expect(kept).toMatchObject({ bookingHorizonDays: 30 });
  expect(kept.weekly).toContainEqual({ weekday: 1, start: '14:00', end: '19:00' });
});
