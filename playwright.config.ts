/**
 * Browser tests: Playwright drives the real built server in Debian's Chromium (never a downloaded
 * browser: these machines have no internet). The server gets its own empty data folder per run
 * (seeded with lessons that already took place: tests/support/browser-seed.ts) and delivers mail
 * to a real SMTP server the tests read.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { chromiumFlags, chromiumPath } from './tests/browser/chromium';

if (!chromiumPath) {
  process.stderr.write(
    `No Chromium at ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell or /usr/bin/chromium'}: install Debian's with "sudo apt-get install -y chromium chromium-headless-shell", or set CHROMIUM_PATH to a Chromium binary.\n`,
  );
  process.exit(1);
}

const appPort = Number(process.env.BROWSER_TEST_PORT ?? 4173);
const appUrl = `http://127.0.0.1:${appPort}`;
const smtpPort = appPort + 2;
const mailHttpPort = appPort + 3;
// A second server takes payments (the default), for the specs about money (the wallet's, the
// cancellation policy's fees, the money a deletion waits for, group classes' seats, families); the first one keeps the other
// features' specs to their subject with PAYMENTS=off.
const paidPort = appPort + 4;
const paidUrl = `http://127.0.0.1:${paidPort}`;
const paidSpecs = /(wallet|packages|cancellation-policy|account-data|languages|classes|family)\.spec\.ts$/;
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
// The config is loaded by the runner and by every worker: create and seed the data folders once,
// before the servers open them (Playwright starts web servers before any global setup). One seed
// fills them all at once, each database on a thread of its own: the two servers' folders, and one
// that no server opens, which the specs with a server of their own copy (tests/browser/own-server.ts)
// rather than each run the seed again.
if (
  !process.env.BROWSER_TEST_DATA_DIR ||
  !process.env.BROWSER_TEST_PAID_DATA_DIR ||
  !process.env.BROWSER_TEST_SEEDED_COPY_DIR
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tutorlane-browser-'));
  const paidDataDir = mkdtempSync(join(tmpdir(), 'tutorlane-browser-paid-'));
  const seededCopyDir = mkdtempSync(join(tmpdir(), 'tutorlane-browser-seeded-'));
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'tests/support/browser-seed.ts', dataDir, seededCopyDir, '--payments', paidDataDir],
    { stdio: 'inherit' },
  );
  process.env.BROWSER_TEST_DATA_DIR = dataDir;
  process.env.BROWSER_TEST_PAID_DATA_DIR = paidDataDir;
  process.env.BROWSER_TEST_SEEDED_COPY_DIR = seededCopyDir;
}
process.env.MAIL_SINK_URL = `http://127.0.0.1:${mailHttpPort}`;

export default defineConfig({
  testDir: 'tests/browser',
  fullyParallel: true,
  workers: 2,
  // A test that fails runs once more, traced (below), so that its failure comes with the trace; the
  // run fails all the same when the second run passes (failOnFlakyTests): nothing passes on a retry.
  retries: 1,
  failOnFlakyTests: true,
  // The longest journeys create several accounts (an argon2id hash each) and run two accessibility
  // scans: tens of seconds on two cores, more when other work shares them. A stuck page still fails
  // on the 10 s expect.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // The list reporter repeats every failure's error at the end of its output, where a log that
  // keeps only its tail (CI's) still has it; the line reporter prints it once, mid-run.
  reporter: 'list',
  use: {
    baseURL: appUrl,
    // What failed, step by step (the actions, the page's DOM at each, its requests and console),
    // recorded on a failed test's second run only. Without the screencast's frames: recording them
    // on every test cost a third more CPU than the test itself on two cores; recording the DOM
    // snapshots on every test, to keep them for the few that fail, cost a sixth more.
    trace: { mode: 'on-first-retry', screenshots: false, snapshots: true },
    launchOptions: { executablePath: chromiumPath, args: chromiumFlags },
  },
  // Every spec runs at desktop width. At phone width run the tests tagged @phone, whose subject
  // is a layout or the navigation there: every page's scan, the folded navigation, the search's
  // filters, the booking box, the availability editor, the room's controls, the money pages. A
  // test tagged @phone-only is about a phone alone.
  projects: [
    {
      name: 'desktop',
      testIgnore: paidSpecs,
      grepInvert: /@phone-only/,
      use: { ...devices['Desktop Chrome'], viewport: desktop },
    },
    {
      name: 'phone',
      testIgnore: paidSpecs,
      grep: /@phone/,
      use: { ...devices['Desktop Chrome'], viewport: phone, hasTouch: true },
    },
    // The same two widths against the server that takes payments.
    {
      name: 'desktop-paid',
      testMatch: paidSpecs,
      grepInvert: /@phone-only/,
      use: { ...devices['Desktop Chrome'], viewport: desktop, baseURL: paidUrl },
    },
    {
      name: 'phone-paid',
      testMatch: paidSpecs,
      grep: /@phone/,
      use: { ...devices['Desktop Chrome'], viewport: phone, hasTouch: true, baseURL: paidUrl },
    },
  ],
  webServer: [
    {
      command: 'node --import tsx tests/support/mail-sink-server.ts',
      url: `http://127.0.0.1:${mailHttpPort}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { MAIL_SINK_SMTP_PORT: String(smtpPort), MAIL_SINK_HTTP_PORT: String(mailHttpPort) },
    },
    {
      // The production artifact, as npm start runs it (npm run test:browser builds it first).
      command: 'node dist/server/main.js',
      url: `${appUrl}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        NODE_ENV: 'test',
        PORT: String(appPort),
        APP_URL: appUrl,
        DATA_DIR: process.env.BROWSER_TEST_DATA_DIR,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        SUPPORT_EMAIL: 'support@tutorlane.test',
        SUPPORT_PHONE: '+1 (555) 010-0199',
        // Each test comes from its own address (X-Forwarded-For), so rate limits apply per test.
        TRUST_PROXY: '1',
        LOG_LEVEL: 'warn',
        // The other features' specs book without money, as a school with PAYMENTS=off; the
        // specs about money run against the second server below, with payments on (the default).
        PAYMENTS: 'off',
        // The console's specs sign in with a password alone; two-factor.spec.ts starts a server of
        // its own with the default (required).
        ADMIN_TWO_FACTOR: 'optional',
      },
    },
    {
      command: 'node dist/server/main.js',
      url: `${paidUrl}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        NODE_ENV: 'test',
        PORT: String(paidPort),
        APP_URL: paidUrl,
        DATA_DIR: process.env.BROWSER_TEST_PAID_DATA_DIR,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        SUPPORT_EMAIL: 'support@tutorlane.test',
        TRUST_PROXY: '1',
        LOG_LEVEL: 'warn',
        // Payments on, as a school gets them by default; the school's commission is 15%.
        COMMISSION_PERCENT: '15',
        // The wallet's admin confirms a transfer with a password alone, as on the other server.
        ADMIN_TWO_FACTOR: 'optional',
        // languages.spec.ts (booking and the wallet in Spanish and Arabic) also shows pages in the
        // pseudo-language (docs/translating.md).
        PSEUDO_LANGUAGE: 'on',
      },
    },
  ],
});
