/**
 * Tutorlane in Spanish and in Arabic (right to left): a visitor who chose the language signs up
 * (and is mailed in it), searches, books, sees the wallet and meets the tutor in the lesson room,
 * each page passing the accessibility scan. Every text is looked up in the shipped catalogues
 * (../support/catalogues.ts), so these walks check the translation the page shows, whatever its
 * words. Then the pseudo-language, at phone width: every text of the main pages is marked (none
 * shows without the pseudo-language's brackets) and nothing overflows the screen.
 *
 * It runs against the server that takes payments (the wallet and a booking's price), which also
 * offers the pseudo-language (playwright.config.ts).
 */
import type { Page } from '@playwright/test';
import { formatAmount } from '../../src/shared/amounts';
import { say } from '../support/catalogues';
import { publishTutorSoon } from './calls';
import { chromiumFlags, fullChromiumPath } from './chromium';
import {
  createAccount,
  expect,
  expectNoAccessibilityViolations,
  PASSWORD,
  secondBrowser,
  test,
  uniqueEmail,
  waitForMail,
} from './fixtures';
import { fundedStudent, openTutor } from './money-fixtures';

test.skip(
  process.env.LOOPBACK_ONLY !== '1',
  'The lesson room’s media may only flow inside a loopback-only network namespace (scripts/loopback-only.sh)',
);

// The room's camera and microphone are Chromium's fakes, as in room.spec.ts.
test.use({
  launchOptions: {
    executablePath: fullChromiumPath,
    args: [
      ...chromiumFlags,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--allow-loopback-in-peer-connection',
    ],
  },
});

const ZONE = 'Europe/Madrid';
test.use({ timezoneId: ZONE });

/** This page's browser chooses `language` as the footer's switcher does: the `lang` cookie. */
async function choose(page: Page, language: string) {
  const baseURL = test.info().project.use.baseURL as string;
  await page.context().addCookies([{ name: 'lang', value: language, url: baseURL }]);
}

/**
 * The longest stretch of `english`'s translation that holds none of its values: what a page must
 * show of it, whatever the values are and wherever the translator put them.
 */
function fixedPartOf(language: string, english: string, values: Record<string, unknown>) {
  const marked = Object.fromEntries(Object.keys(values).map((key) => [key, '\u0000']));
  return say(language, english, marked)
    .split('\u0000')
    .map((part) => part.trim())
    .sort((a, b) => b.length - a.length)[0] as string;
}

async function expectLanguage(page: Page, language: string, dir: 'ltr' | 'rtl') {
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await expect(page.locator('html')).toHaveAttribute('dir', dir);
}

for (const { language, dir } of [
  { language: 'es', dir: 'ltr' },
  { language: 'ar', dir: 'rtl' },
] as const) {
  const L = (english: string, values?: Record<string, unknown>) => say(language, english, values);

  test(`in ${language}: sign-up, search, booking, the wallet and the room`, {
    // Arabic at phone width too: right to left is where a phone's layout breaks.
    tag: language === 'ar' ? ['@phone'] : [],
  }, async ({ page, browser }) => {
    test.setTimeout(180_000);

    // Sign-up, in the language chosen before: the verification mail is in it too.
    await choose(page, language);
    const email = uniqueEmail(`signup-${language}`);
    await page.goto('/signup');
    await expectLanguage(page, language, dir);
    await page.getByLabel(L('Full Name')).fill('Lina Lingua');
    await page.getByLabel(L('Email')).fill(email);
    await page.getByLabel(L('Password'), { exact: true }).fill(PASSWORD);
    await page.getByLabel(L('Confirm Password')).fill(PASSWORD);
    // The human check (ALTCHA, in the page's language too) is the form's one checkbox.
    await page.getByRole('checkbox').click();
    const create = page.getByRole('button', { name: L('Create Account') });
    await expect(create).toBeEnabled({ timeout: 20_000 });
    await expectNoAccessibilityViolations(page);
    await create.click();
    await expect(page).toHaveURL(/\/verify-email$/);
    const subject = say(language, 'Verify your email for {product}', { product: 'Tutorlane' }, 'server');
    expect((await waitForMail(email, subject)).subject).toBe(subject);

    // A student with money, in the same language, saved on the account.
    await page.context().clearCookies();
    const tutor = await openTutor(browser, `Tomás Tutor${Date.now() % 100_000}`, ZONE);
    await fundedStudent(page, browser, { displayName: 'Rania Reader', amountCents: 10_000, zone: ZONE });
    const saved = await page.request.patch('/api/profile', { data: { language } });
    expect(saved.status(), await saved.text()).toBe(200);

    // The search: its heading and the count of tutors found, a plural in the language's grammar.
    // The count is the one the page was answered (tests running beside this one add tutors).
    const searched = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/tutors' && response.ok(),
    );
    await page.goto('/tutors');
    await expectLanguage(page, language, dir);
    await expect(page.getByRole('heading', { level: 1, name: L('Find a tutor') })).toBeVisible();
    const { total } = (await (await searched).json()) as { total: number };
    await expect(
      page.getByText(L('{total, plural, one {# tutor found} other {# tutors found}}', { total }), {
        exact: true,
      }),
    ).toBeVisible();
    await expectNoAccessibilityViolations(page);

    // Booking an hour on the tutor's page, priced in the language's way of writing money.
    await page.goto(`/tutors/${tutor.id}`);
    const booking = page.getByRole('region', { name: L('Book a lesson') });
    await booking.getByRole('radio').nth(2).check();
    await booking.getByRole('button', { name: '10:00', exact: true }).first().click();
    await expect(booking).toContainText(formatAmount(4000, 'USD', { locale: language, minor: 'always' }));
    await expectNoAccessibilityViolations(page);
    await booking.getByRole('button', { name: L('Confirm booking') }).click();
    await expect(booking.getByRole('status')).toContainText(
      fixedPartOf(
        language,
        'Booked: <0>{time}</0>. A confirmation with a calendar invitation is on its way to your inbox.',
        { time: '' },
      ).replace(/<\/?\d>/g, ''),
    );

    // The wallet: $100 less the $40 held, written as the language writes money.
    await page.goto('/wallet');
    await expectLanguage(page, language, dir);
    await expect(page.getByRole('heading', { level: 1, name: L('Wallet') })).toBeVisible();
    await expect(page.getByRole('region', { name: L('History') })).toContainText(
      formatAmount(-4000, 'USD', { locale: language, minor: 'always', sign: 'always' }),
    );
    await expectNoAccessibilityViolations(page);
    await tutor.page.context().close();

    // The room: a tutor open from two minutes on, a lesson booked there, both join.
    const host = await secondBrowser(browser, ZONE);
    const hostName = `Rosa Raum${Date.now() % 100_000}`;
    await createAccount(host, { role: 'tutor', displayName: hostName });
    const { start, tutorId: hostId } = await publishTutorSoon(host);
    const lesson = await page.request.post('/api/lessons', {
      data: { tutorId: hostId, start: new Date(start).toISOString(), minutes: 30, subject: 'Physics' },
      headers: { 'Idempotency-Key': `room-${language}-${start}` },
    });
    expect(lesson.status(), await lesson.text()).toBe(201);
    const lessonId = (await lesson.json()).id as string;

    await page.goto(`/lessons/${lessonId}/room`);
    await expectLanguage(page, language, dir);
    await expect(page.getByRole('heading', { name: L('Ready to join?') })).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await page.getByRole('button', { name: L('Join now') }).click();
    await host.goto(`/lessons/${lessonId}/room`);
    await host.getByRole('button', { name: 'Join now' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: L('Connected with {name}.', { name: hostName }) }),
    ).toBeVisible({ timeout: 20_000 });
    await expectNoAccessibilityViolations(page);
    await host.context().close();
  });
}

