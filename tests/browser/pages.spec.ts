/** Every page, for each kind of visitor, at phone and desktop widths. */
import type { Page } from '@playwright/test';
import * as messages from '../../src/shared/messages';
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  isNavFolded,
  openMenuIfCollapsed,
  test,
  uniqueEmail,
  waitForMail,
} from './fixtures';

const HOME_TITLE = /^Tutorlane: one-on-one tutoring with verified tutors$/;

/** Opens a page and waits for its heading and title. */
async function open(page: Page, path: string, heading: string | RegExp, title: RegExp) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page).toHaveTitle(title);
}

/** Opens a page, its heading and title, and scans it. */
async function visit(page: Page, path: string, heading: string | RegExp, title: RegExp) {
  await open(page, path, heading, title);
  await expectNoAccessibilityViolations(page);
}

test('a signed-out visitor sees the home page with its title and no accessibility violation', {
  tag: '@phone',
}, async ({ page }) => {
  await visit(page, '/', 'Learn anything with a tutor who gets you', HOME_TITLE);
  // Signed out on first load: Login and Sign Up, neither Dashboard nor Logout.
  await openMenuIfCollapsed(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Sign Up' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  await expect(nav.getByRole('button', { name: 'Logout' })).toHaveCount(0);
  // Never the first description's sample figures: a figure is one an admin set, or a real count once
  // it reaches 10 (tests/browser/site-settings.spec.ts, tests/api/school-figures.test.ts).
  for (const sample of ['10,000+', '500+', '50,000+'])
    await expect(page.getByText(sample, { exact: true })).toHaveCount(0);
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
  // Only what the product does today, and no invented person.
  await expect(page.getByText(/coming soon/i)).toHaveCount(0);
  await expect(page.getByText('Dr. Sarah Chen')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Get Started Free' })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('link', { name: 'Learn More' })).toHaveAttribute('href', '/contact');
});

// One test per page: each runs an accessibility scan, which takes seconds on a busy machine.
for (const [path, heading, title] of [
  ['/contact', 'Contact Us', /^Contact us · Tutorlane$/],
  ['/login', 'Sign in to Tutorlane', /^Sign in · Tutorlane$/],
  ['/verify-email', 'Verify your email', /^Verify your email · Tutorlane$/],
  ['/forgot-password', 'Forgot your password?', /^Forgot password · Tutorlane$/],
  ['/reset-password?token=abc', 'Choose a new password', /^Reset password · Tutorlane$/],
  ['/no-such-page', 'Page not found', /^Page not found · Tutorlane$/],
] as const) {
  test(`a signed-out visitor sees ${path} with its title and no accessibility violation`, {
    tag: '@phone',
  }, async ({ page }) => {
    await visit(page, path, heading, title);
  });
}

test('a signed-out visitor sees /signup with its title, and no accessibility violation with the human check in place', {
  tag: '@phone',
}, async ({ page }) => {
  // One scan, once the human check is in place: the page before it is the same page, less the check.
  await open(page, '/signup', 'Create your account', /^Create your account · Tutorlane$/);
  await expect(page.getByRole('checkbox', { name: /not a robot/i })).toBeAttached();
  await expectNoAccessibilityViolations(page);
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
  test(`a verified ${role} sees the ${role} dashboard and schedule`, { tag: '@phone' }, async ({ page }) => {
    const account = await createAccount(page, { role });
    // A first visit since verifying: "Welcome", not "Welcome back". Scanned once its cards are
    // drawn, below.
    await open(page, '/dashboard', `Welcome, ${account.displayName}`, /^Dashboard · Tutorlane$/);
    // A new account has no lessons: every card says so, and what to do next.
    if (role === 'tutor') {
      await expect(page.getByRole('region', { name: "Today's schedule" })).toContainText('No lessons today.');
      await expect(page.getByText('Students cannot book you yet.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Set your hours' })).toHaveAttribute(
        'href',
        '/availability',
      );
      // The month's figure with its cents; what lessons ahead hold is apart from it, not in it.
      const earnings = page.getByRole('region', { name: 'Earnings this month' });
      await expect(earnings).toContainText('$0.00');
      await expect(earnings).toContainText('The price of the lessons that took place in');
      await expect(earnings.getByRole('definition')).toHaveText(['$0.00', '$0.00']);
      await expect(earnings.getByRole('term')).toHaveText(['Last month', 'Your confirmed lessons ahead']);
      const performance = page.getByRole('region', { name: 'Performance' });
      for (const label of ['Total sessions', 'Active students', 'Requests waiting'])
        await expect(performance).toContainText(label);
      await expect(page.getByRole('link', { name: 'Set Availability' })).toHaveAttribute(
        'href',
        '/availability',
      );
      await expect(page.getByRole('link', { name: 'View Messages' })).toHaveAttribute('href', '/messages');
      await expect(page.getByRole('link', { name: 'Update Profile' })).toHaveAttribute('href', '/profile');
    } else {
      await expect(page.getByRole('region', { name: 'Upcoming lessons' })).toContainText(
        'No lessons booked yet.',
      );
      await expect(page.getByRole('region', { name: 'Learning progress' })).toContainText(
        'Set a goal for what you are learning',
      );
      await expect(page.getByRole('link', { name: 'Browse Tutors' })).toHaveAttribute('href', '/tutors');
    }
    await expectNoAccessibilityViolations(page);

    await visit(page, '/schedule', 'Schedule', /^Schedule · Tutorlane$/);
    await expect(page.getByRole('heading', { level: 2, name: /^Week of / })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Upcoming lessons' })).toContainText('No lessons ahead.');
    await expect(page.getByRole('heading', { name: 'Calendar feed' })).toBeVisible();
    if (role === 'tutor')
      await expect(page.getByRole('region', { name: 'Requests' })).toContainText('No requests are waiting');
    await expect(
      page.getByText(
        role === 'tutor' ? /availability and upcoming sessions/ : /upcoming lessons with tutors/,
      ),
    ).toBeVisible();
    // The week pages forward and back through the URL.
    await page.getByRole('link', { name: 'Next week' }).click();
    await expect(page).toHaveURL(/\/schedule\?week=\d{4}-\d{2}-\d{2}$/);
    await page.getByRole('link', { name: 'This week' }).click();
    await expect(page).toHaveURL(/\/schedule$/);

    await visit(page, '/', 'Learn anything with a tutor who gets you', HOME_TITLE);
    await visit(page, '/contact', 'Contact Us', /^Contact us · Tutorlane$/);
  });
}

test('a signed-in student sees their profile and Not Found, each without an accessibility violation', {
  tag: '@phone',
}, async ({ page }) => {
  await createAccount(page, { role: 'student' });
  await visit(page, '/profile', 'Your profile', /^Your profile · Tutorlane$/);
  await visit(page, '/no-such-page', 'Page not found', /^Page not found · Tutorlane$/);
  await openMenuIfCollapsed(page);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }),
  ).toBeVisible();
});

