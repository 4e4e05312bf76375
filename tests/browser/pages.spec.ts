/** Every page of the seed, for each kind of visitor, at phone and desktop widths (issue #4). */
import type { Page } from '@playwright/test';
import { messages } from '../../src/shared/messages';
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  isPhone,
  openMenuIfCollapsed,
  test,
  uniqueEmail,
  waitForMail,
} from './fixtures';

async function visit(page: Page, path: string, heading: string | RegExp, title: RegExp) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page).toHaveTitle(title);
  await expectNoAccessibilityViolations(page);
}

test('a signed-out visitor sees every public page, each with its title and no accessibility violation', async ({
  page,
}) => {
  await visit(page, '/', 'Learn anything with a tutor who gets you', /Tutorlane/);
  for (const stat of ['10,000+', '500+', '50,000+'])
    await expect(page.getByText(stat, { exact: true })).toBeVisible();
  for (const feature of [
    'One-on-one sessions',
    'Flexible scheduling',
    'Video sessions',
    'Progress tracking',
    'Verified tutors',
    'Affordable rates',
  ]) {
    await expect(page.getByRole('heading', { name: feature })).toBeVisible();
  }
  for (const category of ['Math & Science', 'Languages', 'Programming', 'Arts & Design']) {
    await expect(page.getByRole('heading', { name: category })).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Get Started Free' })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('link', { name: 'Learn More' })).toHaveAttribute('href', '/contact');

  await visit(page, '/contact', 'Contact Us', /^Contact us · Tutorlane$/);
  await visit(page, '/login', 'Sign in to Tutorlane', /^Sign in · Tutorlane$/);
  await visit(page, '/signup', 'Create your account', /^Create your account · Tutorlane$/);
  await expect(page.getByRole('checkbox', { name: /not a robot/i })).toBeAttached();
  await expectNoAccessibilityViolations(page);
  await visit(page, '/verify-email', 'Verify your email', /^Verify your email · Tutorlane$/);
  await visit(page, '/forgot-password', 'Forgot your password?', /^Forgot password · Tutorlane$/);
  await visit(page, '/reset-password?token=abc', 'Choose a new password', /^Reset password · Tutorlane$/);
  await visit(page, '/no-such-page', 'Page not found', /^Page not found · Tutorlane$/);
});

test('the home page buttons lead to sign-up and contact', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Get Started Free' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.goto('/');
  await page.getByRole('link', { name: 'Learn More' }).click();
  await expect(page).toHaveURL(/\/contact$/);
});

