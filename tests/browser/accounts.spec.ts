/** Account journeys in the browser. */
import * as messages from '../../src/shared/messages';
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  linkIn,
  openMenuIfCollapsed,
  PASSWORD,
  test,
  uniqueEmail,
  waitForMail,
} from './fixtures';

for (const role of ['Student', 'Tutor'] as const) {
  // The form and the human check at phone width once: the two roles differ only in the choice.
  const tag = role === 'Student' ? ['@phone'] : [];
  test(`a ${role.toLowerCase()} signs up, verifies through the mailed link and reaches the dashboard`, {
    tag,
  }, async ({ page }) => {
    const email = uniqueEmail(role.toLowerCase());
    await page.goto('/signup');
    await page.getByLabel('Full Name').fill(`New ${role}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password').fill(PASSWORD);
    await expect(page.getByRole('radio', { name: 'Student' })).toBeChecked();
    await page.getByRole('radio', { name: role }).check();
    const create = page.getByRole('button', { name: 'Create Account' });
    await expect(create).toBeDisabled();
    // ALTCHA's checkbox is covered by an SVG in the widget.
    await page.getByRole('checkbox', { name: /not a robot/i }).click();
    await expect(create).toBeEnabled({ timeout: 20_000 });
    await create.click();

    await expect(page).toHaveURL(/\/verify-email$/);
    await expect(page.getByText(email)).toBeVisible();
    await openMenuIfCollapsed(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByText(`New ${role}`).filter({ visible: true })).toBeVisible();
    await expect(nav.getByText(role, { exact: true }).filter({ visible: true })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Logout' }).filter({ visible: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);

    const link = linkIn(await waitForMail(email, 'Verify your email'), '/verify-email?token=');
    await page.goto(link);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText(`${role} dashboard`)).toBeVisible();
    await openMenuIfCollapsed(page);
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  });
}

test('sign-up shows its messages in the product order', async ({ page }) => {
  await page.goto('/signup');
  const alert = page.getByRole('alert');
  await page.getByLabel('Full Name').press('Enter');
  await expect(alert).toHaveText(messages.captchaRequired);

  await page.getByRole('checkbox', { name: /not a robot/i }).click();
  const create = page.getByRole('button', { name: 'Create Account' });
  await expect(create).toBeEnabled({ timeout: 20_000 });

  await page.getByLabel('Password', { exact: true }).fill('abc');
  await page.getByLabel('Confirm Password').fill('abd');
  await create.click();
  await expect(alert).toHaveText(messages.passwordsDoNotMatch);

  await page.getByLabel('Confirm Password').fill('abc');
  await create.click();
  await expect(alert).toHaveText(messages.passwordTooShort);

  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await create.click();
  await expect(alert).toHaveText(messages.fillAllFields);
});

test('one sign-up submit shows every problem at once, each said once', async ({ page }) => {
  await page.goto('/signup');
  const name = page.getByLabel('Full Name');
  // The name's limit shows while it is typed: a count near it, and nothing is cut.
  await name.fill('N'.repeat(60));
  await expect(page.getByText(/\/ 80/)).toHaveCount(0);
  await name.fill('N'.repeat(300));
  await expect(name).toHaveValue('N'.repeat(300));
  await expect(page.getByText('300 / 80: 220 too many')).toBeVisible();
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('abc');
  await page.getByLabel('Confirm Password').fill('abd');
  await page.getByLabel('Confirm Password').press('Enter');

  // The form's alert: the first of the product's messages, in its order.
  await expect(page.getByRole('alert')).toHaveText(messages.captchaRequired);
  const nameTooLong = 'Name must be at most 80 characters';
  const fields = [
    [name, nameTooLong],
    [page.getByLabel('Email'), messages.invalidEmail],
    [page.getByLabel('Password', { exact: true }), messages.passwordTooShort],
    [page.getByLabel('Confirm Password'), messages.passwordsDoNotMatch],
    // The human check's problem is the alert's: marked, and described by the alert, not told twice.
    [page.getByRole('checkbox', { name: /not a robot/i }), messages.captchaRequired],
  ] as const;
  for (const [field, message] of fields) {
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(new RegExp(`^${message}`));
  }
  for (const message of [
    messages.captchaRequired,
    nameTooLong,
    messages.invalidEmail,
    messages.passwordTooShort,
    messages.passwordsDoNotMatch,
  ]) {
    await expect(page.getByText(message, { exact: true }), message).toHaveCount(1);
  }
  await expectNoAccessibilityViolations(page);
  await page.screenshot({ path: test.info().outputPath('sign-up-problems.png'), fullPage: true });

  // Put right, a field's problem goes; the name's count goes once it fits.
  await name.fill('Nia Nobody');
  await expect(name).not.toHaveAttribute('aria-invalid');
  await expect(page.getByText(nameTooLong, { exact: true })).toHaveCount(0);
  await expect(page.getByText(/\/ 80/)).toHaveCount(0);
});

test('the human check loads once the visitor turns to the form, and ticking it starts the check at once', async ({
  page,
}) => {
  const widgetRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('altcha-setup')) widgetRequests.push(request.url());
  });
  await page.goto('/signup');
  const check = page.getByRole('checkbox', { name: /not a robot/i });
  await expect(check).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(widgetRequests).toHaveLength(0);

  // One tick, no second click: the widget loads and verifies on its own.
  await check.click();
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeEnabled({ timeout: 20_000 });
  expect(widgetRequests.length).toBeGreaterThan(0);
});

test('a keyboard user reaching the form loads the human check before getting to it', async ({ page }) => {
  const widgetRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('altcha-setup')) widgetRequests.push(request.url());
  });
  await page.goto('/signup');
  await page.getByLabel('Full Name').focus();
  await expect.poll(() => widgetRequests.length).toBeGreaterThan(0);
  // Space on the stand-in: the widget takes its place, keeps the focus, and checks at once.
  await page.getByRole('checkbox', { name: /not a robot/i }).focus();
  await page.keyboard.press('Space');
  const widgetBox = page.locator('altcha-widget input[type="checkbox"]');
  await expect(widgetBox).toBeFocused();
  // The widget's own checkbox is drawn: a visible border, not a bare label.
  expect(await widgetBox.evaluate((box) => getComputedStyle(box).borderTopStyle)).toBe('solid');
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeEnabled({ timeout: 20_000 });
});

test('an email already in use is refused with a clear message', async ({ page, browser }) => {
  const other = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': '10.250.0.1' } });
  const existing = await createAccount(other, { verified: false });
  await other.close();

  await page.goto('/signup');
  await page.getByLabel('Full Name').fill('Second Person');
  await page.getByLabel('Email').fill(existing.email.toUpperCase());
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('checkbox', { name: /not a robot/i }).click();
  await page.getByRole('button', { name: 'Create Account' }).click({ timeout: 20_000 });
  await expect(page.getByRole('alert')).toHaveText(`${messages.signupFailedPrefix}${messages.emailInUse}`);
  await expect(page).toHaveURL(/\/signup$/);
});

test('the guards send each visitor where the page table says', async ({ page, browser }) => {
  await page.goto('/dashboard');
  await expect(page, 'signed out /dashboard').toHaveURL(/\/login$/);
  // Any other page asked for is where signing in leads back to.
  await page.goto('/schedule');
  await expect(page, 'signed out /schedule').toHaveURL(/\/login\?redirectTo=%2Fschedule$/);

  await createAccount(page, { verified: false });
  for (const path of ['/dashboard', '/schedule']) {
    await page.goto(path);
    await expect(page, `unverified ${path}`).toHaveURL(/\/verify-email$/);
  }

  const verifiedPage = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': '10.250.0.2' } });
  await createAccount(verifiedPage);
  for (const path of ['/login', '/signup', '/verify-email']) {
    await verifiedPage.goto(path);
    await expect(verifiedPage, `verified ${path}`).toHaveURL(/\/dashboard$/);
  }
  await verifiedPage.goto('/schedule');
  await expect(verifiedPage.getByRole('heading', { name: 'Schedule', level: 1 })).toBeVisible();
  await verifiedPage.close();
});

test('an unverified user resends the verification mail', async ({ page }) => {
  const account = await createAccount(page, { verified: false });
  await page.goto('/verify-email');
  await page.getByRole('button', { name: 'Resend Verification Email' }).click();
  await expect(page.getByRole('status')).toHaveText(messages.verificationSent);
  await waitForMail(account.email, 'Verify your email', 2);
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  await page.getByRole('button', { name: 'Back to Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a refused resend says so', async ({ page }) => {
  const account = await createAccount(page, { verified: false });
  // Spend this address's mails for the hour, so the server itself refuses the next one.
  for (let i = 0; i < 10; i += 1) {
    const res = await page.request.post('/api/auth/send-verification-email', {
      data: { email: account.email },
    });
    if (res.status() === 429) break;
    expect(res.status()).toBe(200);
  }
  await page.goto('/verify-email');
  await page.getByRole('button', { name: 'Resend Verification Email' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.verificationFailed);
  await expect(page.getByRole('status')).toHaveCount(0);
});

test('an unverified user who signs in lands on /verify-email', async ({ page, browser }) => {
  const other = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': '10.250.0.5' } });
  const account = await createAccount(other, { verified: false });
  await other.close();

  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByText(account.email)).toBeVisible();
});

test('Create Account stays disabled while the sign-up is under way', async ({ page }) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/auth/sign-up/email', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill('Patient Pat');
  await page.getByLabel('Email').fill(uniqueEmail('patient'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('checkbox', { name: /not a robot/i }).click();
  const create = page.getByRole('button', { name: 'Create Account' });
  await expect(create).toBeEnabled({ timeout: 20_000 });
  await create.click();
  await expect(create).toBeDisabled();
  await expect(create).toHaveAttribute('aria-busy', 'true');
  release();
  await expect(page).toHaveURL(/\/verify-email$/);
});

test('a verification link opened where nobody is signed in leads to sign in, with a note', async ({
  page,
  browser,
}) => {
  const other = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': '10.250.0.3' } });
  const account = await createAccount(other, { verified: false });
  await other.close();
  await page.goto(linkIn(await waitForMail(account.email, 'Verify your email'), '/verify-email?token='));
  await expect(page).toHaveURL(/\/login\?verified=1$/);
  await expect(page.getByRole('status')).toHaveText(messages.emailVerifiedNote);
  // Opened again, the link says the email is verified rather than calling itself invalid.
  await page.goto(linkIn(await waitForMail(account.email, 'Verify your email'), '/verify-email?token='));
  await expect(page).toHaveURL(/\/login\?verified=1$/);
  await expect(page.getByRole('status')).toHaveText(messages.emailVerifiedNote);
  // A link that never worked says so, and offers a new one.
  await page.goto('/verify-email?token=never-issued-token-0123456789');
  await expect(page.getByRole('alert')).toHaveText(messages.verificationLinkInvalid);
  await expect(page.getByRole('button', { name: 'Resend Verification Email' })).toBeVisible();
});

test('a verification link opened where another verified account is signed in verifies it, and says so there', async ({
  page,
  browser,
}) => {
  const other = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': '10.250.0.6' } });
  const newcomer = await createAccount(other, { verified: false });
  await other.close();
  const signedIn = await createAccount(page);

  await page.goto(linkIn(await waitForMail(newcomer.email, 'Verify your email'), '/verify-email?token='));
  await expect(page.getByRole('heading', { name: 'Email verified', level: 1 })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(messages.emailVerifiedNote);
  await expect(page.getByText(signedIn.email)).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await expect(page.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');

  await page.getByRole('button', { name: 'Log out and sign in' }).click();
  await expect(page).toHaveURL(/\/login\?verified=1$/);
  await expect(page.getByRole('status')).toHaveText(messages.emailVerifiedNote);
  await page.getByLabel('Email').fill(newcomer.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  // Only a verified account reaches the dashboard.
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('logout goes home; login asks for both fields, refuses a wrong password and opens the dashboard', {
  tag: '@phone',
}, async ({ page }) => {
  const account = await createAccount(page);
  await page.goto('/dashboard');
  await openMenuIfCollapsed(page);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await openMenuIfCollapsed(page);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }),
  ).toBeVisible();

  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.fillAllFields);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill('not-the-password-42');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    `${messages.loginFailedPrefix}${messages.invalidCredentials}`,
  );
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a forgotten password is reset through the mailed link and works at once', async ({ page, browser }) => {
  const other = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': '10.250.0.4' } });
  const account = await createAccount(other);
  await other.close();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  // The address can change before the new page has replaced the sign-in form, whose Email field
  // has the same name: the form is filled once its own heading shows.
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('status')).toHaveText(messages.resetLinkSent);

  await page.goto(linkIn(await waitForMail(account.email, 'Reset your'), '/reset-password?token='));
  await page.getByLabel('New Password').fill('a-new-secret-42');
  await page.getByLabel('Confirm Password').fill('a-new-secret-41');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.passwordsDoNotMatch);
  await page.getByLabel('Confirm Password').fill('a-new-secret-42');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL(/\/login\?reset=1$/);
  await expect(page.getByRole('status')).toHaveText(messages.passwordResetDone);

  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill('a-new-secret-42');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a signed-in user who resets the password is signed out and lands on sign in', async ({ page }) => {
  const account = await createAccount(page);
  await page.goto('/dashboard');
  const forgot = await page.request.post('/api/auth/request-password-reset', {
    data: { email: account.email },
  });
  expect(forgot.status()).toBe(200);

  await page.goto(linkIn(await waitForMail(account.email, 'Reset your'), '/reset-password?token='));
  await page.getByLabel('New Password').fill('a-new-secret-43');
  await page.getByLabel('Confirm Password').fill('a-new-secret-43');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL(/\/login\?reset=1$/);
  await expect(page.getByRole('status')).toHaveText(messages.passwordResetDone);
  await openMenuIfCollapsed(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Logout' })).toHaveCount(0);

  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill('a-new-secret-43');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
