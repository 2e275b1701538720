import { defaultClientConditions, defaultServerConditions } from 'vite'
import { defineConfig } from 'vitest/config'

// Workspace packages resolve to their TypeScript source (the `@airlock/source` export condition), never to a
// build; published users, who lack the condition, get dist/.
const source = '@airlock/source'

// One vitest run covers every package's unit tests; e2e journeys run under Playwright instead.
export default defineConfig({
  resolve: { conditions: [source, ...defaultClientConditions] },
  // Tests on Node resolve as Node does: without bundlers' `module` condition, under which packages such as
  // @walletconnect/core load builds that never answer on Node (the relay's sign-client tests hang).
  ssr: { resolve: { conditions: [source, ...defaultServerConditions.filter((name) => name !== 'module')] } },
  test: {
    include: [
      '{bridge-protocol,host-sdk,host-sdk/react,host-sdk/wagmi,modal-app,api,devnet}/src/**/*.test.{ts,tsx}',
    ],
    // Two workers for two cores: most files wait on chains and child processes far more than they compute,
    // so a second one fills the waits (vitest's default on two cores is one).
    maxWorkers: 2,
    // Limits that only catch a hung test: a machine busy with other work may take minutes over what a quiet
    // one takes seconds for (starting anvil, Alto, litecoind), and must not fail for it.
    testTimeout: 120_000,
    hookTimeout: 240_000,
    expect: { poll: { timeout: 30_000 } },
    setupFiles: ['./scripts/vitest.setup.ts'],
    reporters: ['default', './scripts/reporters/vitest.ts'],
  },
})
