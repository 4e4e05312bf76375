/**
 * What every browser test shares: a client address of its own (rate limits count per test), the
 * mailbox the app delivers to, accounts made ahead by the seed or through the API rather than the
 * UI (only the journeys under test walk the UI, and accounts.spec.ts signs up through the page),
 * and an accessibility scan.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, test as base, expect, type Page } from '@playwright/test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge } from 'altcha-lib/types';
import { claimPooledAccount } from '../support/account-pool';
import type { BrowserSeed, SeededPair, SeedProject } from '../support/browser-seed';
import type { CaughtMail } from '../support/mail-catcher';

export const PASSWORD = 'correct-horse-battery-42';

let sequence = 0;
export function uniqueEmail(prefix = 'user'): string {
  sequence += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${sequence}@example.com`;
}

const randomAddress = () =>
  `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

export async function waitForMail(to: string, subject: string, count = 1): Promise<CaughtMail> {
  const url = `${process.env.MAIL_SINK_URL}/mails?to=${encodeURIComponent(to)}`;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const mails = (await (await fetch(url)).json()) as CaughtMail[];
    const matching = mails.filter((mail) => mail.subject.includes(subject));
    if (matching.length >= count) return matching[count - 1] as CaughtMail;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`no mail "${subject}" for ${to}`);
}

export function linkIn(mail: CaughtMail, fragment: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(fragment));
  if (!link) throw new Error(`no link with ${fragment} in "${mail.subject}"`);
  return link;
}

export interface Account {
  email: string;
  displayName: string;
  role: 'student' | 'tutor' | 'parent';
}

/**
 * An account signed in in this page's browser context. A verified one is taken from the seed's
 * pool (account-pool.ts) and given `displayName`: what a sign-up and its mailed link leave behind,
 * at the cost of a sign-in. An unverified one (or any, once the pool is used up) signs up through
 * the API, solving the human check, and verifies through the mailed link when asked to. The pool
 * holds no parents: a parent always signs up.
 */
