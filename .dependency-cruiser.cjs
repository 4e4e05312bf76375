/**
 * Boundaries that a machine checks (`npm run lint`), so that imports keep flowing one way:
 * shared code (src/shared) → the client's shared pieces (components, lib) → features → the app.
 *
 * - A feature's files are its own. Anything outside it reaches it only through its index.ts,
 *   which names what the feature offers; a component several features use lives in components/.
 * - src/client/components and src/client/lib serve every feature, so they import none.
 * - src/shared is read by both sides, so it imports neither.
 * - The client reads the server's types (the API's AppType) and nothing else of it: a value
 *   import would pull server code into the browser's bundle.
 * - No import cycles in the client.
 *
 * The server is layered the same way (docs/architecture.md, "Imports go one way"): its
 * infrastructure (config, db, files, http, logging, mail, rate-limit) → the platform
 * (src/server/platform: the session guards, the audit log, the minute-job runner, the listing
 * rule, a person's time zone: what every feature uses) → the features (every other folder) → the
 * files that put them together (src/server/*.ts).
 * - The infrastructure imports neither the platform nor a feature; the platform imports no
 *   feature, not even a type.
 * - server-folder-cycles: no server folder imports one that imports it back, directly or through
 *   others. dependency-cruiser's `circular` sees files, not folders, so this one is
 *   scripts/check-server-folder-cycles.mjs, which `npm run lint` runs after this file's rules.
 *   Type-only imports do not count there: they vanish from the built server, so they cannot
 *   make one folder load or run another's code, and a feature naming the type of what app.ts
 *   hands it from another (admin's routes typing the backups they are given) is harmless.
 */
module.exports = {
  forbidden: [
    {
      name: 'feature-internals',
      comment: "A feature imports another feature only through that feature's index.ts.",
      severity: 'error',
      from: { path: '^src/client/features/([^/]+)/' },
      to: {
        path: '^src/client/features/[^/]+/',
        pathNot: ['^src/client/features/$1/', '^src/client/features/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'outside-into-feature-internals',
      comment: 'Outside the features, a feature is imported only through its index.ts.',
      severity: 'error',
      from: { path: '^src/client/', pathNot: '^src/client/features/' },
      to: { path: '^src/client/features/[^/]+/', pathNot: '^src/client/features/[^/]+/index\\.ts$' },
    },
    {
      name: 'shared-pieces-import-no-feature',
      comment: 'components/ and lib/ serve every feature, so they import no feature and not the app.',
      severity: 'error',
      from: { path: '^src/client/(components|lib)/' },
      to: { path: '^src/client/(features|app)/' },
    },
    {
      name: 'shared-imports-neither-side',
      comment: 'src/shared is read by the client and the server, so it imports neither.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/(client|server)/' },
    },
    {
      name: 'client-reads-only-server-types',
      comment:
        'The client imports the server with `import type` only: server code never reaches the browser.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/server/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-infrastructure-imports-no-feature',
      comment:
        'config, db, files, http, i18n, logging, mail and rate-limit lie under everything else on the server: they import neither the platform nor a feature.',
      severity: 'error',
      from: { path: '^src/server/(config|db|files|http|i18n|logging|mail|rate-limit)/' },
      to: {
        path: '^src/server/',
        pathNot: '^src/server/(config|db|files|http|i18n|logging|mail|rate-limit)/',
      },
    },
    {
      name: 'server-platform-imports-no-feature',
      comment:
        'src/server/platform serves every server feature, so it imports none of them (types included), only the infrastructure.',
      severity: 'error',
      from: { path: '^src/server/platform/' },
      to: {
        path: '^src/server/',
        pathNot: '^src/server/(platform|config|db|files|http|i18n|logging|mail|rate-limit)/',
      },
    },
    {
      name: 'no-client-cycles',
      comment: 'Client modules import each other one way only.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/client/', circular: true },
    },
  ],
  options: {
    // Type-only imports are seen (and marked as such), so the rules above can tell them apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/client/public/' },
  },
};
