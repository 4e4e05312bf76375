import { expect, test } from './fixtures';

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
