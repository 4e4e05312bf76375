/**
 * A tutor's cancellation policy in the browser, against the server that takes payments: the tutor
 * sets a 48-hour window and a 50% fee on the availability screen, and a booking inside it is still
 * free to cancel in its first minutes; a student whose lesson inside the window was booked hours
 * ago is told the fee before confirming, pays it, and the wallet gives back the rest. An admin
 * finds a lesson on the console's Lessons screen and cancels it for a reason, the student's price
 * going back in full. Runs at both widths on the "-paid" projects (playwright.config.ts).
 */
import { Temporal } from 'temporal-polyfill';
import { formatAmount } from '../../src/shared/amounts';
import { feeCents } from '../../src/shared/lessons/cancellation-policy';
import { shortDayLabel } from '../../src/shared/lessons/lesson-times';
import {
  expect,
  expectNoAccessibilityViolations,
  secondBrowser,
  seededPair,
  signInAs,
  test,
  unfold,
  unique,
} from './fixtures';
import { fundedStudent, openTutor, walletLink } from './money-fixtures';

const ZONE = 'Europe/Berlin';
test.use({ timezoneId: ZONE });

test.beforeEach(async ({ page }) => {
  const config = (await (await page.request.get('/api/config')).json()) as { payments?: { on: boolean } };
  expect(config.payments?.on, 'this spec needs the server with payments on').toBe(true);
});

/** 10:00 in the tutors' zone, `days` from today. */
const tenOClock = (days: number) =>
  Temporal.Now.plainDateISO(ZONE)
    .add({ days })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from('10:00') }).epochMilliseconds;

test('a tutor’s 48-hour window and 50% fee: the student sees the fee before cancelling, and gets the rest back', {
  tag: '@phone',
}, async ({ page, browser }) => {
  // Three new accounts (an argon2id hash each), a top-up and four accessibility scans: more than
  // most journeys, on two shared cores.
  test.slow();
  // The tutor chooses the policy with their availability.
  const tutor = await openTutor(browser, `Wanda Window${unique()}`, ZONE);
  await tutor.page.goto('/availability');
  await unfold(tutor.page, 'Booking settings');
  await tutor.page.getByLabel('Cancellation window').selectOption('48');
  await tutor.page.getByLabel('Late cancellation fee').selectOption('50');
  const sentence = 'Free cancellation until 48 hours before the lesson; after that, 50% of the price.';
  await expect(tutor.page.getByText(`Students see: ${sentence}`)).toBeVisible();
  await tutor.page.getByRole('button', { name: 'Save Availability' }).click();
  await expect(
    tutor.page.getByRole('status').filter({ hasText: 'Your availability has been saved.' }),
  ).toBeVisible();
  await expectNoAccessibilityViolations(tutor.page);
  await tutor.page.context().close();

  // A student with a balance books tomorrow at 10:00: inside the window, and told the policy.
  await fundedStudent(page, browser, {
    displayName: `Beth Booker${unique()}`,
    amountCents: 5000,
    zone: ZONE,
  });
  await page.goto(`/tutors/${tutor.id}`);
  const booking = page.getByRole('region', { name: 'Book a lesson' });
  await expect(booking).toContainText(sentence);
  const tomorrow = tenOClock(1);
  const dayName = shortDayLabel(tomorrow, ZONE);
  await booking.getByRole('radio', { name: new RegExp(`^${dayName}, `) }).check();
  await booking
    .getByRole('group', { name: new RegExp(`^${dayName}`) })
    .getByRole('button', { name: '10:00', exact: true })
    .click();
  await booking.getByRole('button', { name: 'Confirm booking' }).click();
  await expect(booking.getByRole('status').filter({ hasText: 'Booked' })).toBeVisible();

  // Just booked, it can no longer be moved, but cancelling is still free for a few minutes: until
  // when (in the student's zone; the clock alone when it is today), and what it costs after ($40
  // at 50%).
  await page.goto('/schedule');
  const justBooked = page.getByRole('region', { name: 'Upcoming lessons' }).getByRole('listitem').first();
  await expect(justBooked).toContainText(
    /this lesson can no longer be moved\. Cancelling it is free until (\w+, \w+ \d+, \d{4}, )?\d{2}:\d{2}, then \$20\./,
  );
  await page.screenshot({ path: `.tmp/schedule-free-until-${test.info().project.name}.png`, fullPage: true });

  // A lesson inside the same kind of window, booked hours ago: cancelling it costs half its price.
  const { lateFee } = seededPair();
  if (!lateFee) throw new Error('the paid seed has no late-fee lesson');
  const student = await secondBrowser(browser, ZONE);
  await signInAs(student, lateFee.student);
  // The schedule writes a whole amount without cents ("$8"), as it writes prices.
  const fee = formatAmount(feeCents(lateFee.priceCents, 50), 'USD');
  const rest = formatAmount(lateFee.priceCents - feeCents(lateFee.priceCents, 50), 'USD', {
    minor: 'always',
  });
  await student.goto('/schedule');
  const lesson = student
    .getByRole('region', { name: 'Upcoming lessons' })
    .getByRole('listitem')
    .filter({ has: student.getByRole('button', { name: 'Cancel lesson' }) });
  await expect(lesson).toContainText(`Cancelling now costs ${fee} (50% of the price).`);
  await lesson.getByRole('button', { name: 'Cancel lesson' }).click();
  const step = lesson.getByRole('group', { name: 'Cancel this lesson?' });
  await expect(step).toContainText(
    `Cancelling now costs ${fee}: it is inside ${lateFee.tutor.displayName}'s cancellation window. The rest of the price goes back to your wallet.`,
  );
  await expectNoAccessibilityViolations(student);
  await step.getByRole('button', { name: `Yes, cancel and pay ${fee}` }).click();
  await expect(student.getByRole('status').filter({ hasText: /^Lesson cancelled/ })).toBeVisible();

  // The wallet: the rest of the price is back in the balance; the fee went to the tutor.
  await student.goto('/wallet');
  const history = student.getByRole('region', { name: 'History' });
  const returned = history.getByRole('listitem').filter({ hasText: 'cancelled late: the rest of the price' });
  await expect(returned).toContainText('Lesson not held: back to your balance');
  await expect(returned).toContainText(`+${rest}`);
  // $200 topped up, the price held, half of it given back.
  const balance = 20_000 - lateFee.priceCents + (lateFee.priceCents - feeCents(lateFee.priceCents, 50));
  await expect(await walletLink(student)).toHaveAccessibleName(
    new RegExp(`^Wallet ${formatAmount(balance, 'USD', { minor: 'always' }).replace('$', '\\$')}`),
  );
  await expectNoAccessibilityViolations(student);
  await student.context().close();

  // The tutor's wallet calls what they got a late cancellation fee, not a lesson taught.
  const tutorOfLesson = await secondBrowser(browser, ZONE);
  await signInAs(tutorOfLesson, lateFee.tutor);
  await tutorOfLesson.goto('/wallet');
  const earned = tutorOfLesson
    .getByRole('region', { name: 'History' })
    .getByRole('listitem')
    .filter({ hasText: 'late cancellation fee' });
  await expect(earned).toContainText('Late cancellation fee earned: the lesson did not take place');
  await expect(earned).not.toContainText('Lesson taught');
  await tutorOfLesson.screenshot({
    path: `.tmp/wallet-late-fee-${test.info().project.name}.png`,
    fullPage: true,
  });
  await tutorOfLesson.context().close();
});

