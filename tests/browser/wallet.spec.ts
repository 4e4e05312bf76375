/**
 * Money in the browser, against a server that takes payments (PAYMENTS=on): a student asks for a
 * top-up by transfer, the seeded admin confirms it on the finance page, the student books and
 * the bar's balance drops by the price; a balance too small for a lesson leads to the wallet with
 * the missing amount; the tutor sees what the booked lesson holds for them, and what lessons that took place earned
 * them; a refund recorded twice is questioned ("Pay again?"). It runs against the second server of playwright.config.ts, which takes payments; the
 * other specs book without money.
 */
import type { Page } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { DEFAULT_PAYMENT_INSTRUCTIONS } from '../../src/server/config/config';
import { formatAmount } from '../../src/shared/amounts';
import { shortDayLabel } from '../../src/shared/lessons/lesson-times';
import { supportChatPath } from '../../src/shared/routes';
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
import { openTutor, walletLink } from './money-fixtures';

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

/** Every test here runs against the server that takes payments (playwright.config.ts, "-paid"). */
test.beforeEach(async ({ page }) => {
  const config = (await (await page.request.get('/api/config')).json()) as { payments?: { on: boolean } };
  expect(config.payments?.on, 'the wallet spec needs the server with payments on').toBe(true);
});

/** Chooses a time two days ahead on the tutor's page; the booking region. */
async function chooseTime(page: Page, tutorId: string) {
  await page.goto(`/tutors/${tutorId}`);
  const booking = page.getByRole('region', { name: 'Book a lesson' });
  const day = Temporal.Now.plainDateISO(ZONE).add({ days: 2 });
  const dayName = shortDayLabel(
    day.toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from('12:00') }).epochMilliseconds,
    ZONE,
  );
  await booking.getByRole('radio', { name: new RegExp(`^${dayName}, `) }).check();
  await booking
    .getByRole('group', { name: new RegExp(`^${dayName}`) })
    .getByRole('button', { name: '10:00', exact: true })
    .click();
  return booking;
}

test('a student tops up by transfer, an admin confirms it, and a booking takes the price from the balance', {
  tag: '@phone',
}, async ({ page, browser }) => {
  const tutor = await openTutor(browser, `Tara Tally${unique()}`, ZONE);
  const student = await createAccount(page, { role: 'student', displayName: `Wim Wallet${unique()}` });

  // The student asks for $50 by transfer and is given a reference to pay with; how to pay comes
  // with the reference, not before there is one.
  await page.goto('/wallet');
  await expect(page.getByRole('heading', { level: 1, name: 'Wallet' })).toBeVisible();
  await expect(page.getByText(DEFAULT_PAYMENT_INSTRUCTIONS)).toHaveCount(0);
  await page.getByLabel('Amount (USD)').fill('50');
  await page.getByRole('button', { name: 'Top up' }).click();
  const told = page.getByRole('status').filter({ hasText: 'Top-up of $50.00 requested' });
  await expect(told).toBeVisible();
  const reference = (await told.textContent())?.match(/TL-[A-Z0-9]+/)?.[0] ?? '';
  expect(reference).not.toBe('');
  const topUps = page.getByRole('region', { name: 'Your top-ups' });
  await expect(topUps).toContainText(reference);
  await expect(topUps).toContainText('Waiting for the school');
  await expect(topUps).toContainText(DEFAULT_PAYMENT_INSTRUCTIONS);
  await expect(
    topUps.getByRole('link', { name: `Message support about top-up ${reference}` }),
  ).toHaveAttribute('href', supportChatPath);
  await expectNoAccessibilityViolations(page);

  // The admin sees it waiting and confirms it.
  const admin = await secondBrowser(browser, ZONE);
  await signInAs(admin, seededPair().admin);
  await admin.goto('/admin/finance');
  await expect(admin.getByRole('heading', { level: 1, name: 'Finance' })).toBeVisible();
  // Money that came in reads as received, and covers what the school holds.
  const totals = admin.getByRole('region', { name: 'Totals' });
  await expect(totals).toContainText(/is exactly the money received/);
  await expect(totals.getByText(/^-\$/)).toHaveCount(0);
  await admin
    .getByRole('region', { name: 'Transfers to match' })
    .getByRole('button', { name: `Confirm $50.00 from ${student.displayName} (${reference})` })
    .click();
  // Nothing is credited before a second look at the amount and the reference.
  const check = admin.getByRole('dialog', { name: 'Has this transfer arrived?' });
  await expect(check).toContainText(`$50.00 with the reference ${reference}`);
  await expectNoAccessibilityViolations(admin);
  await check.getByRole('button', { name: 'Confirm $50.00 received' }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'Confirmed' })).toContainText(reference);
  await expectNoAccessibilityViolations(admin);
  await admin.context().close();

  // The student's bar shows the balance; the booking box weighs the price against it.
  await page.goto('/wallet');
  await expect(page.getByRole('region', { name: 'Your top-ups' })).toContainText('Added to your balance');
  await expect(await walletLink(page)).toHaveAccessibleName(/^Wallet \$50\.00/);
  const booking = await chooseTime(page, tutor.id);
  await expect(booking).toContainText('Price $40.00 · Your balance $50.00');
  await booking.getByRole('button', { name: 'Confirm booking' }).click();
  await expect(booking.getByRole('status').filter({ hasText: 'Booked' })).toBeVisible();
  await expect(await walletLink(page)).toHaveAccessibleName(/^Wallet \$10\.00/);

  // The wallet lists the hold, with its receipt; the schedule says the lesson is paid and held.
  await page.goto('/wallet');
  const history = page.getByRole('region', { name: 'History' });
  await expect(history).toContainText('-$40.00');
  await expect(history.getByRole('link', { name: /^Receipt/ }).first()).toHaveAttribute('target', '_blank');
  await page.goto('/schedule');
  await expect(page.getByRole('region', { name: 'Upcoming lessons' })).toContainText('Paid · held');

  // The tutor sees what the lesson holds for them, after the school's commission.
  await tutor.page.goto('/dashboard');
  const earnings = tutor.page.getByRole('region', { name: 'Earnings this month' });
  await expect(earnings.getByRole('term')).toHaveText(['Last month', 'Held for your coming lessons']);
  await expect(earnings.getByRole('definition')).toHaveText(['$0.00', '$34.00']);
  // Nothing is settled yet: the month's own figure stays at nothing, with its cents.
  await expect(earnings.getByRole('paragraph').first()).toHaveText('$0.00');
  await tutor.page.screenshot({
    path: `.tmp/dashboard-earnings-${test.info().project.name}.png`,
    fullPage: true,
  });
  await tutor.page.goto('/wallet');
  // $40 less the school's 15% (the default commission), held until the lesson takes place: the
  // tutor's own account moves only when it is settled.
  await expect(tutor.page.getByRole('region', { name: 'Your earnings' })).toContainText('$34.00');
  await expectNoAccessibilityViolations(tutor.page);
  await tutor.page.context().close();

  // A refund recorded twice by mistake: the second is questioned, and recorded only when meant.
  const office = await secondBrowser(browser, ZONE);
  await signInAs(office, seededPair().admin);
  await office.goto('/admin/finance');
  const refunds = office.getByRole('region', { name: 'Pay back a balance or a package' });
  const choice = await refunds.locator('option', { hasText: student.displayName }).getAttribute('value');
  const refundOne = async (reference: string) => {
    await refunds.getByLabel('Student’s balance or package').selectOption(choice ?? '');
    await refunds.getByLabel('Amount (USD)').fill('1');
    await refunds.getByLabel('Bank reference').fill(reference);
    await refunds.getByRole('button', { name: 'Record refund' }).click();
  };
  const recorded = `$1.00 paid back to ${student.displayName} recorded.`;
  await refundOne('R-1');
  await expect(refunds.getByRole('status')).toContainText(recorded);
  await refundOne('R-2');
  await expect(refunds.getByRole('alert')).toContainText('was recorded less than a minute ago');
  await expect(refunds.getByText('Pay again?')).toBeVisible();
  await expectNoAccessibilityViolations(office);
  await refunds.getByRole('button', { name: 'Pay again' }).click();
  await expect(refunds.getByRole('status')).toContainText(recorded);
  await office.context().close();
  await page.goto('/wallet');
  await expect(await walletLink(page)).toHaveAccessibleName(/^Wallet \$8\.00/);
});

