/**
 * A yen school in the browser: the search's price filters are in yen, a tutor's ¥3,000 rate reads
 * ¥3,000 on their page and in the booking box (not ¥30, not ¥300,000), a 45-minute lesson ¥2,250, and a student without money is told the
 * amount missing in yen; the console's Site settings show the yen range of hourly rates.
 *
 * The currency is the whole server's, so this file runs a server of its own (the built server, on a
 * free port and a data folder seeded as the suite's is).
 */
import type { Browser, Page } from '@playwright/test';
import type { BrowserSeed, SeededPerson } from '../support/browser-seed';
import { expect, PASSWORD, test } from './fixtures';
import { type OwnServer, startOwnServer } from './own-server';

test.describe.configure({ mode: 'serial' });

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

let own: OwnServer | undefined;
let url: string;
let seed: BrowserSeed;

test.beforeAll(async () => {
  // Copying the seeded folder and the server opening its database: slow on a busy machine.
  test.setTimeout(180_000);
  own = await startOwnServer('currency', { CURRENCY: 'JPY', ADMIN_TWO_FACTOR: 'optional' });
  ({ url, seed } = own);
});

test.afterAll(async () => {
  await own?.stop();
});

const seeded = () => seed[test.info().project.name as keyof BrowserSeed];

/** A page of its own, signed in as `person` on this file's server. */
async function signedIn(browser: Browser, person: SeededPerson): Promise<Page> {
  const page = await (await browser.newContext({ timezoneId: ZONE })).newPage();
  const answer = await page.request.post(`${url}/api/auth/sign-in/email`, {
    data: { email: person.email, password: PASSWORD },
    headers: { origin: url },
  });
  expect(answer.status()).toBe(200);
  return page;
}

test('a tutor’s yen rate, lesson prices and trial read in yen on their page and in the booking box', {
  tag: '@phone',
}, async ({ browser }) => {
  const { tutor, student } = seeded();
  const tutorPage = await signedIn(browser, tutor);
  const headers = { origin: url };
  const rate = await tutorPage.request.patch(`${url}/api/profile/details`, {
    data: { hourlyRate: 3000 },
    headers,
  });
  expect(rate.status(), await rate.text()).toBe(200);
  const hours = await tutorPage.request.put(`${url}/api/availability`, {
    data: {
      timeZone: ZONE,
      weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '00:00', end: '24:00' })),
      overrides: [],
      lessonMinutes: [45, 60],
      slotStepMinutes: 30,
      minimumNoticeHours: 0,
      bookingHorizonDays: 60,
      bufferMinutes: 0,
      instantBooking: true,
      trial: { offered: true, priceCents: 1500 },
    },
    headers,
  });
  expect(hours.status(), await hours.text()).toBe(200);
  await tutorPage.context().close();

  const page = await signedIn(browser, student);
  // The search's price filters are in yen too.
  await page.goto(`${url}/tutors`);
  await expect(page.getByLabel('Max price (¥)')).toHaveCount(1);
  await page.goto(`${url}/tutors/${tutor.id}`);
  await expect(page.getByText('¥3,000 per hour')).toBeVisible();
  await expect(page.getByText('Trial lesson: 30 minutes · ¥1,500')).toBeVisible();
  const booking = page.getByRole('region', { name: 'Book a lesson' });
  const length = booking.getByLabel('Lesson length');
  // The seeded student had lessons with this tutor, so the trial is not theirs to book.
  await expect(length.getByRole('option')).toHaveText(['45 minutes · ¥2,250', '60 minutes · ¥3,000']);
  await length.selectOption({ label: '45 minutes · ¥2,250' });
  await booking
    .getByRole('button', { name: /^\d\d:\d\d$/ })
    .first()
    .click();
  await expect(booking.getByText(/^45 min · ¥2,250/)).toBeVisible();
  // The seeded student holds no money here: the box says what is missing, in yen.
  await expect(booking.getByText('Price ¥2,250 · Your balance ¥0')).toBeVisible();
  await expect(booking.getByRole('status').filter({ hasText: 'Your balance is ¥2,250 short' })).toBeVisible();
  await expect(booking.getByRole('link', { name: 'Top up' })).toHaveAttribute('href', '/wallet?amount=2250');
  await page.context().close();
});

test('the console’s Site settings show the range of hourly rates in yen', async ({ browser }) => {
  const page = await signedIn(browser, seeded().admin);
  await page.goto(`${url}/admin/settings`);
  const rates = page.getByRole('region', { name: 'Hourly rates' });
  await expect(rates).toContainText('now ¥500 to ¥50,000 (the default for your currency)');
  await expect(rates.getByLabel('Lowest rate (JPY)')).toHaveValue('500');
  await rates.getByLabel('Highest rate (JPY)').fill('400');
  await rates.getByRole('button', { name: 'Save hourly rates' }).click();
  await expect(rates.getByRole('alert')).toHaveText('The highest rate must be above the lowest.');
  await page.context().close();
});