test('Update Profile changes the display name, and the navigation shows it at once', {
  tag: '@phone',
}, async ({ page }) => {
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

test('the navigation marks the current page, and on a phone folds behind Toggle menu', {
  tag: '@phone',
}, async ({ page }) => {
  await page.goto('/contact');
  await openMenuIfCollapsed(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current', 'page');
  if (!isNavFolded(page)) {
    await expect(page.getByRole('button', { name: 'Toggle menu' })).toBeHidden();
    return;
  }
  await expectNoAccessibilityViolations(page);
  const toggle = page.getByRole('button', { name: 'Toggle menu' });
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Home' })).toBeHidden();
  await expect(toggle).toBeFocused();
  // The link of the page the visitor is on changes no path, and closes the menu all the same.
  await toggle.click();
  await nav.getByRole('link', { name: 'Contact Us' }).click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Home' })).toBeHidden();
  await toggle.click();
  await nav.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

test(
  'the navigation fits every width from 360 to 1440 px with an 80-character name; Logout stays reachable',
  { tag: '@phone' },
  async ({ page }, testInfo) => {
    // One long word too: nothing may rely on a space or a hyphen to wrap it.
    const longName = `Maximiliana ${'Wolkensteinhohenberg'.repeat(4)}`.slice(0, 80);
    expect(longName).toHaveLength(80);
    await createAccount(page, { role: 'tutor', displayName: longName });
    // Each project covers the widths nearest its own: the phone 360 and 768, the desktop 1024 and 1440.
    const widths = isNavFolded(page) ? [360, 768] : [1024, 1440];
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Welcome');
      await openMenuIfCollapsed(page);
      const logout = nav.getByRole('button', { name: 'Logout' });
      await expect(logout, `${width} px`).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Dashboard' }), `${width} px`).toBeVisible();
      // The name is cut to fit, whole in its tooltip and in the accessibility tree.
      const name = nav.getByText(longName, { exact: true }).filter({ visible: true });
      await expect(name).toBeVisible();
      await expect(name).toHaveAttribute('title', longName);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(0);
      const logoutBox = await logout.boundingBox();
      expect((logoutBox?.x ?? 0) + (logoutBox?.width ?? 0), `Logout inside ${width} px`).toBeLessThanOrEqual(
        width,
      );
      await page.screenshot({ path: testInfo.outputPath(`navigation-${width}.png`) });
    }
  },
);

test('Logout shows a spinner while it runs and keeps the focus', { tag: '@phone' }, async ({ page }) => {
  await createAccount(page);
  await page.goto('/');
  await openMenuIfCollapsed(page);
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/auth/sign-out', async (route) => {
    await held;
    await route.continue();
  });
  const logout = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' });
  await logout.click();
  await expect(logout).toHaveAttribute('aria-busy', 'true');
  await expect(logout.locator('svg.animate-spin')).toBeVisible();
  await expect(logout).toBeFocused();
  release();
  // The page was already /: wait for the signed-out navigation, not for the address.
  await expect(logout).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
  await openMenuIfCollapsed(page);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }),
  ).toBeVisible();
});

