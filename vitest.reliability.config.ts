import { defineConfig } from 'vitest/config';

/**
 * `npm run test:reliability`: the reliability promises (durability under kill -9, graceful
 * shutdown, database and mail outages, a minute of load, messages across a restart, money across
 * kill -9) against the real server process. Not part of `npm test`: it takes minutes and loads the
 * whole machine, so its files run one at a time.
 */
export default defineConfig({
  test: {
    include: ['tests/reliability/**/*.test.ts'],
    environment: 'node',
    // The server under test is the built one (`node dist/server/main.js`), built first when
    // missing or stale.
    globalSetup: ['tests/support/built-server-setup.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 60_000,
    reporters: ['default', './tests/reliability/summary-reporter.ts'],
  },
});
