/**
 * A person's own data from /profile, against the server that takes payments: "Download my data"
 * saves the export's ZIP, and "Delete my account" with the password deletes it and lands on the
 * home page, signed out, with the confirmation; a student who still has money with the school sees
 * every amount instead of the password, and asks Support for a refund from there. At phone and
 * desktop width, axe-clean.
 */
import { Temporal } from 'temporal-polyfill';
import { createAccount, expect, expectNoAccessibilityViolations, PASSWORD, test, unique } from './fixtures';
import { fundedStudent, openTutor } from './money-fixtures';

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

test('downloads my data, then deletes my account with my password', { tag: '@phone' }, async ({ page }) => {
  const me = await createAccount(page, { displayName: 'Dana Departing' });
  await page.goto('/profile');
  const data = page.getByRole('region', { name: 'Your data' });
  await expect(data).toBeVisible();
  const deletion = page.getByRole('region', { name: 'Delete my account' });
  await expect(deletion).toContainText('cannot be undone');
  await expectNoAccessibilityViolations(page);

  const downloading = page.waitForEvent('download');
  await data.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^tutorlane-export-\d{4}-\d{2}-\d{2}\.zip$/);

  // A wrong password deletes nothing and says so.
  await deletion.getByLabel('Password').fill('not-my-password-at-all');
  await deletion.getByRole('button', { name: 'Delete my account' }).click();
  await expect(deletion.getByRole('alert')).toHaveText(
    'This password is not right. Your account has not been deleted.',
  );

  await deletion.getByLabel('Password').fill(PASSWORD);
  await deletion.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status')).toHaveText(
    'Your account has been deleted. We are sorry to see you go.',
  );
  const session = await (await page.request.get('/api/session')).json();
  expect(session.user).toBeNull();
  await expectNoAccessibilityViolations(page);

  const signIn = await page.request.post('/api/auth/sign-in/email', {
    data: { email: me.email, password: PASSWORD },
  });
  expect(signIn.status()).toBe(401);
});

test('shows the money a student still has, and asks Support to refund it', { tag: '@phone' }, async ({
  page,
  browser,
}) => {
  // A package of five hour lessons at $36, one of them booked; $120 left in the balance; a $50
  // transfer asked for and not made.
  const tutor = await openTutor(browser, `Mona Moneyleft${unique()}`, ZONE, [
    { lessons: 5, minutes: 60, discountPercent: 10 },
  ]);
  await tutor.page.context().close();
  await fundedStudent(page, browser, {
    displayName: `Lee Leaving${unique()}`,
    amountCents: 30_000,
    zone: ZONE,
  });
  const bought = await page.request.post('/api/packages', {
    data: { tutorId: tutor.id, lessons: 5, minutes: 60 },
  });
  expect(bought.status(), await bought.text()).toBe(201);
  const start = Temporal.Now.plainDateISO(ZONE)
    .add({ days: 2 })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from('10:00') })
    .toInstant()
    .toString();
  const booked = await page.request.post('/api/lessons', {
    data: { tutorId: tutor.id, start, minutes: 60, subject: 'Algebra' },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const asked = await page.request.post('/api/wallet/top-ups', {
    data: { amountCents: 5000, method: 'manual' },
  });
  const { topUp } = (await asked.json()) as { topUp: { reference: string } };

  await page.goto('/profile');
  const deletion = page.getByRole('region', { name: 'Delete my account' });
  await expect(deletion.getByRole('heading', { name: 'Money you still have here' })).toBeVisible();
  for (const text of [
    'In your wallet$120.00',
    'Held for 1 upcoming lesson$36.00',
    '4 lessons unused in packages$144.00',
    'Top-ups waiting for the school$50.00',
    topUp.reference,
  ])
    await expect(deletion).toContainText(text);
  // The password would only be refused while money is left.
  await expect(deletion.getByLabel('Password')).toBeHidden();
  await expectNoAccessibilityViolations(page);

  await deletion.getByRole('button', { name: 'Ask for a refund' }).click();
  await expect(page).toHaveURL(/\/messages\/[0-9a-f-]{36}$/);
  const log = page.getByRole('log', { name: 'Messages with Support' });
  await expect(log).toContainText(
    'I would like to delete my account. Please refund the money I still have here:',
  );
  await expect(log).toContainText(`reference ${topUp.reference}, by transfer: $50`);
});