test('the contact page shows the configured details, business hours and the FAQ; live chat asks to sign in', async ({
  page,
}) => {
  await page.goto('/contact');
  await expect(page.getByRole('link', { name: 'support@tutorlane.test' })).toHaveAttribute(
    'href',
    'mailto:support@tutorlane.test',
  );
  await expect(page.getByRole('link', { name: '+1 (555) 010-0199' })).toBeVisible();
  // The site settings' default hours, one line each.
  await expect(page.getByRole('region', { name: 'Business hours' }).getByRole('listitem')).toHaveText([
    'Mon-Fri 9-6',
    'Sat 10-4',
    'Sun closed',
  ]);
  // No reply time is promised until an admin sets one (tests/browser/site-settings.spec.ts).
  await expect(page.getByText(/We (reply|respond) to every message/)).toHaveCount(0);
  const faq = page.getByRole('region', { name: 'Frequently asked questions' });
  await expect(faq.locator('summary')).toHaveCount(6);
  // Video lessons are described as they are: in the browser's lesson room.
  await faq.getByText('How do video sessions work?').click();
  await expect(faq.getByText(/opens the lesson room in your browser/)).toBeVisible();
  await expect(faq.getByText(/not part of Tutorlane yet|coming soon/)).toHaveCount(0);
  await faq.getByText('Can I cancel or reschedule a lesson?').click();
  await expect(faq.getByText(/Each tutor sets their own cancellation policy/)).toBeVisible();
  await faq.getByText('How much does tutoring cost?').click();
  // What most tutors charge, from the listed tutors' rates once five are listed; never the sample's.
  await expect(faq.getByText(/^Tutors set their own rates/)).toHaveText(
    /^Tutors set their own rates, shown on every tutor profile(\. Most lessons cost \$\d+(-\$\d+)? per hour)?, with no subscription\.$/,
  );
  await expect(faq.getByText(/\$25-75/)).toHaveCount(0);

  // Signed out, the chat with support waits behind sign-in (tests/browser/support.spec.ts goes on).
  await page.getByRole('button', { name: 'Start Live Chat' }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmessages%3Fsupport%3D1$/);
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
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByLabel('Name')).toHaveValue('');
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');
  await expectNoAccessibilityViolations(page);

  const mail = await waitForMail('support@tutorlane.test', `Billing Question from ${name}`);
  expect(mail.text).toContain(email);
  expect(mail.html).toContain('&lt;b&gt;support&lt;/b&gt;');
  expect(mail.headers['reply-to']).toContain(email);

  // Starting the next message takes the thanks for the last one away.
  await page.getByLabel('Name').fill('V');
  await expect(page.getByText(messages.contactSuccess)).toHaveCount(0);
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
  await expectNoAccessibilityViolations(page);

  // A browser check that fails next replaces the server's error: one alert, never two.
  await page.getByLabel('Email').fill('vera@example');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('alert')).toHaveText(messages.invalidEmail);
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Email')).toHaveAccessibleDescription(messages.invalidEmail);
});

