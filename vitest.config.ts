import { availableParallelism } from 'node:os';
import { lingui } from '@lingui/vite-plugin';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Unit tests (plain functions), integration tests (our code against what lies under it, without
 * the app), API tests (the Hono app in-process on a fresh database per file, one project per
 * store: PostgreSQL when TEST_DATABASE_URL is set) and process tests (the real server as a child
 * process). `npm test` (scripts/test.mjs) runs each project once, as a stage of its own; what
 * each pass proves is in docs/architecture.md.
 */
const apiProject = (store: 'embedded' | 'postgres') => ({
  test: {
    name: `api-${store}`,
    // tests/api-postgres: what only a shared PostgreSQL can show (several servers on one database).
    include:
      store === 'postgres'
        ? ['tests/api/**/*.test.ts', 'tests/api-postgres/**/*.test.ts']
        : ['tests/api/**/*.test.ts'],
    // The fuzz's subject is what happens to a body before anything reaches a store: the JSON
    // parsing, the schemas, the error's shape. Its 17,000 requests take over a minute on each
    // store, so it runs on the embedded one (the default) alone; every route's storage is proven
    // on PostgreSQL by the rest of the suite.
    exclude:
      store === 'postgres'
        ? [...configDefaults.exclude, 'tests/api/security-fuzz.test.ts']
        : configDefaults.exclude,
    environment: 'node' as const,
    globalSetup: ['tests/support/api-global-setup.ts'],
    env: { TEST_STORE: store },
    // The files of a worker share their modules rather than import the whole server again for
    // each file (two seconds a file). Each file builds its own app on its own database in its
    // hooks, none mocks a module, and the server keeps no state of an app at module level.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default leaves one core to itself: on a two-core machine that is a single worker,
    // and half the machine idle while one file waits on its database. Two files at a time keep
    // both cores busy; the timeouts below allow for the sharing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        // Unit tests render page modules, whose texts are Lingui macros: the same transform as the build.
        plugins: [lingui({ macroTransform: true })],
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/unit-setup.ts'],
          environment: 'node',
        },
      },
      {
        // Our code against the real things under it, without the app: the embedded database on its
        // own thread, the data folder lock's file operations and child processes, the migrations
        // against the committed row types, dependency-cruiser against the import rules.
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
          // The server they start is the built one, built first when missing or stale.
          globalSetup: ['tests/support/built-server-setup.ts'],
          // One server at a time: several of these promises are about time (a start-up that must
          // finish creating its database within the 10 s shutdown allowance, a health check that
          // answers while it opens), and two servers initialising at once on two cores break them.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      ...(process.env.TEST_DATABASE_URL ? [apiProject('postgres')] : []),
    ],
  },
});
