/**
 * The console's families: a parent (signed up through the API) adds a child without a login; the
 * seeded admin opens "Families" from the console's navigation, finds the link by the parent's name
 * and unlinks it for a reason, in a dialog that says the child's account goes with it. The link
 * is then gone from the console and from the parent's family.
 */
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  secondBrowser,
  seededPair,
  signInAs,
  test,
} from './fixtures';

test('an admin finds a family link and unlinks it, for a reason', { tag: '@phone' }, async ({
  page,
  browser,
}) => {
  // Both widths run against one server: each its own parent, found by a name no one else has.
  const surname = `Linkwell${test.info().project.name}${Date.now().toString(36)}`;
  const parent = `Petra ${surname}`;
  await createAccount(page, { role: 'parent', displayName: parent });
  const added = await page.request.post('/api/family/children', {
    data: { firstName: 'Noah', birthYear: new Date().getUTCFullYear() - 9 },
  });
  expect(added.status(), await added.text()).toBe(201);

  const admin = await secondBrowser(browser);
  await signInAs(admin, seededPair().admin);
  await admin.goto('/admin');
  await admin
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link', { name: 'Families' })
    .click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Families' })).toBeVisible();
  await admin.getByRole('searchbox', { name: 'Parent or student' }).fill(surname);
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(admin.getByText(`1 family link for “${surname}”`)).toBeVisible();
  const card = admin.getByRole('article', { name: `Noah, paid for by ${parent}` });
  await expect(card).toContainText('No login of their own');
  await expectNoAccessibilityViolations(admin);

  await card.getByRole('button', { name: `Unlink Noah from ${parent}` }).click();
  const dialog = admin.getByRole('dialog', { name: `Unlink Noah from ${parent}?` });
  await expect(dialog).toContainText('Noah has no login of their own, so their account is deleted.');
  // The reason is required.
  await dialog.getByRole('button', { name: 'Unlink', exact: true }).click();
  await expect(dialog).toContainText('Please give a reason');
  await dialog.getByRole('textbox', { name: 'Reason (required)' }).fill('Linked by mistake, by phone');
  await dialog.getByRole('button', { name: 'Unlink', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByRole('status').filter({ hasText: `Unlinked Noah from ${parent}.` })).toContainText(
    'account is deleted',
  );
  await expect(card).toBeHidden();
  await expect(admin.getByText(`No family links for “${surname}”`)).toBeVisible();

  const family = await page.request.get('/api/family');
  expect((await family.json()).children).toEqual([]);
});