test("the contact form checks the email and the lengths before sending, in the server's words", async ({
  page,
}) => {
  let posted = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/contact') && request.method() === 'POST') posted += 1;
  });
  await page.goto('/contact');
  await page.getByLabel('Name').fill('x'.repeat(81));
  await page.getByLabel('Email').fill('vera');
  await page.getByLabel('Subject').selectOption('general');
  await page.getByLabel('Message', { exact: true }).fill('Hello');
  const send = page.getByRole('button', { name: 'Send Message' });
  await send.click();
  await expect(page.getByRole('alert')).toHaveText('Name must be at most 80 characters');
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Name').fill('Vera Visitor');
  await expect(page.getByLabel('Name')).not.toHaveAttribute('aria-invalid');
  await send.click();
  await expect(page.getByRole('alert')).toHaveText(messages.invalidEmail);
  await page.getByLabel('Email').fill('vera@example.com');
  await page.getByLabel('Message', { exact: true }).fill('x'.repeat(5001));
  await send.click();
  await expect(page.getByRole('alert')).toHaveText('Message must be at most 5000 characters');
  await expectNoAccessibilityViolations(page);
  expect(posted).toBe(0);
});

test("the contact form shows the server's reason for a 400, and keeps the focus on Send Message while sending", async ({
  page,
}) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/contact', async (route) => {
    await held;
    await route.fulfill({
      status: 400,
      json: { message: 'Name must be on one line', code: 'VALIDATION_ERROR' },
    });
  });
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Vera Visitor');
  await page.getByLabel('Email').fill('vera@example.com');
  await page.getByLabel('Subject').selectOption('other');
  await page.getByLabel('Message', { exact: true }).fill('Hello');
  await page.getByRole('button', { name: 'Send Message' }).click();
  const sending = page.getByRole('button', { name: 'Sending…' });
  await expect(sending).toHaveAttribute('aria-disabled', 'true');
  await expect(sending).toHaveAttribute('aria-busy', 'true');
  await expect(sending).toBeFocused();
  release();
  await expect(page.getByRole('alert')).toHaveText('Name must be on one line');
  await expect(page.getByRole('button', { name: 'Send Message' })).toBeFocused();
});

test('the contact details and the human check come with the page, without a request of their own', async ({
  page,
}) => {
  const configRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/config') configRequests.push(request.url());
  });
  await page.goto('/contact');
  await expect(
    page.getByRole('region', { name: 'Reach us' }).getByRole('link', { name: 'support@tutorlane.test' }),
  ).toBeVisible();
  await page.goto('/signup');
  await expect(page.getByRole('checkbox', { name: /not a robot/i })).toBeVisible();
  await expect(page.getByText('Loading the human check…')).toHaveCount(0);
  expect(configRequests).toEqual([]);
});

