/**
 * Site settings in the browser: an admin edits the home page's figures (the school's real counts
 * until then), the support details, reply time and payment instructions, and the subject catalogue
 * in the console, and the home and contact pages show the change, in the same tab and to a new
 * visitor; the figures go back to the counts; the home page's hero shows a real tutor of the site; the page passes an
 * accessibility scan, at both widths.
 *
 * The settings are the whole site's, so this file runs a server of its own (the built server, on a
 * free port and a data folder seeded as the suite's is): the other files' pages keep showing the
 * defaults they expect while this one changes them.
 */
import type { Page } from '@playwright/test';
import { DEFAULT_PAYMENT_INSTRUCTIONS } from '../../src/server/config/config';
import type { BrowserSeed } from '../support/browser-seed';
import {
  expect,
  expectNoAccessibilityViolations,
  isNavFolded,
  openMenuIfCollapsed,
  PASSWORD,
  test,
} from './fixtures';
import { type OwnServer, startOwnServer } from './own-server';

test.describe.configure({ mode: 'serial' });

let own: OwnServer | undefined;
let url: string;
let seed: BrowserSeed;

test.beforeAll(async () => {
  // Copying the seeded folder and the server opening its database: slow on a busy machine.
  test.setTimeout(180_000);
  own = await startOwnServer('settings', {
    SUPPORT_EMAIL: 'office@settings.test',
    SUPPORT_PHONE: '+1 (555) 010-0123',
    // The console with a password alone, as the other specs' server has it.
    ADMIN_TWO_FACTOR: 'optional',
  });
  ({ url, seed } = own);
});

test.afterAll(async () => {
  await own?.stop();
});

