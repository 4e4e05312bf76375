/**
 * Live chat with the school's support: signed out, "Start Live Chat" on the contact page leads
 * through sign-in to the person's support conversation; they write, the seeded admin finds it in
 * /messages under the person's name (tagged Support) and answers, and the answer arrives live in
 * the person's open thread from "Support", naming no admin; an admin pressing it is told where
 * support conversations are. Unverified, the button leads to /verify-email; signed in, it is busy
 * while it opens the conversation and says so when it cannot.
 */
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  PASSWORD,
  secondBrowser,
  seededPair,
  signInAs,
  test,
  unique,
} from './fixtures';

test('signed out, Start Live Chat leads through sign-in to Support, and an admin’s answer arrives from Support', async ({
  page,
  browser,
}) => {
  // Both projects run at once and every admin sees every support conversation: a name for each
  // project and attempt.
  const name = `Lina Chat${unique()}`;
  const account = await createAccount(page, { displayName: name });
  expect((await page.request.post('/api/auth/sign-out', { data: {} })).status()).toBe(200);

  await page.goto('/contact');
  await page.getByRole('button', { name: 'Start Live Chat' }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmessages%3Fsupport%3D1$/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();

  // The conversation opens, empty, ready for the question.
  await expect(page).toHaveURL(/\/messages\/[\w-]+$/);
  const conversation = page.getByRole('region', { name: 'Conversation with Support' });
  await expect(conversation.getByRole('heading', { name: 'Support' })).toBeVisible();
  await expect(conversation).toContainText('Ask us anything');
  // No reply time is promised until an admin sets one (tests/browser/site-settings.spec.ts).
  await expect(conversation).toContainText('The Tutorlane team answers here.');
  await expect(conversation).not.toContainText('usually within');
  const box = page.getByRole('textbox', { name: 'Message Support' });
  await expect(box).toBeFocused();
  await expectNoAccessibilityViolations(page);
  await box.fill('Hello! How do I move a lesson to another day?');
  await box.press('Enter');
  const log = page.getByRole('log', { name: 'Messages with Support' });
  await expect(log).toContainText('How do I move a lesson to another day?');

  // The admin finds it under the person's name, marked as a support conversation, and answers.
  const admin = await secondBrowser(browser);
  const { admin: seededAdmin } = seededPair();
  await signInAs(admin, seededAdmin);
  await admin.goto('/messages');
  const row = admin
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('link', { name: new RegExp(name) });
  await expect(row).toContainText('Support');
  await expect(row).toContainText('1 unread');
  await row.click();
  const adminLog = admin.getByRole('log', { name: `Messages with ${name}` });
  await expect(adminLog).toContainText('How do I move a lesson to another day?');
  await expect(admin.getByRole('region', { name: `Conversation with ${name}` })).toContainText('Support');
  await expectNoAccessibilityViolations(admin);
  const adminBox = admin.getByRole('textbox', { name: `Message ${name}` });
  await adminBox.fill('Open the lesson on your schedule and choose Move.');
  await adminBox.press('Enter');
  await expect(adminLog).toContainText('You: Open the lesson on your schedule and choose Move.');

  // The person's open thread gets it live, from Support, with nothing to report or block.
  const answer = log.getByRole('listitem').filter({ hasText: 'Open the lesson on your schedule' });
  await expect(answer).toContainText('Support: Open the lesson on your schedule and choose Move.');
  await expect(page.getByRole('main')).not.toContainText(seededAdmin.displayName);
  await expect(page.getByRole('button', { name: /^Report/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Block' })).toHaveCount(0);

  // An admin is support: the button says where support conversations are.
  await admin.goto('/contact');
  await admin.getByRole('button', { name: 'Start Live Chat' }).click();
  await expect(admin.getByRole('status')).toContainText('You are on the support team');
  await admin.getByRole('link', { name: 'Open your messages' }).click();
  await expect(admin).toHaveURL(/\/messages$/);
  await admin.context().close();
});

test('signed in but unverified, Start Live Chat leads to verifying the email', async ({ page }) => {
  await createAccount(page, { verified: false });
  await page.goto('/contact');
  await page.getByRole('button', { name: 'Start Live Chat' }).click();
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByRole('button', { name: 'Resend Verification Email' })).toBeVisible();
});

test('signed in, Start Live Chat is busy while it opens the conversation, says when it cannot, and opens the same one again', async ({
  page,
}) => {
  await createAccount(page, { displayName: 'Rita Retry' });
  await page.goto('/contact');
  const start = page.getByRole('button', { name: 'Start Live Chat' });

  // The server refuses: the reason shows, and the button can be pressed again.
  await page.route('**/api/support/conversation', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'The service is busy. Please try again in a moment.' }),
    }),
  );
  await start.click();
  await expect(page.getByRole('alert')).toHaveText('The service is busy. Please try again in a moment.');
  await expect(start).not.toHaveAttribute('aria-busy');
  await page.unroute('**/api/support/conversation');

  // Busy while the conversation is being opened, then in it, ready to write.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/support/conversation', async (route) => {
    await held;
    await route.continue();
  });
  await start.click();
  await expect(start).toHaveAttribute('aria-busy', 'true');
  release();
  await expect(page).toHaveURL(/\/messages\/[\w-]+$/);
  const opened = page.url();
  await expect(page.getByRole('textbox', { name: 'Message Support' })).toBeFocused();
  await page.unroute('**/api/support/conversation');

  // Pressed again later: the same conversation.
  await page.goto('/contact');
  await page.getByRole('button', { name: 'Start Live Chat' }).click();
  await expect(page).toHaveURL(opened);
});