test('in the pseudo-language every text of the main pages is translated, and nothing overflows a phone', {
  tag: '@phone-only',
}, async ({ page }) => {
  await choose(page, 'pseudo');
  // The search without results: its filters and texts, not the tutors other tests publish.
  for (const path of [
    '/',
    '/tutors?q=no-such-tutor-anywhere',
    '/login',
    '/signup',
    '/contact',
    '/forgot-password',
  ]) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('lang', 'pseudo');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('⟦');
    // Headings, buttons, links of the page's own (not a tutor's name or headline) and labels.
    const untranslated = await page.evaluate(() => {
      const own = [...document.querySelectorAll('h1, h2, h3, button, label, nav a, footer a, legend')];
      return own
        .filter((element) => !element.closest('article, [data-user-content]'))
        .map((element) => (element.textContent ?? '').trim())
        .filter((text) => /\p{L}{2,}/u.test(text) && !text.includes('⟦') && text !== 'Tutorlane');
    });
    expect(untranslated, path).toEqual([]);
    // What sticks out past the screen's edge (either edge: right to left is tested in Arabic).
    const sticksOut = await page.evaluate(() =>
      [...document.querySelectorAll('main *, header *, footer *')]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return box.width > 0 && (box.right > window.innerWidth + 1 || box.left < -1);
        })
        .map(
          (element) => `${element.tagName.toLowerCase()}: ${(element.textContent ?? '').trim().slice(0, 60)}`,
        )
        .slice(0, 5),
    );
    expect(sticksOut, `${path} is wider than the phone`).toEqual([]);
  }
});

test('the footer’s Language switcher shows the site in the language chosen, and the profile saves it', async ({
  page,
}) => {
  await page.goto('/');
  await expectLanguage(page, 'en', 'ltr');
  await page.getByRole('contentinfo').getByLabel('Language').selectOption('es');
  await expectLanguage(page, 'es', 'ltr');
  await expect(page.getByRole('contentinfo').getByLabel(say('es', 'Language'))).toHaveValue('es');

  // Signed in, the profile's Language field saves the choice on the account: it outlives the cookie.
  await createAccount(page, { role: 'student', displayName: 'Dora Deutsch' });
  await page.goto('/profile');
  await page
    .getByRole('main')
    .getByRole('combobox', { name: say('es', 'Language') })
    .selectOption('de');
  await expectLanguage(page, 'de', 'ltr');
  await page.context().clearCookies({ name: 'lang' });
  await page.reload();
  await expectLanguage(page, 'de', 'ltr');
  expect((await (await page.request.get('/api/profile')).json()).language).toBe('de');
});
