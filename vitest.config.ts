import { defineConfig } from 'vitest/config';

/**
 * Unit tests (plain functions), integration tests (the database and the data folder lock, without
 * the app) and API tests (the Hono app in-process against a fresh database per
 * file). The API suite runs on the embedded store always, and on PostgreSQL too when
 * TEST_DATABASE_URL is set.
 */
const apiProject = (store: 'embedded' | 'postgres') => ({
  test: {
    name: `api-${store}`,
    // tests/api-postgres: what only a shared PostgreSQL can show (several servers on one database).
    include:
      store === 'postgres'
        ? ['tests/api/**/*.test.ts', 'tests/api-postgres/**/*.test.ts']
        : ['tests/api/**/*.test.ts'],
    environment: 'node' as const,
    globalSetup: ['tests/support/api-global-setup.ts'],
    env: { TEST_STORE: store },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        // Our code against the real things under it, without the app: the embedded database on its
        // own thread, the data folder lock's file operations and child processes.
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          // A fresh embedded database takes seconds to create, more beside other suites.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      apiProject('embedded'),
      {
        test: {
          name: 'process',
          include: ['tests/process/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          fileParallelism: false,
        },
      },
      ...(process.env.TEST_DATABASE_URL ? [apiProject('postgres')] : []),
    ],
  },
});
