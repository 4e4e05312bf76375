/**
 * Tutor profiles and discovery in the browser; on a phone, a tutor's profile whose long lists fold
 * and whose Save stays on the screen, and a tutor's page with its price and a way to book first.
 */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import {
  areFiltersFolded,
  areSectionsFolded,
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  openFiltersIfFolded,
  seededPair,
  test,
  unfold,
} from './fixtures';

/** A complete, published tutor profile set up through the API. */
async function publishedTutor(page: Page, name: string, details: Record<string, unknown>) {
  await createAccount(page, { role: 'tutor', displayName: name });
  const res = await page.request.patch('/api/profile/details', {
    data: {
      headline: `${name.split(' ')[0]} teaches with patience`,
      about: 'Clear explanations, lots of practice.',
      languages: ['English'],
      timeZone: 'Europe/Berlin',
      ...details,
    },
  });
  expect(res.status()).toBe(200);
  expect((await res.json()).published).toBe(true);
}

test('a tutor completes the profile, uploads a photo, and appears in search', async ({ page }) => {
  const unique = `Quill${Date.now().toString(36)}`;
  await createAccount(page, { role: 'tutor', displayName: `Petra ${unique}` });
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Update Profile' }).click();
  await expect(
    page.getByRole('heading', { name: 'To appear in search, your profile still needs:' }),
  ).toBeVisible();
  for (const item of [
    'Add a photo or a headline',
    'Choose at least one subject',
    'Set your hourly rate',
    'Write a few words about yourself',
  ]) {
    await expect(page.getByRole('listitem').filter({ hasText: item })).toBeVisible();
  }
  await expectNoAccessibilityViolations(page);

  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#0f766e' } })
    .jpeg()
    .toBuffer();
  await page
    .getByLabel('Upload a photo')
    .setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByRole('status').filter({ hasText: 'Your photo has been updated.' })).toBeVisible();

  await page.getByLabel('Headline').fill('Chemistry that finally makes sense');
  await page
    .getByLabel('About', { exact: true })
    .fill('I taught chemistry for ten years and love a good experiment.');
  await page.getByRole('checkbox', { name: 'Chemistry' }).check();
  await page.getByRole('checkbox', { name: 'Biology' }).check();
  // What most tutors charge is said only from the listed tutors' own rates (five or more listed).
  await expect(page.getByLabel('Hourly rate (USD)')).toHaveAccessibleDescription(
    /^Whole amounts, \$5 to \$500\.( Most tutors charge \$\d+(-\$\d+)? per hour\.)?$/,
  );
  await page.getByLabel('Hourly rate (USD)').fill('45');
  await page.getByLabel('Years of experience').fill('10');
  await page
    .getByRole('group', { name: 'Languages you teach in' })
    .getByRole('checkbox', { name: 'German' })
    .check();
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your profile has been saved.' })).toBeVisible();
  await expect(page.getByText('Your profile is public: students can find you in search.')).toBeVisible();

  await page.goto(`/tutors?q=${unique}`);
  await expect(page.getByText('1 tutor found')).toBeVisible();
  const card = page.getByRole('article').filter({ hasText: `Petra ${unique}` });
  await expect(card.getByText('$45')).toBeVisible();
  // Only a tutor an administrator approved carries the "Verified tutor" badge (tests/browser/admin.spec.ts).
  await expect(card.getByText('Verified tutor')).toHaveCount(0);
  await expect(card).toMatchAriaSnapshot('- text: No reviews yet');
  await expect(card.getByRole('img')).toHaveCount(0); // decorative photo: alt=""
  await expect(card.locator('img')).toHaveAttribute('src', /\/photo\?v=/);
});

