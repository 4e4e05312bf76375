/**
 * What the specs about money (wallet, packages, cancellation policy) set up alike, against the
 * server that takes payments: a published tutor with open hours, a student whose transfer the
 * seeded admin has confirmed, and the bar's Wallet link.
 */
import type { Browser, Page } from '@playwright/test';
import {
  type Account,
  createAccount,
  expect,
  openMenuIfCollapsed,
  secondBrowser,
  seededPair,
  signInAs,
} from './fixtures';

/**
 * A published tutor at $40 an hour in `zone`, open 09:00-21:00 every day for one-hour lessons,
 * booked at once (and offering `packages`, when given), in a browser of their own.
 */
export async function openTutor(
  browser: Browser,
  name: string,
  zone: string,
  packages?: { lessons: number; minutes: number; discountPercent: number }[],
): Promise<{ id: string; page: Page }> {
  const page = await secondBrowser(browser, zone);
  await createAccount(page, { role: 'tutor', displayName: name });
  const profile = await page.request.patch('/api/profile/details', {
    data: {
      headline: `${name.split(' ')[0]} teaches with patience`,
      about: 'Clear explanations, lots of practice.',
      subjects: ['Algebra'],
      hourlyRate: 40,
      languages: ['English'],
      timeZone: zone,
    },
  });
  expect(profile.status(), await profile.text()).toBe(200);
  const hours = await page.request.put('/api/availability', {
    data: {
      timeZone: zone,
      weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '09:00', end: '21:00' })),
      overrides: [],
      lessonMinutes: [60],
      slotStepMinutes: 60,
      minimumNoticeHours: 0,
      bookingHorizonDays: 60,
      bufferMinutes: 0,
      instantBooking: true,
      ...(packages ? { packages } : {}),
    },
  });
  expect(hours.status(), await hours.text()).toBe(200);
  const id = (await (await page.request.get('/api/session')).json()).user.id as string;
  return { id, page };
}

/**
 * A new student signed in on `page` with `amountCents` in their balance: a transfer asked for
 * and confirmed by the seeded admin.
 */
export async function fundedStudent(
  page: Page,
  browser: Browser,
  options: { displayName: string; amountCents: number; zone: string },
): Promise<Account> {
  const student = await createAccount(page, { role: 'student', displayName: options.displayName });
  await fundStudent(page, browser, options.amountCents, options.zone);
  return student;
}

/** `amountCents` in the balance of the student signed in on `page`: asked for by transfer, confirmed by the seeded admin. */
async function fundStudent(page: Page, browser: Browser, amountCents: number, zone: string) {
  const asked = await page.request.post('/api/wallet/top-ups', { data: { amountCents, method: 'manual' } });
  expect(asked.status(), await asked.text()).toBe(201);
  const { topUp } = (await asked.json()) as { topUp: { id: string } };
  const admin = await secondBrowser(browser, zone);
  await signInAs(admin, seededPair().admin);
  const confirmed = await admin.request.post(`/api/admin/top-ups/${topUp.id}/confirm`, { data: {} });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  await admin.context().close();
}

/** The bar's Wallet link, opened out of the menu on a phone. */
export async function walletLink(page: Page) {
  await openMenuIfCollapsed(page);
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Wallet/ });
}
