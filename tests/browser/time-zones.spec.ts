/**
 * A person's zone without their having to save it: the first time they sign in, their browser's
 * zone is saved to their profile, where /profile shows it (and lets them change it); a browser
 * elsewhere later never replaces it.
 */
import { createAccount, expect, PASSWORD, secondBrowser, test } from './fixtures';

test('the zone of the browser someone first signs in with is saved, shown on /profile, and kept', async ({
  page,
  browser,
}) => {
  const account = await createAccount(page, { role: 'student', displayName: 'Kavya Kolkata' });
  await page.context().clearCookies();

  // Signing in, in a browser set to India's zone.
  const india = await secondBrowser(browser, 'Asia/Kolkata');
  await india.goto('/login');
  await india.getByLabel('Email').fill(account.email);
  await india.getByLabel('Password').fill(PASSWORD);
  await india.getByRole('button', { name: 'Sign In' }).click();
  await expect(india).toHaveURL(/\/dashboard$/);
  // Chromium names India's zone by ICU's id, Asia/Calcutta: whatever it says is what is kept.
  const reported = await india.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  expect(['Asia/Kolkata', 'Asia/Calcutta']).toContain(reported);
  await expect
    .poll(async () => (await (await india.request.get('/api/profile/details')).json()).timeZone)
    .toBe(reported);
  await india.goto('/profile');
  await expect(india.getByLabel('Time zone')).toHaveValue(reported);

  // Later, in a browser in Chicago: the saved zone stays, and is what /profile shows.
  const chicago = await secondBrowser(browser, 'America/Chicago');
  const signedIn = await chicago.request.post('/api/auth/sign-in/email', {
    data: { email: account.email, password: PASSWORD },
  });
  expect(signedIn.status()).toBe(200);
  await chicago.goto('/profile');
  await expect(chicago.getByLabel('Time zone')).toHaveValue(reported);
  await chicago.goto('/dashboard');
  await expect(chicago.getByText(/India Standard Time \(GMT\+5:30\) · Kolkata/)).toBeVisible();
  expect((await (await chicago.request.get('/api/profile/details')).json()).timeZone).toBe(reported);

  // The person still chooses: a zone saved on /profile is theirs.
  await chicago.goto('/profile');
  await chicago.getByLabel('Time zone').selectOption('America/Chicago');
  await chicago.getByRole('button', { name: 'Save Profile' }).click();
  await expect(chicago.getByRole('status').filter({ hasText: 'Your profile has been saved.' })).toBeVisible();
  await india.goto('/profile');
  await expect(india.getByLabel('Time zone')).toHaveValue('America/Chicago');
  await india.context().close();
  await chicago.context().close();
});