export async function createAccount(
  page: Page,
  options: { role?: Account['role']; verified?: boolean; displayName?: string } = {},
): Promise<Account> {
  const role = options.role ?? 'student';
  const displayName =
    options.displayName ?? { student: 'Sam Student', tutor: 'Tess Tutor', parent: 'Pat Parent' }[role];
  const claimsDir = process.env.BROWSER_TEST_DATA_DIR && join(process.env.BROWSER_TEST_DATA_DIR, 'claims');
  const pooled =
    options.verified !== false && claimsDir && role !== 'parent'
      ? claimPooledAccount(claimsDir, role)
      : undefined;
  if (pooled) {
    await signInAs(page, pooled);
    const named = await page.request.patch('/api/profile', { data: { displayName } });
    expect(named.status(), await named.text()).toBe(200);
    return { email: pooled.email, displayName, role };
  }
  const email = uniqueEmail(role);
  const challenge = (await (await page.request.get('/api/captcha/challenge')).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  const res = await page.request.post('/api/auth/sign-up/email', {
    headers: { 'X-Captcha': btoa(JSON.stringify({ challenge, solution })) },
    data: { name: displayName, email, password: PASSWORD, confirmPassword: PASSWORD, role },
  });
  expect(res.status(), await res.text()).toBe(200);
  if (options.verified !== false) {
    const mail = await waitForMail(email, 'Verify your email');
    const token = new URL(linkIn(mail, '/verify-email?token=')).searchParams.get('token');
    const verified = await page.request.post('/api/account/verify-email', { data: { token } });
    expect(verified.status()).toBe(200);
  }
  return { email, displayName, role };
}

/** A second person, in their own browser (own cookies, own zone, own client address). */
export async function secondBrowser(browser: Browser, timezoneId?: string): Promise<Page> {
  const { baseURL, viewport } = test.info().project.use;
  const context = await browser.newContext({
    baseURL,
    viewport,
    ...(timezoneId ? { timezoneId } : {}),
    extraHTTPHeaders: { 'X-Forwarded-For': randomAddress() },
  });
  return context.newPage();
}

export async function expectNoAccessibilityViolations(page: Page) {
  // axe.run() in the page itself. The default runs axe in each frame and finishes in a blank page
  // opened for each scan, which doubles its cost, to reach frames of other origins: our pages
  // have none (the Content-Security-Policy's frame-src is 'none' without reCAPTCHA).
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode()
    .analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
  expect(summary).toEqual([]);
}

/**
 * Below this width (Tailwind's lg) the navigation folds behind Toggle menu; signed in, below 1280
 * (xl). The projects' widths, 390 and 1280, fold the same either way.
 */
const NAV_FOLDS_BELOW = 1024;
export const isNavFolded = (page: Page) => (page.viewportSize()?.width ?? 1280) < NAV_FOLDS_BELOW;

/** Opens the navigation where it is folded (phones, tablets, a signed-in small laptop); else nothing. */
export async function openMenuIfCollapsed(page: Page) {
  const toggle = page.getByRole('button', { name: 'Toggle menu' });
  // Whether it folds depends on the width and on who is signed in: the page knows, once drawn.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  if (!(await toggle.isVisible())) return;
  // A navigation that is still settling may close the menu just after it was seen open: look again.
  await expect(async () => {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true', { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
}

/** Below this width (Tailwind's md) the search's filters wait behind a Filters button. */
const FILTERS_FOLD_BELOW = 768;
export const areFiltersFolded = (page: Page) => (page.viewportSize()?.width ?? 1280) < FILTERS_FOLD_BELOW;

/** Opens the search's filters where they are folded (phones); does nothing on a desktop. */
export async function openFiltersIfFolded(page: Page) {
  if (!areFiltersFolded(page)) return;
  const toggle = page.getByRole('button', { name: /^Filters/ });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

/**
 * Below this width (Tailwind's sm) the long sections of a page fold (src/client/components/fold.tsx):
 * their title is a button that opens them.
 */
const SECTIONS_FOLD_BELOW = 640;
export const areSectionsFolded = (page: Page) => (page.viewportSize()?.width ?? 1280) < SECTIONS_FOLD_BELOW;

/** Opens the section or list named `name` where sections fold (phones); does nothing on a desktop. */
export async function unfold(page: Page, name: string) {
  if (!areSectionsFolded(page)) return;
  const toggle = page.getByRole('button', { name, exact: true });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

export const test = base.extend<{ clientAddress: string; noPageErrors: undefined }>({
  /** Every test fails on an uncaught page error or a Content-Security-Policy violation. */
  noPageErrors: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
          problems.push(`CSP: ${message.text()}`);
        }
      });
      await use(undefined);
      expect(problems).toEqual([]);
    },
    { auto: true },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  clientAddress: async ({}, use) => {
    await use(randomAddress());
  },
  extraHTTPHeaders: async ({ clientAddress }, use) => {
    await use({ 'X-Forwarded-For': clientAddress });
  },
});

export { expect };

/**
 * A part of a name that no other test, project or attempt uses, for what a test writes where
 * other tests can see it (an account's name, a class's title): the two projects on one server, and
 * a retry, each meet their own.
 */
export const unique = () => `${test.info().project.name.replace(/-paid$/, '')}${Date.now().toString(36)}`;

/** The seeded student and tutor of this test's project and attempt, who share lessons that took place. */
export function seededPair(): SeededPair {
  // The wallet's projects ("desktop-paid") run against the server that takes payments, seeded apart.
  const project = test.info().project.name;
  const paid = project.endsWith('-paid');
  const dataDir = paid ? process.env.BROWSER_TEST_PAID_DATA_DIR : process.env.BROWSER_TEST_DATA_DIR;
  const seed = JSON.parse(readFileSync(join(dataDir as string, 'seed.json'), 'utf8')) as BrowserSeed;
  // A retry has people of its own, as its first attempt found them (browser-seed.ts).
  const base = project.replace(/-paid$/, '') as SeedProject;
  return seed[test.info().retry > 0 ? (`${base}-retry` as const) : base];
}

/** Signs a seeded person in, in this page's browser context. */
export async function signInAs(page: Page, person: { email: string }) {
  const res = await page.request.post('/api/auth/sign-in/email', {
    data: { email: person.email, password: PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(200);
}
