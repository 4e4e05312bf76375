/**
 * Lesson packages in the browser, against the server that takes payments (PAYMENTS=on): a student
 * with a balance buys a tutor's package on the tutor's page, the booking box says the lesson uses
 * one of its credits, the booking takes one, and the wallet shows what is left.
 */
import type { Browser } from '@playwright/test';
import { Temporal } from 'temporal-polyfill';
import { shortDayLabel } from '../../src/shared/lessons/lesson-times';
import { expect, expectNoAccessibilityViolations, test } from './fixtures';
import { fundedStudent, openTutor } from './money-fixtures';

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

test.beforeEach(async ({ page }) => {
  const config = (await (await page.request.get('/api/config')).json()) as { payments?: { on: boolean } };
  expect(config.payments?.on, 'the packages spec needs the server with payments on').toBe(true);
});

const unique = () => `${test.info().project.name}${Date.now().toString(36)}`;

/** A tutor at $40 an hour offering 5 hour lessons at 10% off ($36 each, $180 in all). */
async function tutorWithPackage(browser: Browser, name: string): Promise<string> {
  const { id, page } = await openTutor(browser, name, ZONE, [
    { lessons: 5, minutes: 60, discountPercent: 10 },
  ]);
  await page.context().close();
  return id;
}

test('a student buys a package on a tutor page and books a lesson with one of its credits', {
  tag: '@phone',
}, async ({ page, browser }) => {
  const tutorId = await tutorWithPackage(browser, `Pam Package${unique()}`);
  await fundedStudent(page, browser, {
    displayName: `Ben Bundle${unique()}`,
    amountCents: 20_000,
    zone: ZONE,
  });

  await page.goto(`/tutors/${tutorId}`);
  const packages = page.getByRole('region', { name: 'Lesson packages' });
  await expect(packages).toContainText('5 lessons of 60 minutes');
  await expect(packages).toContainText('$180.00 · $36.00 a lesson · 10% off');
  await packages.getByRole('button', { name: 'Buy 5 lessons of 60 minutes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buy 5 lessons of 60 minutes?' });
  await expect(dialog).toContainText('Total $180.00 · Your balance $200.00');
  await dialog.getByRole('button', { name: 'Buy for $180.00' }).click();
  await expect(packages.getByRole('status')).toHaveText(
    /^You bought 5 lessons of 60 minutes with .+\. Book them in “Book a lesson” above: each 60-minute lesson you book there uses one\.$/,
  );

  // The booking box takes a credit rather than the price; it is above the packages, as the note
  // says, at this width as at the other.
  const booking = page.getByRole('region', { name: 'Book a lesson' });
  const [bookingBox, packagesBox] = [await booking.boundingBox(), await packages.boundingBox()];
  expect(bookingBox && packagesBox && bookingBox.y + bookingBox.height <= packagesBox.y).toBe(true);
  await page.screenshot({ path: `.tmp/packages-bought-${test.info().project.name}.png`, fullPage: true });
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
  await expect(booking).toContainText('uses 1 of 5 credits');
  await expectNoAccessibilityViolations(page);
  await booking.getByRole('button', { name: 'Confirm booking' }).click();
  await expect(booking.getByRole('status').filter({ hasText: 'Booked' })).toBeVisible();

  // The wallet shows the package with what is left, and the balance the purchase left.
  await page.goto('/wallet');
  const mine = page.getByRole('region', { name: 'Your packages' });
  await expect(mine).toContainText('4 of 5 credits left');
  await expect(mine).toContainText('1 booked');
  await expect(page.getByRole('region', { name: 'Your balance' })).toContainText('$20.00');
  await mine.getByRole('button', { name: /^End package/ }).click();
  const ending = page.getByRole('alertdialog', { name: 'End this package?' });
  await expect(ending).toContainText('4 unused lessons return $144.00 to your balance.');
  await expectNoAccessibilityViolations(page);
  await ending.getByRole('button', { name: 'Keep it' }).click();
  await expect(mine).toContainText('4 of 5 credits left');
});
