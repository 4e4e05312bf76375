/**
 * The operators' console in the browser: a student reports a tutor's message, the seeded admin
 * (granted the command line's way) finds it through "Admin" in the navigation, hides it, and the
 * student's open conversation shows at once that a moderator removed it; a tutor asks for verification from /profile, the
 * admin approves it, and the tutor's card carries the "Verified tutor" badge. Every console page is
 * scanned for accessibility, at both widths.
 */
import type { Page } from '@playwright/test';
import { HIDDEN_MESSAGE_TEXT, listingRuleSentence } from '../../src/shared/admin/admin-rules';
import { VERIFIED_TUTOR_MEANING } from '../../src/shared/verified-tutor';
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  openMenuIfCollapsed,
  PASSWORD,
  secondBrowser,
  seededPair,
  signInAs,
  test,
  unique,
  waitForMail,
} from './fixtures';

/** A published tutor profile, through the API. */
async function publishTutorProfile(page: Page, headline: string) {
  const res = await page.request.patch('/api/profile/details', {
    data: {
      headline,
      about: 'Patient lessons, step by step.',
      subjects: ['Chemistry'],
      hourlyRate: 40,
      languages: ['English'],
    },
  });
  expect(res.status()).toBe(200);
  return (await (await page.request.get('/api/session')).json()).user.id as string;
}

/** The seeded admin of this project, signed in in a browser of their own, on /admin through the nav. */
async function openConsole(browser: Parameters<typeof secondBrowser>[0]) {
  const admin = await secondBrowser(browser);
  await signInAs(admin, seededPair().admin);
  await admin.goto('/dashboard');
  await openMenuIfCollapsed(admin);
  await admin
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Admin', exact: true })
    .click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  return admin;
}

async function section(admin: Page, name: string) {
  await admin.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name }).click();
  await expect(admin.getByRole('heading', { level: 1, name })).toBeVisible();
}

test('a student reports a message; an admin hides it, and the conversation says a moderator removed it', {
  tag: '@phone',
}, async ({ page, browser }) => {
  // Both widths run this on one server, and the reports queue is the site's: names of their own.
  const rex = `Rex Rude${unique()}`;
  const tutor = await secondBrowser(browser);
  const tutorAccount = await createAccount(tutor, { role: 'tutor', displayName: rex });
  const tutorId = await publishTutorProfile(tutor, 'Chemistry without patience');
  await createAccount(page, { role: 'student', displayName: 'Polly Polite' });
  const started = await page.request.post('/api/conversations', {
    data: { tutorId, text: 'Hello, could you help with titration?' },
  });
  expect(started.status()).toBe(201);
  const conversationId = (await started.json()).id as string;
  const insult = 'Only an idiot would ask that. Pay me double.';
  expect(
    (
      await tutor.request.post(`/api/conversations/${conversationId}/messages`, { data: { text: insult } })
    ).status(),
  ).toBe(201);

  // The student reports the message from the conversation.
  await page.goto(`/messages/${conversationId}`);
  const log = page.getByRole('log', { name: `Messages with ${rex}` });
  await expect(log).toContainText(insult);
  await page.getByRole('button', { name: new RegExp(`^Report the message from ${rex}`) }).click();
  const dialog = page.getByRole('dialog', { name: 'Report this message' });
  await dialog.getByRole('textbox', { name: 'What is wrong with it?' }).fill('Insulting, and asks for money');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'the report was sent to the moderators' }),
  ).toBeVisible();

  // The admin finds it in the queue: the reason, and the text as it was.
  const admin = await openConsole(browser);
  await expectNoAccessibilityViolations(admin);
  // The overview offers a backup of the whole school, and says when the server last took one.
  const backups = admin.getByRole('region', { name: 'Backups' });
  await expect(backups).toContainText('Last scheduled backup');
  await expect(backups.getByRole('link', { name: 'Download a backup' })).toHaveAttribute(
    'href',
    '/api/admin/backup',
  );
  // Who is listed, said in words (this server does not require approval).
  await expect(admin.getByRole('region', { name: 'Tutors' })).toContainText(listingRuleSentence(false));
  await admin.screenshot({ path: `.tmp/admin-overview-${test.info().project.name}.png`, fullPage: true });
  await section(admin, 'Reports');
  const report = admin.getByRole('article', { name: `Report of a message by ${rex}` });
  await expect(report).toContainText(insult);
  await expect(report).toContainText('Polly Polite’s reason: Insulting, and asks for money');
  await expectNoAccessibilityViolations(admin);
  await admin.screenshot({ path: `.tmp/admin-reports-${test.info().project.name}.png`, fullPage: true });
  await report.getByRole('textbox', { name: 'Note or reason' }).fill('Please stay respectful.');
  await report.getByRole('button', { name: `Hide message by ${rex}` }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'The message is hidden' })).toBeVisible();
  await expect(report).toHaveCount(0);

  // The author is told; both sides now see what replaced it.
  const mail = await waitForMail(tutorAccount.email, 'message of yours was removed');
  expect(mail.text).toContain('Please stay respectful.');
  // The student's open conversation replaces it at once, and so does a fresh load.
  await expect(log).toContainText(HIDDEN_MESSAGE_TEXT);
  await expect(log).not.toContainText(insult);
  await page.reload();
  await expect(log).toContainText(HIDDEN_MESSAGE_TEXT);
  await expect(log).not.toContainText(insult);
  await expect(page.getByRole('button', { name: new RegExp(`^Report the message from ${rex}`) })).toHaveCount(
    0,
  );
  await expectNoAccessibilityViolations(page);

  // The audit log says who did it, and why.
  await section(admin, 'Audit log');
  const entry = admin.getByRole('listitem').filter({ hasText: 'Message hidden' }).first();
  await expect(entry).toContainText(seededPair().admin.email);
  await expect(entry).toContainText('Please stay respectful.');
  await expectNoAccessibilityViolations(admin);
  await admin.screenshot({ path: `.tmp/admin-audit-${test.info().project.name}.png`, fullPage: true });
  await section(admin, 'Contact messages');
  await expectNoAccessibilityViolations(admin);
});

