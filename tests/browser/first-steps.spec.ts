/**
 * What a new user tripped over, each tried as a new user would: a page whose data fails, the way
 * to the profile, coming back after signing in, forms that mark every field at fault, the search's
 * pages and empty states, and time zones a person can read.
 */
import type { Page } from '@playwright/test';
import * as messages from '../../src/shared/messages';
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  openFiltersIfFolded,
  openMenuIfCollapsed,
  PASSWORD,
  test,
  uniqueEmail,
} from './fixtures';

async function publishedTutor(page: Page, name: string) {
  await createAccount(page, { role: 'tutor', displayName: name });
  const res = await page.request.patch('/api/profile/details', {
    data: {
      headline: 'Patient and clear',
      about: 'Clear explanations, lots of practice.',
      subjects: ['Algebra'],
      hourlyRate: 40,
      languages: ['English'],
      timeZone: 'Europe/Berlin',
    },
  });
  expect(res.status()).toBe(200);
  const session = await (await page.request.get('/api/session')).json();
  return session.user.id as string;
}

test("a tutor's page whose data fails keeps the layout, says what happened, and tries again", async ({
  page,
}) => {
  const id = await publishedTutor(page, 'Fay Failing');
  await page.route(`**/api/tutors/${id}`, (route) =>
    route.fulfill({ status: 500, json: { message: messages.unexpectedError, code: 'INTERNAL' } }),
  );
  await page.goto(`/tutors/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(messages.unexpectedError);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByText(/at \S+ \(|node_modules|\.tsx?:\d+/)).toHaveCount(0);
  await expectNoAccessibilityViolations(page);

  // Offline: said as such.
  await page.unroute(`**/api/tutors/${id}`);
  await page.route(`**/api/tutors/${id}`, (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Try loading the tutor’s page again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'We could not reach Tutorlane' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(messages.networkError);

  await page.unroute(`**/api/tutors/${id}`);
  await page.getByRole('button', { name: 'Try loading the tutor’s page again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Fay Failing' })).toBeVisible();
});

test('a student reaches their profile from the signed-in menu', { tag: '@phone' }, async ({ page }) => {
  await createAccount(page, { role: 'student' });
  await page.goto('/dashboard');
  await openMenuIfCollapsed(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your profile' })).toBeVisible();
});

test('a visitor sent from /schedule to sign in comes back to /schedule', async ({ page, browser }) => {
  const other = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': '10.251.0.1' } });
  const account = await createAccount(other);
  await other.close();
  await page.goto('/schedule');
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fschedule$/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/schedule$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Schedule' })).toBeVisible();
});

test('sign-up keeps the human check when the email is at fault, so the next try names the email again', async ({
  page,
}) => {
  let posted = 0;
  await page.route('**/api/auth/sign-up/email', (route) => {
    posted += 1;
    return route.fulfill({
      status: 400,
      json: { message: messages.invalidEmail, code: 'VALIDATION_ERROR' },
    });
  });
  await page.goto('/signup');
  await page.getByLabel('Full Name').fill('Eve Example');
  await page.getByLabel('Email').fill('eve@example');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('checkbox', { name: /not a robot/i }).click();
  const create = page.getByRole('button', { name: 'Create Account' });
  await expect(create).toBeEnabled({ timeout: 20_000 });

  // A malformed address is caught before anything is sent.
  await create.click();
  await expect(page.getByRole('alert')).toHaveText(messages.invalidEmail);
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  expect(posted).toBe(0);

  // One the server refuses (here, by its rules) does not spend the check: twice the same answer.
  await page.getByLabel('Email').fill(uniqueEmail('eve'));
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const answered = page.waitForResponse('**/api/auth/sign-up/email');
    await create.click();
    await answered;
    await expect(page.getByRole('alert')).toHaveText(
      `${messages.signupFailedPrefix}${messages.invalidEmail}`,
    );
  }
  expect(posted).toBe(2);
  await expect(create).toBeEnabled();
});

test('a form marks and describes every field at fault, not only the first', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.fillAllFields);
  for (const label of ['Email', 'Password']) {
    await expect(page.getByLabel(label)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel(label)).toHaveAccessibleDescription(messages.fillAllFields);
  }
  await expectNoAccessibilityViolations(page);
  // Edited, a field is no longer marked; the other still is.
  await page.getByLabel('Email').fill('someone@example.com');
  await expect(page.getByLabel('Email')).not.toHaveAttribute('aria-invalid');
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');

  await page.goto('/contact');
  await page.getByRole('button', { name: 'Send Message' }).click();
  for (const label of ['Name', 'Email', 'Message']) {
    await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('aria-invalid', 'true');
  }
  await expect(page.getByLabel('Subject')).not.toHaveAttribute('aria-invalid');
});

test('on a phone, a problem found at the foot of a long form is brought into view', {
  tag: '@phone-only',
}, async ({ page }) => {
  // A short phone, so the form's top is off the screen while its button is on it.
  await page.setViewportSize({ width: 390, height: 480 });
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Vera Visitor');
  await page.getByLabel('Email').fill('vera@example');
  await page.getByLabel('Subject').selectOption('general');
  const send = page.getByRole('button', { name: 'Send Message' });
  await send.scrollIntoViewIfNeeded();
  await page.getByLabel('Message', { exact: true }).fill('Hello there');
  await send.scrollIntoViewIfNeeded();
  await expect(page.getByLabel('Name')).not.toBeInViewport();
  await send.click();
  await expect(page.getByRole('alert')).toHaveText(messages.invalidEmail);
  await expect(page.getByRole('alert')).toBeInViewport();
});

test('a tutor is told a rate must be a whole number, and a failed save takes the old "saved" away', async ({
  page,
}) => {
  await createAccount(page, { role: 'tutor' });
  await page.goto('/profile');
  const rate = page.getByLabel('Hourly rate (USD)');
  await rate.fill('25.5');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByRole('alert')).toHaveText('Hourly rate must be a whole number');
  await expect(rate).toHaveAttribute('aria-invalid', 'true');

  await rate.fill('25');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  const saved = page.getByRole('status').filter({ hasText: messages.profileSaved });
  await expect(saved).toBeVisible();

  await page.route('**/api/profile/details', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({ status: 500, json: { message: messages.unexpectedError, code: 'INTERNAL' } })
      : route.continue(),
  );
  await page.getByLabel('Headline').fill('A headline that will not be saved');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.unexpectedError);
  await expect(saved).toHaveCount(0);
});

/** A search answered with `total` made-up tutors, paged as the server pages them. */
async function fakeSearch(page: Page, total: number) {
  await page.route(/\/api\/tutors(\?.*)?$/, (route) => {
    const params = new URL(route.request().url()).searchParams;
    const pageNumber = Number(params.get('page') ?? 1);
    const first = (pageNumber - 1) * 12;
    const tutors = Array.from({ length: Math.max(0, Math.min(12, total - first)) }, (_, i) => ({
      id: `made-up-${first + i}`,
      displayName: `Tutor ${first + i + 1}`,
      headline: 'A made-up tutor',
      subjects: ['Algebra'],
      languages: ['English'],
      hourlyRate: 30,
      yearsExperience: null,
      hasPhoto: false,
      photoVersion: null,
      rating: { average: null, count: 0 },
    }));
    return route.fulfill({ json: { total, page: pageNumber, pageSize: 12, tutors } });
  });
}

test("the search's Next brings the view and the focus to the top of the next page's results", async ({
  page,
}) => {
  await fakeSearch(page, 30);
  await page.goto('/tutors');
  await expect(page.getByText('30 tutors found')).toBeVisible();
  await page.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  const count = page.getByText('30 tutors found');
  await expect(count).toBeFocused();
  await expect(count).toBeInViewport();
  await expect(page.getByRole('link', { name: 'Tutor 13', exact: true })).toBeVisible();
});

test('an empty marketplace says there are no tutors yet; an empty search says none match', async ({
  page,
}) => {
  await fakeSearch(page, 0);
  await page.goto('/tutors');
  await expect(page.getByRole('heading', { name: 'There are no tutors here yet' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No tutors match your search' })).toHaveCount(0);
  await expectNoAccessibilityViolations(page);
  await page.goto('/tutors?subject=Algebra');
  await expect(page.getByRole('heading', { name: 'No tutors match your search' })).toBeVisible();
});

test('the search fits its options on a phone and a desktop', { tag: '@phone' }, async ({ page }) => {
  await page.goto('/tutors');
  await openFiltersIfFolded(page);
  for (const label of ['Category', 'Subject', 'Language', 'Sort by']) {
    // (The footer's language switcher is a Language select too: the search's is in the page.)
    const select = page.getByRole('main').getByLabel(label, { exact: true });
    // The widest option's text, measured as it would be drawn in the select, fits inside it.
    const fits = await select.evaluate((element: HTMLSelectElement) => {
      const style = getComputedStyle(element);
      const context = document.createElement('canvas').getContext('2d');
      if (!context) return false;
      context.font = `${style.fontSize} ${style.fontFamily}`;
      const widest = Math.max(
        ...[...element.options]
          .filter((option) => !option.disabled)
          .map((o) => context.measureText(o.text).width),
      );
      const room =
        element.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return widest <= room;
    });
    expect(fits, label).toBe(true);
  }
});

test('time zones are shown by their name and offset, not as raw identifiers', async ({ page }) => {
  const id = await publishedTutor(page, 'Zelda Zone');
  await page.goto(`/tutors/${id}`);
  await expect(
    page.getByText(/Central European (Standard|Summer) Time \(GMT\+[12]\) · Berlin/),
  ).toBeVisible();
  await expect(page.getByText('Europe/Berlin')).toHaveCount(0);

  await page.goto('/profile');
  await page.getByLabel('Time zone').selectOption('America/Chicago');
  await expect(page.getByLabel('Time zone').locator('option:checked')).toHaveText(
    /Central (Standard|Daylight) Time \(GMT-[56]\) · Chicago/,
  );
});
