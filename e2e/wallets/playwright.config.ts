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
