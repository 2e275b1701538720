/** Self-test of the injected wallets: `npx playwright test -c e2e/wallets/playwright.config.ts`. */
import { defineConfig } from '@playwright/test'

/** Debian's Chromium: `npx playwright install` cannot download browsers here. */
export const chromiumLaunchOptions = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // Tests serve some pages with page.route, which Chromium treats as public; Local Network Access would
    // then refuse their frames to 127.0.0.1. Real pages on localhost are local and unaffected.
    '--disable-features=LocalNetworkAccessChecks',
  ],
}

export default defineConfig({
  testDir: '.',
  testMatch: 'wallets.spec.ts',
  outputDir: './test-results',
  // One worker: the suite owns a fixed anvil port.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  reporter: 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: chromiumLaunchOptions,
  },
})