test('a student filters by subject and price, opens a tutor, and the way back keeps the filters', {
  tag: '@phone',
}, async ({ page, browser, clientAddress }) => {
  const unique = `Marlo${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const setup = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': `${clientAddress}1` } });
  await publishedTutor(setup, `Ada ${unique}`, { subjects: ['Python'], hourlyRate: 30 });
  await setup.close();
  const setup2 = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': `${clientAddress}2` } });
  await publishedTutor(setup2, `Bo ${unique}`, { subjects: ['Python'], hourlyRate: 90 });
  await setup2.close();
  const setup3 = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': `${clientAddress}3` } });
  await publishedTutor(setup3, `Cy ${unique}`, { subjects: ['Drawing'], hourlyRate: 35 });
  await setup3.close();

  await createAccount(page, { role: 'student' });
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Browse Tutors' }).click();
  await expect(page).toHaveURL(/\/tutors$/);
  await expect(page.getByRole('heading', { name: 'Find a tutor' })).toBeVisible();
  await expectNoAccessibilityViolations(page);

  // Best match needs text to rank by: offered once there is some.
  await openFiltersIfFolded(page);
  const sortBy = page.getByLabel('Sort by');
  await expect(sortBy).toHaveValue('newest');
  await expect(sortBy.getByRole('option', { name: 'Best match (needs search text)' })).toBeDisabled();
  await page.getByLabel('Search').fill(unique);
  await expect(sortBy).toHaveValue('relevance');
  await expect(sortBy.getByRole('option', { name: 'Best match', exact: true })).toBeEnabled();

  // A select applies the whole form: text and prices typed but not submitted count too.
  await page.getByLabel('Subject', { exact: true }).selectOption('Python');
  await expect(page.getByText('2 tutors found')).toBeVisible();
  await expect(page.getByLabel('Search')).toHaveValue(unique);
  await page.getByLabel('Max price ($)').fill('50');
  await page.getByRole('main').getByLabel('Language').selectOption('English');
  await expect(page.getByText('1 tutor found')).toBeVisible();
  await expect(page.getByLabel('Search')).toHaveValue(unique);
  await expect(page.getByLabel('Max price ($)')).toHaveValue('50');
  const filtered = page.url();
  expect(Object.fromEntries(new URL(filtered).searchParams)).toEqual({
    q: unique,
    subject: 'Python',
    language: 'English',
    maxPrice: '50',
  });

  await page.getByRole('link', { name: `Ada ${unique}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Ada ${unique}` })).toBeVisible();
  await expect(page.getByText('$30')).toBeVisible();
  await expectNoAccessibilityViolations(page);
  // This tutor has set no hours yet: the booking region says so rather than show empty weeks.
  await expect(page.getByRole('region', { name: 'Book a lesson' })).toContainText(
    'Ada has not opened any times for booking yet.',
  );

  await page.goBack();
  await expect(page).toHaveURL(filtered);
  await expect(page.getByText('1 tutor found')).toBeVisible();
  await openFiltersIfFolded(page);
  await expect(page.getByLabel('Subject', { exact: true })).toHaveValue('Python');
  await expect(page.getByRole('main').getByLabel('Language')).toHaveValue('English');
  await expect(page.getByLabel('Max price ($)')).toHaveValue('50');

  await page.getByRole('link', { name: `Ada ${unique}` }).click();
  await page.getByRole('link', { name: 'Back to search' }).click();
  await expect(page).toHaveURL(filtered);

  // Back again walks back through the searches.
  await page.goBack();
  await page.goBack();
  await page.goBack();
  await expect(page.getByText('2 tutors found')).toBeVisible();
  await openFiltersIfFolded(page);
  await expect(page.getByLabel('Max price ($)')).toHaveValue('');
});

test('on a phone the filters wait behind a Filters button that counts them, and the tutors come first', {
  tag: '@phone',
}, async ({ page, browser, clientAddress }) => {
  const unique = `Fia${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const setup = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': `${clientAddress}1` } });
  await publishedTutor(setup, `Fia ${unique}`, { subjects: ['Spanish'], hourlyRate: 30 });
  await setup.close();

  await page.goto(`/tutors?q=${unique}&subject=Spanish&maxPrice=50`);
  await expect(page.getByText('1 tutor found')).toBeVisible();
  const toggle = page.getByRole('button', { name: /^Filters/ });
  // The search's Language filter, not the footer's language switcher.
  const language = page.getByRole('main').getByLabel('Language');
  const card = page.getByRole('article').filter({ hasText: `Fia ${unique}` });

  if (areFiltersFolded(page)) {
    // Two filters narrow the search (the subject, the price range): the button says so, closed.
    await expect(toggle).toHaveText('Filters (2)');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(language).toBeHidden();
    await expect(card).toBeInViewport({ ratio: 0.5 });

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const panel = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
    await expect(panel.getByLabel('Language')).toBeVisible();
    await expectNoAccessibilityViolations(page);
  } else {
    // On a desktop every filter is in view, and there is no button to open them.
    await expect(toggle).toBeHidden();
    await expect(language).toBeVisible();
  }

  // A filter applies at once and the form is made anew from the URL: the focus stays on it.
  await language.focus();
  await language.selectOption('English');
  await expect(page).toHaveURL(/language=English/);
  await expect(language).toBeFocused();
  await expect(language).toHaveValue('English');

  if (areFiltersFolded(page)) {
    await expect(toggle).toHaveText('Filters (3)');
    await expect(language).toBeVisible();
    await page.getByRole('button', { name: 'Show results' }).click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
    await expect(language).toBeHidden();
    await expect(card).toBeInViewport({ ratio: 0.5 });
  }
});

test('a page past the end says so and links back to the results', async ({ page }) => {
  const unique = `Lastpage${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  await publishedTutor(page, `Dee ${unique}`, { subjects: ['Algebra'], hourlyRate: 40 });
  await page.goto(`/tutors?q=${unique}&page=99`);
  await expect(page.getByText('1 tutor found')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'There is no page 99' })).toBeVisible();
  await expect(page.getByText('This search has one page of tutors.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No tutors match your search' })).toHaveCount(0);
  await expectNoAccessibilityViolations(page);
  await page.getByRole('link', { name: 'Go to the results' }).click();
  await expect(page).toHaveURL(new RegExp(`/tutors\\?q=${unique}$`));
  await expect(page.getByRole('link', { name: `Dee ${unique}` })).toBeVisible();
});

test('an empty search says so and suggests widening it; a missing tutor is a 404', async ({ page }) => {
  await page.goto('/tutors?q=zzzznobodyhasthisname');
  await expect(page.getByRole('heading', { name: 'No tutors match your search' })).toBeVisible();
  await expect(page.getByText(/wider price range/)).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await page.getByRole('link', { name: 'Show all tutors' }).click();
  await expect(page).toHaveURL(/\/tutors$/);

  const response = await page.goto('/tutors/no-such-tutor');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Tutor not found' })).toBeVisible();
});

test('a student keeps a time zone and learning goals on the profile page', async ({ page }) => {
  await createAccount(page, { role: 'student' });
  await page.goto('/profile');
  await expect(page.getByLabel('Time zone')).not.toHaveValue('');
  await page.getByLabel('Learning goals').fill('Conversational Spanish by summer');
  await page.getByLabel('Time zone').selectOption('America/Chicago');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your profile has been saved.' })).toBeVisible();
  await expectNoAccessibilityViolations(page);
  await page.reload();
  await expect(page.getByLabel('Learning goals')).toHaveValue('Conversational Spanish by summer');
  await expect(page.getByLabel('Time zone')).toHaveValue('America/Chicago');
});

test('a headline pasted past its limit is kept whole, counted, and refused in the server’s words', async ({
  page,
}) => {
  await createAccount(page, { role: 'tutor' });
  await page.goto('/profile');
  const headline = page.getByLabel('Headline');
  const long = `Algebra, geometry and calculus for curious minds of every age ${'!'.repeat(30)}`;
  await headline.fill(long);
  await expect(headline).toHaveValue(long);
  await expect(page.getByText(`${long.length} / 80: ${long.length - 80} too many`)).toBeVisible();
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByRole('alert')).toHaveText('Headline must be at most 80 characters');
  await expect(headline).toHaveAttribute('aria-invalid', 'true');
  await expect(headline).toHaveValue(long);
});

test('on a phone a tutor’s long lists fold, saying what is chosen, and Save stays on the screen while there are changes', {
  tag: '@phone',
}, async ({ page }) => {
  await createAccount(page, { role: 'tutor', displayName: 'Fola Folding' });
  const details = await page.request.patch('/api/profile/details', {
    data: {
      headline: 'Physics with patience',
      about: 'Step by step.',
      subjects: ['Algebra', 'Physics'],
      hourlyRate: 40,
      languages: ['English', 'French'],
    },
  });
  expect(details.status(), await details.text()).toBe(200);
  await page.goto('/profile');
  const subjects = page.getByRole('group', { name: 'Subjects', exact: true });
  const languages = page.getByRole('group', { name: 'Languages you teach in' });
  const save = page.getByRole('button', { name: 'Save Profile' });
  await expect(page.getByLabel('Headline')).toHaveValue('Physics with patience');

  if (areSectionsFolded(page)) {
    // Folded, each list says what is ticked; nothing else of it takes room.
    await expect(page.getByRole('button', { name: 'Subjects', exact: true })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    await expect(page.getByRole('button', { name: 'Subjects', exact: true })).toHaveAccessibleDescription(
      'Algebra, Physics',
    );
    await expect(languages.getByText('English, French', { exact: true })).toBeVisible();
    await expect(subjects.getByRole('checkbox', { name: 'Algebra' })).toBeHidden();
    await expectNoAccessibilityViolations(page);
  } else {
    await expect(page.getByRole('button', { name: 'Subjects', exact: true })).toHaveCount(0);
    await expect(subjects.getByRole('checkbox', { name: 'Algebra' })).toBeChecked();
  }

  // A change at the top: Save is on the screen there, and at the foot of the page.
  await page.getByLabel('Headline').fill('Physics and chemistry with patience');
  await expect(save).toBeInViewport();
  await expect(page.getByText('You have changes that are not saved yet.')).toBeVisible();
  await page.getByRole('region', { name: 'Delete my account' }).scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(save).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('profile-unsaved-foot.png') });

  // A subject ticked in the list, which says so once folded again.
  await unfold(page, 'Subjects');
  await subjects.getByRole('checkbox', { name: 'Chemistry' }).check();
  await expect(save).toBeInViewport();
  if (areSectionsFolded(page)) {
    await page.getByRole('button', { name: 'Subjects', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Subjects', exact: true })).toHaveAccessibleDescription(
      'Algebra, Physics, Chemistry',
    );
  }
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Your profile has been saved.' })).toBeInViewport();
  await expect(page.getByText('You have changes that are not saved yet.')).toHaveCount(0);
  const saved = await (await page.request.get('/api/profile/details')).json();
  expect(saved).toMatchObject({
    headline: 'Physics and chemistry with patience',
    subjects: ['Algebra', 'Physics', 'Chemistry'],
  });

  // Put back as it was saved, nothing is left to save.
  await page.getByLabel('Headline').fill('Physics');
  await expect(page.getByText('You have changes that are not saved yet.')).toBeVisible();
  await page.getByLabel('Headline').fill('Physics and chemistry with patience');
  await expect(page.getByText('You have changes that are not saved yet.')).toHaveCount(0);
});

test('a tutor’s page shows the price and a way to book on the first screen, leading to the booking box', {
  tag: '@phone',
}, async ({ page }) => {
  const { tutor } = seededPair();
  const listed = await (await page.request.get(`/api/tutors/${tutor.id}`)).json();
  await page.goto(`/tutors/${tutor.id}`);
  await expect(page.getByRole('heading', { level: 1, name: tutor.displayName })).toBeVisible();
  // One price shows at each width, in the first screen.
  const price = page.getByText(`$${listed.hourlyRate} per hour`, { exact: true }).filter({ visible: true });
  await expect(price).toHaveCount(1);
  await expect(price).toBeInViewport({ ratio: 1 });
  const booking = page.getByRole('region', { name: 'Book a lesson' });
  const button = page.getByRole('button', { name: 'Book a lesson' });
  await page.screenshot({ path: test.info().outputPath('tutor-first-screen.png') });

  if ((page.viewportSize()?.width ?? 1280) < 1024) {
    // One column: the booking box comes after the profile; the button on the first screen leads there.
    await expect(button).toBeInViewport({ ratio: 1 });
    await expect(booking).not.toBeInViewport();
    await expectNoAccessibilityViolations(page);
    await button.click();
    const heading = booking.getByRole('heading', { name: 'Book a lesson' });
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport({ ratio: 1 });
    // Below the sticky navigation, not under it.
    const bar = await page.getByRole('navigation', { name: 'Main' }).boundingBox();
    const top = await heading.boundingBox();
    expect(top && bar && top.y >= bar.y + bar.height).toBe(true);
  } else {
    // Two columns: the booking box is beside the profile already.
    await expect(button).toBeHidden();
    await expect(booking).toBeInViewport();
  }
});