test('an admin finds a lesson on the Lessons screen and cancels it for a reason; the student gets the price back', {
  tag: '@phone',
}, async ({ page, browser }) => {
  const tutor = await openTutor(browser, `Carl Console${unique()}`, ZONE);
  await tutor.page.context().close();
  const student = await fundedStudent(page, browser, {
    displayName: `Nina Notified${unique()}`,
    amountCents: 5000,
    zone: ZONE,
  });
  const booked = await page.request.post('/api/lessons', {
    data: { tutorId: tutor.id, start: new Date(tenOClock(3)).toISOString(), minutes: 60, subject: 'Algebra' },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const lessonId = ((await booked.json()) as { id: string }).id;

  // The admin opens the Lessons section from the console and searches by the student's email.
  const admin = await secondBrowser(browser, ZONE);
  await signInAs(admin, seededPair().admin);
  await admin.goto('/admin');
  await admin
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link', { name: 'Lessons' })
    .click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Lessons' })).toBeVisible();
  const search = admin.getByRole('search', { name: 'Lessons' });
  await search.getByRole('searchbox', { name: 'Tutor or student' }).fill(student.email);
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(admin.getByText(`1 upcoming lesson for “${student.email}”`)).toBeVisible();
  const card = admin.getByRole('article').filter({ hasText: student.displayName });
  await expect(card).toContainText('Algebra · 60 minutes');
  await expect(card).toContainText('Confirmed');
  await expect(card).toContainText('Paid · held');
  await expect(card).toContainText('$40.00');
  await expect(card).toContainText('No late cancellations');
  await expectNoAccessibilityViolations(admin);

  // Cancelling asks for a reason, and says the student gets the price back in full.
  await card.getByRole('button', { name: 'Cancel' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Cancel this lesson?' });
  await expect(dialog).toContainText(`${student.displayName} gets the price, $40.00, back in full`);
  await dialog.getByRole('button', { name: 'Cancel the lesson' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Reason (required)' })).toHaveAccessibleDescription(
    /Please give a reason/,
  );
  await expectNoAccessibilityViolations(admin);
  await dialog.getByRole('textbox', { name: 'Reason (required)' }).fill('The tutor is ill this week');
  await dialog.getByRole('button', { name: 'Cancel the lesson' }).click();
  await expect(admin.getByRole('status').filter({ hasText: /^Cancelled: Algebra/ })).toContainText(
    `${student.displayName} got $40.00 back`,
  );
  await expect(card).toHaveCount(0);
  await expect(
    admin.getByText(`No upcoming lesson has a tutor or student matching “${student.email}”.`),
  ).toBeVisible();
  await admin.context().close();

  // The student's lesson reads cancelled, and their $40 is back.
  await page.goto(`/lessons/${lessonId}/room`);
  await expect(page.getByText('This lesson was cancelled, so it has no room.')).toBeVisible();
  await expect(page.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(await walletLink(page)).toHaveAccessibleName(/^Wallet \$50\.00/);
  await expectNoAccessibilityViolations(page);
});
