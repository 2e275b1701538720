import { defineConfig } from 'vitest/config'

// One vitest run covers every package's unit tests; e2e journeys run under Playwright instead.
export default defineConfig({
  test: {
    include: ['{bridge-protocol,host-sdk,modal-app,api,devnet}/src/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
