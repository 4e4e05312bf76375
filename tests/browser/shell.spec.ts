import { expect, test } from '@playwright/test';

test('the home page shows the navigation for a signed-out visitor', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Home', 'Schedule', 'Contact Us', 'Login', 'Sign Up']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
});

test('every route of the seed has a page', async ({ page }) => {
  for (const path of [
    '/contact',
    '/login',
    '/signup',
    '/verify-email',
    '/forgot-password',
    '/reset-password',
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
  }
});

test('an unknown path shows Not Found with a link home, and the server says 404', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL('/');
});