test('on a page the server did not fill in, the contact details are fetched; when that fails, the page says so and a retry brings them', async ({
  page,
}) => {
  // Vite's dev server sends index.html as it is, without the configuration block.
  await page.route('**/contact', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(/<script id="tl-config"[^>]*>.*?<\/script>/, '');
    await route.fulfill({ response, body });
  });
  await page.route('**/api/config', (route) => route.abort());
  await page.goto('/contact');
  const reachUs = page.getByRole('region', { name: 'Reach us' });
  await expect(reachUs.getByRole('alert')).toContainText(
    'We could not load our email address, phone number and hours',
  );
  await expect(reachUs.getByText('Loading…')).toHaveCount(0);
  await expectNoAccessibilityViolations(page);
  await page.unroute('**/api/config');
  await reachUs.getByRole('button', { name: 'Try loading our details again' }).click();
  const email = reachUs.getByRole('link', { name: 'support@tutorlane.test' });
  await expect(email).toBeVisible();
  await expect(email).toBeFocused();
});

/** WCAG 2.1 contrast ratio of two computed rgb()/rgba() colours. */
function contrast(first: string, second: string): number {
  const luminance = (color: string) => {
    const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((channel) => {
      const c = Number(channel) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/** The focused element's outline, and the background of the nearest ancestor that paints one.
 *  Buttons transition their colours, outline colour included, so the tests poll `ringContrast`
 *  until the transition has settled. */
async function focusRing(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    let parent = element.parentElement;
    while (parent && getComputedStyle(parent).backgroundColor === 'rgba(0, 0, 0, 0)')
      parent = parent.parentElement;
    return {
      focusVisible: element.matches(':focus-visible'),
      style: style.outlineStyle,
      width: Number.parseFloat(style.outlineWidth),
      color: style.outlineColor,
      background: parent ? getComputedStyle(parent).backgroundColor : 'rgb(255, 255, 255)',
    };
  });
}

async function ringContrast(page: Page) {
  const ring = await focusRing(page);
  return contrast(ring.color, ring.background);
}

test('keyboard focus is clearly visible on a text field and on the dark call to action', async ({ page }) => {
  await page.goto('/contact');
  await page.getByLabel('Name').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email')).toBeFocused();
  let ring = await focusRing(page);
  expect(ring.style).not.toBe('none');
  expect(ring.width).toBeGreaterThanOrEqual(2);
  await expect.poll(() => ringContrast(page)).toBeGreaterThanOrEqual(3);

  await page.goto('/');
  await page.getByRole('link', { name: 'Learn More' }).focus();
  const cta = page.getByRole('link', { name: 'Create your free account' });
  for (let i = 0; i < 40 && !(await cta.evaluate((link) => link === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(cta).toBeFocused();
  ring = await focusRing(page);
  expect(ring.focusVisible).toBe(true);
  expect(ring.style).not.toBe('none');
  await expect.poll(() => ringContrast(page)).toBeGreaterThanOrEqual(3);
});

test("the footer's Become a tutor opens sign-up with Tutor chosen", async ({ page }) => {
  await page.goto('/signup');
  await expect(page.getByRole('radio', { name: 'Student' })).toBeChecked();
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Become a tutor' }).click();
  await expect(page).toHaveURL(/\/signup\?role=tutor$/);
  await expect(page.getByRole('radio', { name: 'Tutor' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Student' })).not.toBeChecked();
});

test('when the server ends the session behind the page, the schedule asks to sign up or sign in', async ({
  page,
}) => {
  await createAccount(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Welcome');
  // Signed out elsewhere (another tab): this page still believes it is signed in.
  expect((await page.request.post('/api/auth/sign-out', { data: {} })).status()).toBe(200);
  await openMenuIfCollapsed(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedule' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Schedule' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create Account' })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
  await expectNoAccessibilityViolations(page);
});