/** The seeded admin of this project, signed in, on the console's Site settings through its sections. */
async function openSiteSettings(page: Page) {
  const admin = seed[test.info().project.name as keyof BrowserSeed].admin;
  const signedIn = await page.request.post(`${url}/api/auth/sign-in/email`, {
    data: { email: admin.email, password: PASSWORD },
    headers: { origin: url },
  });
  expect(signedIn.status()).toBe(200);
  await page.goto(`${url}/admin`);
  await page
    .getByRole('navigation', { name: 'Admin sections' })
    .getByRole('link', { name: 'Site settings' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Site settings' })).toBeVisible();
}

test('an admin edits the figures, the support details and the subjects; the home and contact pages show them', {
  tag: '@phone',
}, async ({ page, browser }) => {
  // A new school's home page shows no figure: none of its counts reached 10, and nothing is made up.
  await page.goto(`${url}/`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Tutorlane in numbers' })).toHaveCount(0);
  await expect(page.getByText(/10,000\+|500\+|50,000\+/)).toHaveCount(0);
  await openSiteSettings(page);

  // The figures: none set, the console says the counts are shown, and what they are now.
  const figures = page.getByRole('region', { name: 'Home page figures' });
  await expect(figures).toContainText('Until you save figures, the home page shows the school’s real counts');
  await expect(figures).toContainText(
    /Counted now: Students helped \d+, Expert tutors \d+, Lessons completed \d+\./,
  );
  await expect(figures.getByLabel('Students helped')).toHaveValue('');
  await expect(figures.getByRole('button', { name: 'Show the real counts instead' })).toHaveCount(0);
  // An empty one is refused in words, at the field; then they are saved.
  await figures.getByLabel('Students helped').fill('2,500+');
  await figures.getByLabel('Expert tutors').fill('');
  await figures.getByRole('button', { name: 'Save figures' }).click();
  await expect(figures.getByRole('alert')).toHaveText(
    'Expert tutors must not be empty: write a figure such as 10,000+',
  );
  await expect(figures.getByLabel('Expert tutors')).toHaveAttribute('aria-invalid', 'true');
  await figures.getByLabel('Expert tutors').fill('42');
  await figures.getByLabel('Lessons completed').fill('9,000+');
  await figures.getByRole('button', { name: 'Save figures' }).click();
  await expect(figures.getByRole('status')).toHaveText(
    'The figures are saved: the home page shows them now.',
  );
  await expect(figures.getByRole('button', { name: 'Show the real counts instead' })).toBeVisible();

  // The support details.
  const support = page.getByRole('region', { name: 'Support details' });
  await expect(support.getByLabel('Support email')).toHaveValue('office@settings.test');
  await support.getByLabel('Support email').fill('hello@music-school.test');
  await support.getByLabel('Support phone').fill('+44 20 7946 0123');
  await support.getByLabel('Business hours').fill('Mon-Sat 10-7, Sun closed');
  await support.getByRole('button', { name: 'Save support details' }).click();
  await expect(support.getByRole('status')).toContainText('The support details are saved');

  // How soon support replies: nothing is promised until it is set; then the contact page says it.
  const reply = page.getByRole('region', { name: 'Support reply time' });
  await expect(reply.getByLabel('Reply within (hours)')).toHaveValue('');
  await reply.getByLabel('Reply within (hours)').fill('a day');
  await reply.getByRole('button', { name: 'Save reply time' }).click();
  await expect(reply.getByRole('alert')).toHaveText(
    'The reply time must be a whole number of hours from 1 to 168 (a week)',
  );
  await reply.getByLabel('Reply within (hours)').fill('24');
  await reply.getByRole('button', { name: 'Save reply time' }).click();
  await expect(reply.getByRole('status')).toContainText('The reply time is saved');

  // How to pay by transfer: the product's text until the school writes its own, line breaks and all.
  const paying = page.getByRole('region', { name: 'Payment instructions' });
  const instructions = paying.getByLabel('How to pay by transfer');
  await expect(instructions).toHaveValue(DEFAULT_PAYMENT_INSTRUCTIONS);
  await expect(paying.getByRole('button', { name: 'Use the default instructions' })).toHaveCount(0);
  await instructions.fill('Music School Ltd\nIBAN GB33 BUKB 2020 1555 5555 55');
  await paying.getByRole('button', { name: 'Save payment instructions' }).click();
  await expect(paying.getByRole('status')).toContainText('The payment instructions are saved');
  await expect(paying.getByRole('button', { name: 'Use the default instructions' })).toBeVisible();

  // The catalogue: a subject added to a category, one retired and restored.
  const catalogue = page.getByRole('region', { name: 'Subject catalogue' });
  await catalogue.getByLabel('New subject').fill('python');
  await catalogue.getByRole('button', { name: 'Add subject' }).click();
  await expect(catalogue.getByRole('alert')).toHaveText('Python is already in the catalogue, in Programming');
  await expect(catalogue.getByLabel('New subject')).toHaveAttribute('aria-invalid', 'true');
  await catalogue.getByLabel('Category').selectOption('Arts & Design');
  await catalogue.getByLabel('New subject').fill('Violin');
  await catalogue.getByRole('button', { name: 'Add subject' }).click();
  await expect(catalogue.getByRole('status').first()).toHaveText(
    'Violin is added to Arts & Design: tutors can choose it now.',
  );
  await expect(catalogue.getByLabel('New subject')).toHaveValue('');
  const arts = catalogue.getByRole('region', { name: 'Arts & Design' });
  await expect(arts.getByRole('button', { name: 'Retire Violin' })).toBeVisible();
  await arts.getByRole('button', { name: 'Retire Guitar' }).click();
  await expect(catalogue.getByText(/^Guitar is retired/)).toBeVisible();
  await arts.getByRole('button', { name: 'Restore Guitar' }).click();
  await expect(catalogue.getByText('Guitar is offered again in Arts & Design.')).toBeVisible();
  await expect(arts.getByRole('button', { name: 'Retire Guitar' })).toBeVisible();

  // This tab's home and contact pages, reached through the navigation, show the change.
  await openMenuIfCollapsed(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  const numbers = page.getByRole('region', { name: 'Tutorlane in numbers' });
  await expect(numbers.getByRole('term')).toHaveText([
    'Students helped',
    'Expert tutors',
    'Lessons completed',
  ]);
  await expect(numbers.getByRole('definition')).toHaveText(['2,500+', '42', '9,000+']);
  await openMenuIfCollapsed(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact Us' }).click();
  await expectContactDetails(page);
  await expect(page.getByText('We reply to every message within 24 hours.', { exact: false })).toBeVisible();

  // And so do a new visitor's, straight from the server.
  const visitor = await browser.newPage({ viewport: page.viewportSize() ?? undefined });
  await visitor.goto(`${url}/`);
  await expect(visitor.getByRole('region', { name: 'Tutorlane in numbers' })).toContainText('2,500+');
  await visitor.goto(`${url}/contact`);
  await expectContactDetails(visitor);
  // A student's conversation with support says the same reply time.
  const { student } = seed[test.info().project.name as keyof BrowserSeed];
  const signedIn = await visitor.request.post(`${url}/api/auth/sign-in/email`, {
    data: { email: student.email, password: PASSWORD },
    headers: { origin: url },
  });
  expect(signedIn.status()).toBe(200);
  await visitor.goto(`${url}/messages?support=1`);
  await expect(visitor.getByRole('region', { name: 'Conversation with Support' })).toContainText(
    'The Tutorlane team answers here, usually within 24 hours.',
  );
  await visitor.close();

  // Every change is in the audit log.
  await page.goto(`${url}/admin/audit`);
  await expect(page.getByText('Site settings changed')).toHaveCount(7);
  await expect(
    page.getByText(/Payment instructions: the default → "Music School Ltd\\nIBAN GB33/),
  ).toBeVisible();

  // The figures given back to the counts: the home page shows none again (none reached 10).
  await openSiteSettings(page);
  await figures.getByRole('button', { name: 'Show the real counts instead' }).click();
  await expect(figures.getByRole('status')).toHaveText('The home page shows the school’s real counts now.');
  await expect(figures.getByLabel('Students helped')).toHaveValue('');
  await openMenuIfCollapsed(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Tutorlane in numbers' })).toHaveCount(0);
});

async function expectContactDetails(page: Page) {
  const reachUs = page.getByRole('region', { name: 'Reach us' });
  await expect(reachUs.getByRole('link', { name: 'hello@music-school.test' })).toHaveAttribute(
    'href',
    'mailto:hello@music-school.test',
  );
  await expect(reachUs.getByRole('link', { name: '+44 20 7946 0123' })).toHaveAttribute(
    'href',
    'tel:+442079460123',
  );
  await expect(page.getByRole('region', { name: 'Business hours' }).getByRole('listitem')).toHaveText([
    'Mon-Sat 10-7',
    'Sun closed',
  ]);
}

test('the home page’s hero shows a real tutor of the site, leading to their page', { tag: '@phone' }, async ({
  page,
}) => {
  await page.goto(`${url}/`);
  const seeded = Object.values(seed).map((pair) => pair.tutor.displayName);
  const featured = page.getByRole('link', { name: new RegExp(seeded.join('|')) });
  if (isNavFolded(page)) {
    // On a phone the hero is the headline and its two buttons alone.
    await expect(featured).toHaveCount(0);
    return;
  }
  await expect(page.getByText('Featured tutor')).toBeVisible();
  const name = (await featured.textContent()) ?? '';
  await featured.click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
});

test('the Site settings page passes an accessibility scan, with a refusal shown', { tag: '@phone' }, async ({
  page,
}) => {
  await openSiteSettings(page);
  await expectNoAccessibilityViolations(page);
  const support = page.getByRole('region', { name: 'Support details' });
  await support.getByLabel('Support phone').fill('call us');
  await support.getByRole('button', { name: 'Save support details' }).click();
  await expect(support.getByRole('alert')).toHaveText(
    'The support phone may hold only digits, spaces and + ( ) - . /',
  );
  await expectNoAccessibilityViolations(page);
});

test('an admin makes Spanish the school’s default language, then gives the server’s back', async ({
  page,
}) => {
  await openSiteSettings(page);
  const section = page.getByRole('region', { name: 'Default language' });
  const field = section.getByLabel('Default language');
  await expect(field).toHaveValue('');
  await field.selectOption('es');
  await section.getByRole('button', { name: 'Save default language' }).click();
  await expect(section).toContainText('The default language is saved');
  expect((await (await page.request.get(`${url}/api/config`)).json()).defaultLanguage).toBe('es');
  await expect(field).toHaveValue('es');
  await field.selectOption('');
  await section.getByRole('button', { name: 'Save default language' }).click();
  await expect(section).toContainText('The site speaks the server’s default language now');
  expect((await (await page.request.get(`${url}/api/config`)).json()).defaultLanguage).toBe('en');
  await expect(field).toHaveValue('');
});
