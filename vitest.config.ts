import { defineConfig } from 'vitest/config';

/**
 * Unit tests (plain functions) and API tests (the Hono app in-process against a fresh database per
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
          // Some unit tests do real file work (the data folder lock's interleavings: 2 s alone); beside
          // the API suites on two cores they ran past vitest's default 5 s.
          testTimeout: 30_000,
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
