import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  isNavFolded,
  openMenuIfCollapsed,
  seededPair,
  signInAs,
  test,
} from './fixtures';

test('an unknown path shows Not Found with a link home, and the server says 404', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a known page is served with 200', async ({ page }) => {
  for (const path of [
    '/',
    '/contact',
    '/login',
    '/signup',
    '/verify-email',
    '/forgot-password',
    '/reset-password',
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
  }
});

test('an admin sees their role and an Admin badge beside their name', { tag: '@phone' }, async ({ page }) => {
  await signInAs(page, seededPair().admin);
  await page.goto('/dashboard');
  await openMenuIfCollapsed(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Admin', exact: true })).toBeVisible();
  await expect(nav).toMatchAriaSnapshot(`- text: ${seededPair().admin.displayName} Student Admin`);
});

test('a long name is whole wherever the navigation has room for it, and cut only where it has not', {
  tag: '@phone',
}, async ({ page }) => {
  const longName = 'Evangeline Northcott-Featherstonehaugh 2';
  expect(longName).toHaveLength(40);
  await createAccount(page, { displayName: longName });
  const nav = page.getByRole('navigation', { name: 'Main' });
  const name = nav.getByText(longName, { exact: true }).filter({ visible: true });
  const isWhole = () => name.evaluate((element) => element.scrollWidth <= element.clientWidth);
  // The phone project covers the folded widths, the desktop one a small laptop (folded too when
  // signed in) and a desktop.
  const widths = isNavFolded(page) ? [390, 768] : [1024, 1280];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/dashboard');
    await openMenuIfCollapsed(page);
    await expect(name, `${width} px`).toHaveAttribute('title', longName);
    if (width < 1280) {
      expect(await isWhole(), `the whole name at ${width} px`).toBe(true);
    } else {
      // Beside the links, the name takes every pixel left: more than a first name and an initial.
      expect((await name.boundingBox())?.width ?? 0, `the name's room at ${width} px`).toBeGreaterThan(180);
    }
  }
});

test('an unknown path and a page whose data is not there are one Not Found page: a heading, a link home, no retry', async ({
  page,
}) => {
  await createAccount(page, { role: 'tutor' });
  const main = page.getByRole('main');
  const looks: string[] = [];
  // The first has no page at all; the second's loader answers 404 (no such student).
  for (const path of ['/no/such/page', '/students/no-such-student']) {
    await page.goto(path);
    const heading = main.getByRole('heading', { level: 1, name: 'Page not found' });
    await expect(heading, path).toBeVisible();
    await expect(main.getByRole('heading'), path).toHaveCount(1);
    await expect(main.getByRole('link', { name: 'Back to home' }), path).toBeVisible();
    await expect(main.getByRole('button'), path).toHaveCount(0);
    // No box drawn around the heading, even once the focus is moved to it.
    await heading.evaluate((element) => element.focus());
    expect(await heading.evaluate((element) => getComputedStyle(element).outlineStyle), path).toBe('none');
    looks.push(await main.ariaSnapshot());
  }
  expect(looks[1]).toBe(looks[0]);
  await expectNoAccessibilityViolations(page);
});

test('a page whose data failed to load offers to load it again, says what, and does', async ({ page }) => {
  await createAccount(page, { role: 'student' });
  let failed = false;
  await page.route('**/api/schedule?*', async (route) => {
    if (failed) return route.continue();
    failed = true;
    await route.abort('internetdisconnected');
  });
  await page.goto('/schedule');
  await expect(page.getByRole('heading', { level: 1, name: 'We could not reach Tutorlane' })).toBeVisible();
  const retry = page.getByRole('button', { name: 'Try loading the schedule again' });
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expectNoAccessibilityViolations(page);
  await retry.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Schedule' })).toBeVisible();
});
