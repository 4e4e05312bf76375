import {
  createAccount,
  expect,
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

test('an admin sees their role and an Admin badge beside their name', async ({ page }) => {
  await signInAs(page, seededPair().admin);
  await page.goto('/dashboard');
  await openMenuIfCollapsed(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Admin', exact: true })).toBeVisible();
  await expect(nav).toMatchAriaSnapshot(`- text: ${seededPair().admin.displayName} Student Admin`);
});

test('a long name is whole wherever the navigation has room for it, and cut only where it has not', async ({
  page,
}) => {
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
