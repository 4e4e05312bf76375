/**
 * Two-factor sign-in in the browser: a user turns it on from /profile (the key read as text, the
 * code computed as an authenticator app would), keeps the backup codes, makes new ones with the
 * password and one of the old codes, signs out, and signs in with the password then the code,
 * trusting the device; an admin without it, under the default
 * ADMIN_TWO_FACTOR (required), sees only the page that sets it up. Accessibility scans at both
 * widths.
 *
 * The other specs' servers make two-factor optional for admins, so the admin's case runs against a
 * server of its own with the default (./own-server.ts).
 */
import { TOTP } from 'otpauth';
import type { BrowserSeed } from '../support/browser-seed';
import { createAccount, expect, expectNoAccessibilityViolations, PASSWORD, test } from './fixtures';
import { type OwnServer, startOwnServer } from './own-server';

/** The code an authenticator app shows for `secret`, `offset` periods from now. */
const codeFor = (secret: string, offset = 0) =>
  new TOTP({ secret, digits: 6, period: 30 }).generate({ timestamp: Date.now() + offset * 30_000 });

test('a user turns two-factor on from their profile, then signs in with the password and a code', {
  tag: '@phone',
}, async ({ page }) => {
  const account = await createAccount(page);
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await section.getByLabel('Your password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(
    section.getByRole('img', { name: 'QR code to scan with your authenticator app' }),
  ).toBeVisible();
  const secret = ((await section.getByTestId('two-factor-secret').textContent()) ?? '').replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]+$/);
  await expectNoAccessibilityViolations(page);
  await section.getByLabel('Code from the app').fill(codeFor(secret));
  await section.getByRole('button', { name: 'Turn on two-factor authentication' }).click();

  await expect(section.getByRole('heading', { name: 'Your backup codes' })).toBeVisible();
  await expect(section.getByRole('listitem')).toHaveCount(10);
  await expect(section.getByRole('button', { name: 'Download codes' })).toBeVisible();
  await expectNoAccessibilityViolations(page);
  const firstCodes = await section.getByRole('listitem').allTextContents();
  await section.getByRole('button', { name: 'I have saved my backup codes' }).click();
  await expect(section.getByText('Two-factor authentication is on.', { exact: true })).toBeVisible();

  // New backup codes take the password and a current code: here one of the first backup codes.
  await section.getByRole('button', { name: 'Get new backup codes' }).click();
  const newCodes = section.getByRole('group', { name: 'New backup codes' });
  await newCodes.getByLabel('Your password').fill(PASSWORD);
  await newCodes.getByRole('button', { name: 'Make new backup codes' }).click();
  await expect(
    newCodes.getByText('Enter a code from your authenticator app, or a backup code'),
  ).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await newCodes.getByLabel('Code from your authenticator app, or a backup code').fill(firstCodes[0] ?? '');
  await newCodes.getByRole('button', { name: 'Make new backup codes' }).click();
  await expect(section.getByRole('heading', { name: 'Your backup codes' })).toBeVisible();
  const secondCodes = await section.getByRole('listitem').allTextContents();
  expect(secondCodes).toHaveLength(10);
  expect(secondCodes).not.toContain(firstCodes[1]);
  await section.getByRole('button', { name: 'I have saved my backup codes' }).click();

  expect((await page.request.post('/api/auth/sign-out')).status()).toBe(200);
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Enter your sign-in code' })).toBeVisible();
  const code = page.getByLabel('Authentication code');
  await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  await page.getByRole('button', { name: 'Use a backup code' }).click();
  await expect(page.getByLabel('Backup code')).toBeVisible();
  await page.getByRole('button', { name: 'Use your authenticator app' }).click();
  await expectNoAccessibilityViolations(page);
  // The next period's code: the one that turned it on is spent (each code works once).
  await page.getByLabel('Authentication code').fill(codeFor(secret, 1));
  await page.getByRole('checkbox', { name: 'Trust this device for 30 days' }).check();
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // This browser is trusted now: the password alone signs it in.
  expect((await page.request.post('/api/auth/sign-out')).status()).toBe(200);
  const again = await page.request.post('/api/auth/sign-in/email', {
    data: { email: account.email, password: PASSWORD },
  });
  expect(await again.json()).toMatchObject({ user: { email: account.email, twoFactorEnabled: true } });
});

test.describe('an admin under the default', () => {
  test.describe.configure({ mode: 'serial' });
  let own: OwnServer | undefined;
  let url: string;
  let seed: BrowserSeed;

  test.beforeAll(async () => {
    // Copying the seeded folder and the server opening its database: slow on a busy machine.
    test.setTimeout(180_000);
    // No ADMIN_TWO_FACTOR: the default, required.
    own = await startOwnServer('two-factor', {});
    ({ url, seed } = own);
  });

  test.afterAll(async () => {
    await own?.stop();
  });

  test('sees only the page that sets up two-factor when opening the console, and is told Support waits for it', async ({
    page,
  }) => {
    const admin = seed[test.info().project.name as keyof BrowserSeed].admin;
    const signedIn = await page.request.post(`${url}/api/auth/sign-in/email`, {
      data: { email: admin.email, password: PASSWORD },
      headers: { origin: url },
    });
    expect(signedIn.status()).toBe(200);
    for (const path of ['/admin', '/admin/finance']) {
      await page.goto(`${url}${path}`);
      await expect(page).toHaveURL(/\/admin\/two-factor$/);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Set up two-factor authentication' }),
      ).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Admin sections' })).toHaveCount(0);
    }
    await expect(page.getByText(/asks every admin to sign in with a code/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Set up two-factor authentication' })).toBeVisible();
    await expectNoAccessibilityViolations(page);

    // Support's conversations wait for two-factor too, and the messages page says so.
    await page.goto(`${url}/messages`);
    await expect(page.getByText(/Conversations with Support show here once you/)).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await page.getByRole('link', { name: 'set up two-factor authentication' }).click();
    await expect(page).toHaveURL(/\/admin\/two-factor$/);
  });
});
