// Import-cycle check for `npm run check:cycles` (the only rule here; knip covers dead code).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Modules must not import each other in a loop. `import type` edges are left out: they are erased ' +
        'at build time (verbatimModuleSyntax) and cannot cause evaluation-order bugs.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    // Workspace packages are symlinked into node_modules; following the symlink to the real path
    // (preserveSymlinks: false) makes `@airlock/bridge-protocol` land on bridge-protocol/src, so
    // cycles that cross packages are found too. Third-party packages are not walked.
    doNotFollow: { path: 'node_modules' },
    // Build output, and e2e/fixtures (prebuilt bundles the journeys load, not source).
    exclude: { path: '(^|/)(dist|test-results|playwright-report)/|^e2e/fixtures/' },
    preserveSymlinks: false,
    // Parse TypeScript as written so `import type` is seen (and tagged type-only) instead of erased.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@airlock/source', 'import', 'types', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
}