test('a tutor asks for verification; an admin approves it, and the card carries the Verified tutor badge', {
  tag: '@phone',
}, async ({ page, browser }) => {
  const headline = `Verifiable chemistry ${Date.now().toString(36)}`;
  const vera = `Vera Verified${unique()}`;
  const tutorAccount = await createAccount(page, { role: 'tutor', displayName: vera });
  await publishTutorProfile(page, headline);
  await page.goto('/profile');
  const verification = page.getByRole('region', { name: 'Verification' });
  await verification.getByRole('button', { name: 'Ask for verification' }).click();
  await expect(verification.getByRole('status')).toContainText('You asked for review');
  await expectNoAccessibilityViolations(page);

  const admin = await openConsole(browser);
  await section(admin, 'Verifications');
  const entry = admin.getByRole('article', { name: `Verification of ${vera}` });
  await expect(entry).toContainText(headline);
  await expect(entry).toContainText('$40/hour');
  await expectNoAccessibilityViolations(admin);
  await admin.screenshot({
    path: `.tmp/admin-verifications-${test.info().project.name}.png`,
    fullPage: true,
  });
  // A decline needs a note: the button says so instead of sending.
  await entry.getByRole('button', { name: `Decline ${vera}` }).click();
  await expect(entry.getByRole('alert')).toHaveText('Please write a note: the tutor needs to know why.');
  await entry.getByRole('textbox', { name: `Note to ${vera}` }).fill('Welcome, your profile is clear.');
  await entry.getByRole('button', { name: `Approve ${vera}` }).click();
  await expect(admin.getByRole('status').filter({ hasText: `${vera} is verified` })).toBeVisible();
  const mail = await waitForMail(tutorAccount.email, 'profile is verified');
  expect(mail.text).toContain('Welcome, your profile is clear.');

  await page.goto(`/tutors?q=${encodeURIComponent(headline)}`);
  const card = page.getByRole('article').filter({ hasText: vera });
  const badge = card.getByText('Verified tutor');
  await expect(badge).toHaveAttribute('title', VERIFIED_TUTOR_MEANING);
  await expect(card).toMatchAriaSnapshot(
    '- text: Verified tutor (an administrator checked this profile) No reviews yet',
  );
});