for (const role of ['student', 'tutor'] as const) {
  test(`a verified ${role} sees the ${role} dashboard and schedule`, async ({ page }) => {
    const account = await createAccount(page, { role });
    await visit(page, '/dashboard', `Welcome back, ${account.displayName}`, /^Dashboard · Tutorlane$/);
    if (role === 'tutor') {
      await expect(page.getByRole('heading', { name: "Today's schedule" })).toBeVisible();
      await expect(page.getByRole('region', { name: "Today's schedule" }).getByRole('listitem')).toHaveCount(
        3,
      );
      await expect(page.getByRole('region', { name: 'Earnings this month' })).toContainText('$2,450');
      const performance = page.getByRole('region', { name: 'Performance' });
      for (const label of ['Rating', 'Total sessions', 'Active students'])
        await expect(performance).toContainText(label);
      for (const action of ['Set Availability', 'View Messages']) {
        await page.getByRole('button', { name: action }).click();
        await expect(page.getByRole('status').filter({ hasText: 'coming soon' }).first()).toBeVisible();
      }
      await expect(page.getByRole('link', { name: 'Update Profile' })).toHaveAttribute('href', '/profile');
    } else {
      await expect(page.getByRole('region', { name: 'Upcoming lessons' }).getByRole('listitem')).toHaveCount(
        3,
      );
      await expect(page.getByRole('progressbar')).toHaveCount(3);
      await expect(page.getByRole('heading', { name: 'Achievements' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Browse Tutors' })).toHaveAttribute('href', '/tutors');
    }
    await expectNoAccessibilityViolations(page);

    await visit(page, '/schedule', 'Schedule', /^Schedule · Tutorlane$/);
    await expect(page.getByRole('heading', { name: 'Calendar Coming Soon' })).toBeVisible();
    for (const card of ['Quick actions', 'Upcoming events', 'Statistics']) {
      await expect(page.getByRole('heading', { name: card })).toBeVisible();
    }
    await expect(
      page.getByText(
        role === 'tutor' ? /availability and upcoming sessions/ : /upcoming lessons with tutors/,
      ),
    ).toBeVisible();

    await visit(page, '/', 'Learn anything with a tutor who gets you', /Tutorlane/);
    await visit(page, '/contact', 'Contact Us', /^Contact us · Tutorlane$/);
  });
}

test('Update Profile changes the display name, and the navigation shows it at once', async ({ page }) => {
  await createAccount(page, { role: 'tutor', displayName: 'Old Name' });
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Update Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await page.getByLabel('Display Name').fill('Brand New Name');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByRole('status')).toHaveText(messages.profileSaved);
  await openMenuIfCollapsed(page);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByText('Brand New Name').filter({ visible: true }),
  ).toBeVisible();
});

test('the navigation marks the current page, and on a phone folds behind Toggle menu', async ({ page }) => {
  await page.goto('/contact');
  await openMenuIfCollapsed(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current', 'page');
  if (!isPhone(page)) {
    await expect(page.getByRole('button', { name: 'Toggle menu' })).toBeHidden();
    return;
  }
  const toggle = page.getByRole('button', { name: 'Toggle menu' });
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Home' })).toBeHidden();
  await expect(toggle).toBeFocused();
  await toggle.click();
  await nav.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

test('the contact page shows the configured details, business hours and the FAQ; live chat is honest', async ({
  page,
}) => {
  await page.goto('/contact');
  await expect(page.getByRole('link', { name: 'support@tutorlane.test' })).toHaveAttribute(
    'href',
    'mailto:support@tutorlane.test',
  );
  await expect(page.getByRole('link', { name: '+1 (555) 010-0199' })).toBeVisible();
  for (const text of [
    'Monday - Friday',
    '9:00 AM - 6:00 PM',
    'Saturday',
    '10:00 AM - 4:00 PM',
    'Sunday',
    'Closed',
  ]) {
    await expect(page.getByText(text, { exact: true })).toBeVisible();
  }
  await expect(page.getByText(/within 24 hours/).first()).toBeVisible();
  const faq = page.getByRole('region', { name: 'Frequently asked questions' });
  await expect(faq.locator('summary')).toHaveCount(6);
  await faq.getByText('Can I cancel or reschedule a lesson?').click();
  await expect(faq.getByText(/up to 24 hours before/)).toBeVisible();
  await faq.getByText('How much does tutoring cost?').click();
  await expect(faq.getByText(/between \$25 and \$75 per hour/)).toBeVisible();

  await page.getByRole('button', { name: 'Start Live Chat' }).click();
  await expect(page.getByRole('status')).toContainText('Live chat is coming soon');
  await expect(page.getByLabel('Name')).toBeFocused();
});

test('a contact message reaches the support mailbox, and the form clears', async ({ page }) => {
  const email = uniqueEmail('visitor');
  const name = `Vera ${email.split('@')[0]}`;
  await page.goto('/contact');
  await expect(page.getByLabel('Message', { exact: true })).toHaveAttribute('rows', '6');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.fillAllFields);

  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await expect(page.getByLabel('Subject').locator('option')).toHaveCount(7);
  await page.getByLabel('Subject').selectOption('billing');
  await page
    .getByLabel('Message', { exact: true })
    .fill(`Hello <b>support</b>, a question about invoices. ${email}`);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('status')).toHaveText(messages.contactSuccess);
  await expect(page.getByLabel('Name')).toHaveValue('');
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');

  const mail = await waitForMail('support@tutorlane.test', `Billing Question from ${name}`);
  expect(mail.text).toContain(email);
  expect(mail.html).toContain('&lt;b&gt;support&lt;/b&gt;');
  expect(mail.headers['reply-to']).toContain(email);
});

test('the contact form shows its error state when the server refuses', async ({ page, clientAddress }) => {
  // Five messages an hour per address: the sixth is refused by the server.
  for (let i = 0; i < 5; i++) {
    const res = await page.request.post('/api/contact', {
      headers: { 'X-Forwarded-For': clientAddress },
      data: { name: 'Rate Test', email: 'rate@example.com', subject: 'other', message: `message ${i}` },
    });
    expect(res.status()).toBe(201);
  }
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Vera Visitor');
  await page.getByLabel('Email').fill('vera@example.com');
  await page.getByLabel('Subject').selectOption('general');
  await page.getByLabel('Message', { exact: true }).fill('One message too many.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.contactError);
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('One message too many.');
});
