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
