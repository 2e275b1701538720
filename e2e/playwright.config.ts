/**
 * Cross-origin journeys in Debian's Chromium: the demo dApp on http://localhost:5173, the modal on
 * http://airlock.localhost:5174, anvil on 8545/8546, the mail catcher on 1025 (SMTP) and 1080 (where
 * `journeys/fixtures.ts`'s `mailCode` reads login codes) — the same stack `npm start` runs, from production
 * builds.
 * `npm run test:e2e` builds first. A stack already running (`npm start`) is reused outside CI.
 */
import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './wallets/playwright.config.ts'

export default defineConfig({
  testDir: '.',
  outputDir: './test-results',
  // One worker: journeys share the two chains, and anvil's nonces are per account.
  workers: 1,
  fullyParallel: false,
  // Limits that only catch a journey that hangs: on a machine busy with other work, a wallet's first
  // connection or a relay's handshake takes many times what it takes on a quiet one.
  timeout: 120_000,
  // In CI one more try, so a journey that fails once on a loaded machine does not hide the run's result;
  // Playwright then calls it flaky, and snapshots.ts prints it with what the page showed when it failed,
  // to be mended rather than forgotten. A journey that fails twice fails the run.
  retries: process.env.CI ? 1 : 0,
  expect: { timeout: 30_000 },
  reporter: [['list'], ['../scripts/reporters/playwright.ts'], ['../scripts/reporters/snapshots.ts']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: chromiumLaunchOptions,
    baseURL: 'http://localhost:5173',
  },
  projects: [
    { name: 'wallets', testMatch: 'wallets/*.spec.ts' },
    { name: 'journeys', testMatch: 'journeys/*.spec.ts' },
  ],
  webServer: [
    {
      // A database of its own in memory: every run starts from the seeds, whatever earlier runs stored. The
      // `sites` project allows the dApp that journeys serve on a site of its own (journeys/sites.spec.ts), and
      // on the modal's own site, under airlock.localhost (journeys/telegram.spec.ts).
      command:
        "npx tsx devnet/src/start.ts --no-build --data memory:// --project 'sites=http://dapp.test:*,http://dapp.airlock.localhost:*'",
      cwd: '..',
      // The demo dApp starts last, so the whole stack is up once it answers (the modal origin starts first).
      url: 'http://localhost:5173/',
      reuseExistingServer: !process.env.CI,
      // Only catches a stack that never starts: on a machine busy with other work it takes minutes.
      timeout: 600_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    // The React + wagmi and Next.js examples, from their builds (journeys/react, wagmi and nextjs.spec.ts).
    ...[
      { workspace: 'examples/react-wagmi', script: 'preview', url: 'http://localhost:5175/' },
      { workspace: 'examples/nextjs', script: 'start', url: 'http://localhost:5176/' },
    ].map(({ workspace, script, url }) => ({
      command: `npm run ${script} -w ${workspace}`,
      cwd: '..',
      url,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    })),
  ],
})
