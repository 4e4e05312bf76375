/**
 * Progress in two browsers, with the seeded student and tutor who share lessons that took place
 * (tests/support/browser-seed.ts): the tutor writes a lesson's notes on the schedule and the
 * student reads them there and in their history with the tutor; a goal's milestones, ticked by
 * the student on the dashboard and by the tutor on the student's page, move the dashboard's bar.
 */
import {
  expect,
  expectNoAccessibilityViolations,
  secondBrowser,
  seededPair,
  signInAs,
  test,
} from './fixtures';

test('a tutor writes notes on a lesson that took place, and the student reads them', async ({
  page,
  browser,
}) => {
  const { student, tutor } = seededPair();
  const covered = `Past tenses, ${test.info().project.name}: when to use each.`;
  await signInAs(page, tutor);
  await page.goto('/schedule');
  const recent = page.getByRole('region', { name: 'Recent lessons' });
  await recent
    .getByRole('button', { name: new RegExp(`^(Write|Edit) notes on .* with ${student.displayName}`) })
    .first()
    .click();
  await recent.getByLabel('What was covered').fill(covered);
  await recent.getByLabel('Homework').fill('Write ten sentences about last weekend.');
  await recent.getByRole('button', { name: 'Save notes' }).click();
  await expect(recent).toContainText(covered);
  await expect(recent.getByRole('button', { name: 'Save notes' })).toHaveCount(0);
  await expectNoAccessibilityViolations(page);

  const studentPage = await secondBrowser(browser);
  await signInAs(studentPage, student);
  await studentPage.goto('/schedule');
  const studentRecent = studentPage.getByRole('region', { name: 'Recent lessons' });
  await expect(studentRecent).toContainText(covered);
  await expect(studentRecent).toContainText('Write ten sentences about last weekend.');
  await expect(studentRecent.getByRole('button', { name: /notes/ })).toHaveCount(0);
  await expectNoAccessibilityViolations(studentPage);

  await studentRecent
    .getByRole('link', { name: `All lessons with ${tutor.displayName}` })
    .first()
    .click();
  await expect(
    studentPage.getByRole('heading', { level: 1, name: `Lessons with ${tutor.displayName}` }),
  ).toBeVisible();
  await expect(studentPage.getByRole('region', { name: 'Lessons' })).toContainText(covered);
  await expectNoAccessibilityViolations(studentPage);
  await studentPage.context().close();
});

test("a goal's milestones, ticked by the student and the tutor, move the dashboard's bar", async ({
  page,
  browser,
}) => {
  const { student, tutor } = seededPair();
  // A retry, or a repeat, meets the goals that earlier attempts saved: each attempt names its own.
  const { project, repeatEachIndex, retry } = test.info();
  const title = `Hold a conversation (${project.name} ${repeatEachIndex}.${retry})`;
  await signInAs(page, student);
  await page.goto('/dashboard');
  const progress = page.getByRole('region', { name: 'Learning progress' });
  await progress.getByRole('button', { name: 'Add a goal' }).click();
  await progress.getByLabel('Goal', { exact: true }).fill(title);
  await progress.getByLabel('Subject').selectOption('Spanish');
  await progress.getByLabel('Milestones (optional)').fill('Order a meal\nTalk about my week');
  await progress.getByRole('button', { name: 'Save goal' }).click();
  await expect(progress).toContainText(`Your goal "${title}" is saved.`);

  const goal = progress.getByRole('listitem', { name: title, exact: true });
  const bar = goal.getByRole('progressbar', { name: `Progress on ${title}` });
  await expect(bar).toHaveAttribute('aria-valuenow', '0');
  const box = goal.getByRole('checkbox', { name: 'Order a meal' });
  // Each time the box stops being busy, it must show the tick: the page never draws the box
  // unticked for a moment between the server's answer and the data read again.
  await box.evaluate((input: HTMLInputElement) => {
    const seen: boolean[] = [];
    Object.assign(window, { settledStates: seen });
    new MutationObserver(() => {
      if (input.getAttribute('aria-busy') === 'false') seen.push(input.checked);
    }).observe(input, { attributeFilter: ['aria-busy'] });
  });
  await box.check();
  await expect(bar).toHaveAttribute('aria-valuenow', '50');
  expect(
    await page.evaluate(() => (window as unknown as { settledStates: boolean[] }).settledStates),
  ).toEqual([true]);
  await expect(bar).toHaveAttribute('aria-valuetext', '1 of 2 milestones done');
  await expectNoAccessibilityViolations(page);

  // The tutor finds the student on their dashboard and ticks the other milestone.
  const tutorPage = await secondBrowser(browser);
  await signInAs(tutorPage, tutor);
  await tutorPage.goto('/dashboard');
  await tutorPage
    .getByRole('region', { name: 'Your students' })
    .getByRole('link', { name: student.displayName })
    .click();
  await expect(tutorPage.getByRole('heading', { level: 1, name: student.displayName })).toBeVisible();
  const goals = tutorPage
    .getByRole('region', { name: 'Learning goals' })
    .getByRole('listitem', { name: title, exact: true });
  await goals.getByRole('checkbox', { name: 'Talk about my week' }).check();
  await expect(goals.getByRole('progressbar', { name: `Progress on ${title}` })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );
  await expectNoAccessibilityViolations(tutorPage);
  await tutorPage.context().close();

  await page.reload();
  await expect(bar).toHaveAttribute('aria-valuenow', '100');
  // The student gives the goal a date; the bar stays where it was.
  await goal.getByRole('button', { name: `Edit the goal ${title}` }).click();
  await goal.getByLabel('Target date (optional)').fill('2027-06-30');
  await goal.getByRole('button', { name: 'Save goal' }).click();
  await expect(goal).toContainText('Spanish · by June 30, 2027');
  await expect(bar).toHaveAttribute('aria-valuenow', '100');
  await expect(goal.getByText(`ticked by ${tutor.displayName}`)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Achievements' })).toContainText(/Goal reached.*Earned/);
});
