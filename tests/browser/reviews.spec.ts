/**
 * Reviews in the browser: a student whose lesson took place (seeded: tests/support/browser-seed.ts)
 * is invited on the dashboard, reviews the tutor, and finds the review on the tutor's page; the
 * tutor answers it there once.
 */
import {
  expect,
  expectNoAccessibilityViolations,
  secondBrowser,
  seededPair,
  signInAs,
  test,
} from './fixtures';

test('a student with a completed lesson reviews the tutor, who answers on their page', async ({
  page,
  browser,
}) => {
  const { student, tutor } = seededPair();
  const tutorFirstName = tutor.displayName.split(' ')[0] as string;
  const reviewer = `${student.displayName.split(' ')[0]} ${student.displayName.split(' ')[1]?.[0]}.`;
  await signInAs(page, student);

  await page.goto('/dashboard');
  const invite = page.getByRole('link', { name: `Review ${tutor.displayName}` });
  await expect(invite).toBeVisible();
  await invite.click();
  await expect(page.getByRole('heading', { level: 1, name: tutor.displayName })).toBeVisible();
  await expect(page.getByRole('heading', { name: `Review ${tutor.displayName}` })).toBeVisible();

  // A rating is needed; the words, at least 20 characters.
  const text = `Clear explanations and good homework: ${test.info().project.name} lessons with ${tutorFirstName}.`;
  await page.getByLabel('Your review').fill(text);
  await page.getByRole('button', { name: 'Publish review' }).click();
  await expect(page.getByText('Please choose a rating from 1 to 5 stars')).toBeVisible();
  await page.getByRole('radio', { name: '4 stars' }).check();
  await page.getByRole('button', { name: 'Publish review' }).click();
  await expect(page.getByText('Thank you: your review is published.')).toBeVisible();

  const published = page.getByRole('article', { name: `Review by ${reviewer}` });
  await expect(published).toContainText(text);
  await expect(published).toContainText('4 out of 5 stars');
  await expect(page.getByRole('heading', { name: 'Your review' })).toBeVisible();
  await expectNoAccessibilityViolations(page);

  // The invitation is gone once the tutor is reviewed.
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
  await expect(page.getByRole('link', { name: `Review ${tutor.displayName}` })).toHaveCount(0);

  // The tutor answers publicly, once.
  const tutorPage = await secondBrowser(browser);
  await signInAs(tutorPage, tutor);
  await tutorPage.goto(`/tutors/${tutor.id}`);
  await tutorPage.getByLabel(`Answer ${reviewer}`).fill('Thank you, it was a pleasure. See you next week!');
  await tutorPage.getByRole('button', { name: 'Publish answer' }).click();
  const answered = tutorPage.getByRole('article', { name: `Review by ${reviewer}` });
  await expect(answered).toContainText('The tutor’s answer');
  await expect(answered.getByLabel(`Answer ${reviewer}`)).toHaveCount(0);
  await expectNoAccessibilityViolations(tutorPage);

  await page.goto(`/tutors/${tutor.id}`);
  await expect(published).toContainText('Thank you, it was a pleasure.');
  await tutorPage.context().close();
});