test('a balance too small for a lesson offers a top-up of what is missing', { tag: '@phone' }, async ({
  page,
  browser,
}) => {
  const tutor = await openTutor(browser, `Sol Short${unique()}`, ZONE);
  await tutor.page.context().close();
  await createAccount(page, { role: 'student', displayName: `Pia Purse${unique()}` });

  const booking = await chooseTime(page, tutor.id);
  await expect(booking).toContainText('Price $40.00 · Your balance $0.00');
  await expect(booking).toContainText('Your balance is $40.00 short for this lesson.');

  // Booking anyway: the server refuses, and says the same.
  await booking.getByRole('button', { name: 'Confirm booking' }).click();
  await expect(booking.getByRole('alert')).toContainText('Top up');

  await booking.getByRole('link', { name: 'Top up' }).click();
  await expect(page).toHaveURL(/\/wallet\?amount=40$/);
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('40');
  await expectNoAccessibilityViolations(page);
});

test('a tutor is paid for the lessons that took place, less the school’s commission', {
  tag: '@phone',
}, async ({ page }) => {
  // The seed left two lessons that took place confirmed and holding their price: the server's
  // lesson job completed and settled them as it started.
  const { tutor, completedLessonIds } = seededPair();
  await signInAs(page, tutor);
  let earned = 0;
  for (const id of completedLessonIds) {
    const lesson = (await (await page.request.get(`/api/lessons/${id}`)).json()) as {
      payment: { status: string; amountCents: number };
    };
    expect(lesson.payment.status).toBe('settled');
    // 15% to the school, rounded half up to the cent; the rest to the tutor.
    earned += lesson.payment.amountCents - Math.floor((lesson.payment.amountCents * 15 + 50) / 100);
  }
  await page.goto('/wallet');
  const earnings = page.getByRole('region', { name: 'Your earnings' });
  await expect(earnings).toContainText(formatAmount(earned, 'USD', { minor: 'always' }));
  await expect(page.getByRole('region', { name: 'History' })).toContainText(
    `+${formatAmount(earned / 2, 'USD', { minor: 'always' })}`,
  );
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Earnings this month' })).toBeVisible();
  await expectNoAccessibilityViolations(page);
});