test('an admin suspends the author of a report; signing in then says why, with the support address', async ({
  page,
  browser,
}) => {
  const sid = `Sid Spammer${unique()}`;
  const tutor = await secondBrowser(browser);
  const tutorAccount = await createAccount(tutor, { role: 'tutor', displayName: sid });
  const tutorId = await publishTutorProfile(tutor, 'Chemistry and other offers');
  await createAccount(page, { role: 'student' });
  const started = await page.request.post('/api/conversations', { data: { tutorId, text: 'Hi!' } });
  const conversationId = (await started.json()).id as string;
  const spam = await tutor.request.post(`/api/conversations/${conversationId}/messages`, {
    data: { text: 'Pay outside the site and get 50% off' },
  });
  const messageId = (await spam.json()).id as number;
  expect(
    (await page.request.post(`/api/messages/${messageId}/report`, { data: { reason: 'Spam' } })).status(),
  ).toBe(201);

  const admin = await openConsole(browser);
  await section(admin, 'Reports');
  const report = admin.getByRole('article', { name: `Report of a message by ${sid}` });
  // Suspending needs a reason: the button says so instead of sending.
  await report.getByRole('button', { name: `Suspend author ${sid}` }).click();
  await expect(report.getByRole('alert')).toHaveText(/Please give a reason/);
  await report
    .getByRole('textbox', { name: 'Note or reason' })
    .fill('Asked students to pay outside Tutorlane');
  await report.getByRole('button', { name: `Suspend author ${sid}` }).click();
  await expect(admin.getByRole('status').filter({ hasText: `${sid} is suspended` })).toBeVisible();

  // Their session has ended; signing in again is refused with the reason and where to write.
  expect((await tutor.request.get('/api/profile')).status()).toBe(401);
  await tutor.context().clearCookies();
  await tutor.goto('/login');
  await tutor.getByLabel('Email').fill(tutorAccount.email);
  await tutor.getByLabel('Password').fill(PASSWORD);
  await tutor.getByRole('button', { name: 'Sign In' }).click();
  const refusal = tutor.getByRole('alert');
  await expect(refusal).toContainText('Asked students to pay outside Tutorlane');
  await expect(refusal).toContainText('support@tutorlane.test');
  await expectNoAccessibilityViolations(tutor);
  expect((await tutor.request.get(`/api/tutors/${tutorId}`)).status()).toBe(404);
});

test('the console is for admins only: a student who opens /admin lands on the dashboard', {
  tag: '@phone',
}, async ({ page }) => {
  await createAccount(page, { role: 'student' });
  await page.goto('/dashboard');
  await openMenuIfCollapsed(page);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }),
  ).toHaveCount(0);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the console shows times on the 24-hour clock, like every other page', async ({ page }) => {
  await signInAs(page, seededPair().admin);
  await page.goto('/admin');
  const clock = '\\d{2}:\\d{2}';
  await expect(
    page.getByText(
      new RegExp(
        `^From [A-Z][a-z]{2} \\d{1,2}, \\d{4}, ${clock} to [A-Z][a-z]{2} \\d{1,2}, \\d{4}, ${clock}\\.$`,
      ),
    ),
  ).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText(/\d (AM|PM)\b/);
});

test.describe('in a German browser', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

  test("the console's dates follow the reader's locale", async ({ page }) => {
    await signInAs(page, seededPair().admin);
    await page.goto('/admin');
    await expect(
      // A German browser is answered in German: the sentence too, not only its dates.
      page.getByText(/^Von \d{1,2}\. \S+ \d{4}, \d{2}:\d{2} bis \d{1,2}\. \S+ \d{4}, \d{2}:\d{2}\.$/),
    ).toBeVisible();
  });
});
