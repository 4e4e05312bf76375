/**
 * A person's own data from /profile: "Download my data" saves the export's ZIP, and "Delete my
 * account" with the password deletes it and lands on the home page, signed out, with the
 * confirmation. At phone and desktop width, axe-clean.
 */
import { createAccount, expect, expectNoAccessibilityViolations, PASSWORD, test } from './fixtures';

test('downloads my data, then deletes my account with my password', { tag: '@phone' }, async ({ page }) => {
  const me = await createAccount(page, { displayName: 'Dana Departing' });
  await page.goto('/profile');
  const data = page.getByRole('region', { name: 'Your data' });
  await expect(data).toBeVisible();
  const deletion = page.getByRole('region', { name: 'Delete my account' });
  await expect(deletion).toContainText('cannot be undone');
  await expectNoAccessibilityViolations(page);

  const downloading = page.waitForEvent('download');
  await data.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^tutorlane-export-\d{4}-\d{2}-\d{2}\.zip$/);

  // A wrong password deletes nothing and says so.
  await deletion.getByLabel('Password').fill('not-my-password-at-all');
  await deletion.getByRole('button', { name: 'Delete my account' }).click();
  await expect(deletion.getByRole('alert')).toHaveText(
    'This password is not right. Your account has not been deleted.',
  );

  await deletion.getByLabel('Password').fill(PASSWORD);
  await deletion.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status')).toHaveText(
    'Your account has been deleted. We are sorry to see you go.',
  );
  const session = await (await page.request.get('/api/session')).json();
  expect(session.user).toBeNull();
  await expectNoAccessibilityViolations(page);

  const signIn = await page.request.post('/api/auth/sign-in/email', {
    data: { email: me.email, password: PASSWORD },
  });
  expect(signIn.status()).toBe(401);
});
