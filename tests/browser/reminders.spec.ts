/**
 * Lesson reminders on /profile: a "Lesson reminders" group of two labelled boxes, both ticked at
 * first; what is saved is what the page shows when it is opened again.
 */
import { createAccount, expect, expectNoAccessibilityViolations, test } from './fixtures';

test('a person turns the day-before reminder off on their profile, and it stays off', async ({
  page,
}, testInfo) => {
  await createAccount(page, { role: 'student', displayName: 'Rita Reminded' });
  await page.goto('/profile');
  const reminders = page.getByRole('group', { name: 'Lesson reminders' });
  const dayBefore = reminders.getByRole('checkbox', { name: 'A day before' });
  const hourBefore = reminders.getByRole('checkbox', { name: 'An hour before' });
  await expect(dayBefore).toBeChecked();
  await expect(hourBefore).toBeChecked();
  await expectNoAccessibilityViolations(page);
  await dayBefore.uncheck();
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your profile has been saved.' })).toBeVisible();
  expect((await (await page.request.get('/api/profile/details')).json()).reminders).toEqual({
    dayBefore: false,
    hourBefore: true,
  });
  await page.reload();
  await expect(dayBefore).not.toBeChecked();
  await expect(hourBefore).toBeChecked();
  await reminders.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('profile-reminders.png'), fullPage: true });
});
