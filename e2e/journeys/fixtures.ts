/**
 * What every journey shares: test wallets injected into the dApp page the way extensions inject
 * themselves, a handle on the modal frame, and a viem client on the devnet to check what really happened.
 */
import { Accounts } from '@airlock/devnet'
import { devnetA, devnetB } from '@airlock/devnet/chains'
import {
  test as base,
  expect,
  type Frame,
  type FrameLocator,
  type Locator,
  type Page,
} from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { createPublicClient, formatEther, http } from 'viem'
import { defaultWalletOptions, type WalletOptions, walletInitScript } from '../wallets/index.ts'
import { addressesFromOptions } from '../wallets/verify.ts'

export const modalOrigin = 'http://airlock.localhost:5174'

const chains = [devnetA, devnetB].map((chain) => ({
  chainId: chain.id,
  rpcUrl: chain.rpcUrls.default.http[0] as string,
  name: chain.name,
}))

/** The wallet knows only devnet A at first, so switching to B must go through wallet_addEthereumChain. */
export const walletOptions: WalletOptions = (() => {
  const options = defaultWalletOptions(chains)
  if (options.evm) options.evm.knownChainIds = [devnetA.id]
  return options
})()
export const addresses = addressesFromOptions(walletOptions)

export const clients = {
  a: createPublicClient({ transport: http(chains[0]?.rpcUrl) }),
  b: createPublicClient({ transport: http(chains[1]?.rpcUrl) }),
}

/**
 * The modal's display rule for a decimal amount: truncated, not rounded, to 3 decimals, so nobody sees more
 * than they hold, with the separators of the browser's locale (Playwright's default, en-US: `10,000.000`).
 */
export function displayQuantity(numeric: string, symbol: string): string {
  const [whole = '0', fraction = ''] = numeric.split('.')
  return `${BigInt(whole).toLocaleString('en-US')}.${fraction.padEnd(3, '0').slice(0, 3)} ${symbol}`
}

/** An amount of wei as the modal shows it (see {@link displayQuantity}). */
export function displayBalance(wei: bigint, symbol = 'ETH'): string {
  return displayQuantity(formatEther(wei), symbol)
}

type Fixtures = {
  /** The dApp page, wallets injected, not yet navigated. */
  page: Page
  /** The modal's frame, for locators. */
  modal: FrameLocator
}

export const test = withWallets(walletOptions)

export { expect }

/** The modal frame itself, for evaluating in it (axe, forged messages). */
export async function modalFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().startsWith(modalOrigin))).toBe(true)
  return page.frames().find((f) => f.url().startsWith(modalOrigin)) as Frame
}

/**
 * Records every URL the modal opens (`window.open`: a wallet's app link, say) instead of leaving the test for
 * a wallet app; `opened()` reads them, in order. Call before the page loads.
 */
export async function recordOpened(page: Page): Promise<{ opened(): Promise<string[]> }> {
  await page.addInitScript((origin) => {
    if (location.origin !== origin) return
    const opened: string[] = []
    Object.assign(window, { opened })
    window.open = (url?: string | URL) => {
      opened.push(String(url))
      return null
    }
  }, modalOrigin)
  return {
    opened: async () =>
      (await modalFrame(page)).evaluate(() => [...(window as unknown as { opened: string[] }).opened]),
  }
}

/**
 * Holds the page's requests to the API's `route` (a glob after the API's origin) until the test calls the
 * function returned: the test, not the API's speed, decides how long the modal waits for them (its
 * placeholders, say, stay on screen until then).
 * @example const release = await holdApi(page, '/getWallets**')
 */
export async function holdApi(page: Page, route: string): Promise<() => void> {
  let release = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(`http://127.0.0.1:8787${route}`, async (request) => {
    await held
    await request.continue()
  })
  return release
}

/** {@link holdApi} for the balance reads. */
export const holdBalances = (page: Page) => holdApi(page, '/v1/account/*/balance**')

/** Connects the EVM test wallet through the modal, the way a visitor does, and waits for Account. */
export async function connectEvm(page: Page, modal: FrameLocator): Promise<void> {
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(modal.getByTestId('account-address')).toBeVisible()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
}

/**
 * The EVM test wallet connected on plain.html, which configures only devnet A, then moved to devnet B inside
 * the wallet itself (added and picked there, as a visitor does in an extension), not through the dApp.
 */
export async function connectThenLeaveForDevnetB(page: Page, modal: FrameLocator): Promise<void> {
  await page.goto('/plain.html')
  await connectEvm(page, modal)
  await page.evaluate(() => window.airlock?.close())
  await leaveForDevnetB(page)
}

/** The EVM test wallet moves to devnet B inside the wallet itself, as a visitor does in an extension. */
export async function leaveForDevnetB(page: Page): Promise<void> {
  await page.evaluate(
    (chain) =>
      window.__airlockTestWallets?.evm?.provider.request({
        method: 'wallet_addEthereumChain',
        params: [chain],
      }),
    {
      chainId: `0x${devnetB.id.toString(16)}`,
      chainName: devnetB.name,
      rpcUrls: [devnetB.rpcUrls.default.http[0]],
      nativeCurrency: devnetB.nativeCurrency,
    },
  )
}

/** Connects the named wallet from Connect, and waits for its account in the Account view. */
export async function connectWallet(page: Page, modal: FrameLocator, name: string, address: string) {
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name }).click()
  await expect(modal.getByTestId('account-address')).toHaveAttribute('data-address', address)
}

/**
 * Waits until the browser itself sees the modal's card as the clickjacking guard asks it to
 * (IntersectionObserver v2: whole, unoccluded, opaque, untransformed) or, with `visible` false, not so.
 * A page's decoy or opacity is then in force as far as the guard can know, whatever the modal does with it.
 */
export async function inSight(page: Page, visible: boolean): Promise<void> {
  const frame = await modalFrame(page)
  await frame.evaluate(
    (visible) =>
      new Promise<void>((resolve) => {
        const card = document.querySelector('.card') as Element
        const observer = new IntersectionObserver(
          (entries) => {
            const entry = entries.at(-1) as (IntersectionObserverEntry & { isVisible?: boolean }) | undefined
            if (Boolean(entry?.isIntersecting && entry.isVisible) !== visible) return
            observer.disconnect()
            resolve()
          },
          { threshold: 1, trackVisibility: true, delay: 100 } as IntersectionObserverInit,
        )
        observer.observe(card)
      }),
    visible,
  )
}

/**
 * Records every message the modal's snackbar shows from now on, as `variant: text`; `shown()` reads them.
 * What a snack said is asserted from the record at the end, not by looking at the snackbar after a pause.
 */
export async function snackLog(page: Page): Promise<{ shown(): Promise<string[]> }> {
  const frame = await modalFrame(page)
  await frame.evaluate(() => {
    const region = document.querySelector('[data-testid="snackbar"]')
    if (!region) throw new Error('the modal has no snackbar')
    const log: string[] = []
    ;(window as { snacks?: string[] }).snacks = log
    new MutationObserver(() => {
      const snack = region.querySelector('[data-variant]')
      const said = snack && `${snack.getAttribute('data-variant')}: ${snack.textContent}`
      if (said && said !== log.at(-1)) log.push(said)
    }).observe(region, { childList: true, subtree: true, characterData: true })
  })
  return { shown: () => frame.evaluate(() => [...((window as { snacks?: string[] }).snacks ?? [])]) }
}

/** Presses Tab until the element has focus, as a keyboard user gets there. */
export async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 30; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return
    await page.keyboard.press('Tab')
  }
  await expect(target).toBeFocused()
}

/** What a chain's JSON-RPC answers, with no client library between. */
export async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: T }).result
}

/** The journeys' `test`, with other test wallets in the page (another EVM key, say). */
function withWallets(options: WalletOptions) {
  return base.extend<Fixtures>({
    page: async ({ page }, use) => {
      await page.addInitScript({ content: await walletInitScript(options) })
      await use(page)
    },
    modal: async ({ page }, use) => {
      await use(page.frameLocator('iframe[title="Airlock"]'))
    },
  })
}

/**
 * The test wallets with anvil's account `index` as the EVM key, for a journey whose balances no other
 * journey touches (the API caches balances for 30 s): the options, the EVM address and the `test` to use.
 */
export function withAnvilAccount(index: number) {
  const account = Accounts.all()[index]
  if (!account) throw new Error(`anvil has no account ${index}`)
  return withEvmKey(account.privateKey as `0x${string}`)
}

/**
 * The test wallets with `privateKey` as the EVM key: a visitor of a journey's own, whose account no other
 * journey (and no earlier run against the same stack) has touched; the journey funds it.
 */
export function withEvmKey(privateKey: `0x${string}`) {
  const options: WalletOptions = {
    ...walletOptions,
    ...(walletOptions.evm && { evm: { ...walletOptions.evm, privateKey } }),
  }
  const addresses = addressesFromOptions(options)
  return { options, addresses, evm: addresses.evm?.address as `0x${string}`, test: withWallets(options) }
}

/** Calls the dApp-facing EIP-1193 provider in the page; resolves with `{ result }` or `{ error }`. */
export function request(page: Page, method: string, params?: unknown) {
  return page.evaluate(
    async ([method, params]) => {
      try {
        const provider = window.airlock?.providers.eip155
        return { result: await provider?.request({ method: method as string, params: params as unknown[] }) }
      } catch (error) {
        const { code, message } = error as { code?: number; message?: string }
        return { error: { code, message } }
      }
    },
    [method, params] as const,
  )
}

/**
 * What a phone's camera reads from a QR code as the modal draws it: the text it encodes, if it can be read
 * at all (decoded from a screenshot, so a code that only looks right fails).
 */
export async function decodeQr(qr: Locator): Promise<string | undefined> {
  const shot = PNG.sync.read(await qr.screenshot())
  return jsQR(new Uint8ClampedArray(shot.data), shot.width, shot.height)?.data
}

/** Runs axe-core inside the modal frame and returns the violations' ids. */
export async function axeViolations(page: Page): Promise<string[]> {
  const frame = await modalFrame(page)
  const { createRequire } = await import('node:module')
  const { readFileSync } = await import('node:fs')
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
  await frame.evaluate(source)
  // A view that is still fading or rising in (the snackbar, a shake) has colours between two states: axe
  // judges contrast on what stays, so the finite animations are let finish first.
  await frame.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  )
  return frame.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }).axe
    const result = await axe.run()
    return result.violations.map((v) => v.id)
  })
}

declare global {
  interface Window {
    airlock?: import('@airlock/host-sdk').Airlock
  }
}

/**
 * What a Wallet Standard dApp does with Airlock's Solana or Bitcoin wallet: connect, then sign `text`.
 * Resolves once the visitor (or a connected wallet) lets both through.
 */
export function standardSign(
  page: Page,
  namespace: 'solana' | 'bip122',
  text: string,
): Promise<{ address: string | undefined; signature: number[] }> {
  return page.evaluate(
    async ({ namespace, text }) => {
      const wallet = window.airlock?.providers[namespace]
      const [connectFeature, signFeature] = (
        namespace === 'solana'
          ? ['standard:connect', 'solana:signMessage']
          : ['bitcoin:connect', 'bitcoin:signMessage']
      ) as [`${string}:${string}`, `${string}:${string}`]
      const connect = wallet?.features[connectFeature] as {
        connect(): Promise<{ accounts: { address: string }[] }>
      }
      const { accounts } = await connect.connect()
      const account = accounts[0]
      const sign = wallet?.features[signFeature] as {
        signMessage(input: { account: unknown; message: Uint8Array }): Promise<{ signature: Uint8Array }[]>
      }
      const [signed] = await sign.signMessage({ account, message: new TextEncoder().encode(text) })
      return { address: account?.address, signature: [...(signed?.signature ?? [])] }
    },
    { namespace, text },
  )
}

/**
 * The hostile-message generator (bridge-protocol's fuzz test support) as a script for a page: it defines
 * `window.Hostile`, so a page can forge and post the messages itself, each with a port of its own.
 * @example
 * await page.addScriptTag({ content: await hostileScript() })
 * await page.evaluate(() => window.Hostile?.flood({ seed: 1, target: 'hello', count: 10, post }))
 */
export async function hostileScript(): Promise<string> {
  const { build } = await import('esbuild')
  const { fileURLToPath } = await import('node:url')
  const entry = fileURLToPath(new URL('../../bridge-protocol/src/internal/hostile/index.ts', import.meta.url))
  const bundle = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName: 'Hostile',
    write: false,
  })
  return bundle.outputFiles[0]?.text ?? ''
}

declare global {
  interface Window {
    Hostile?: typeof import('../../bridge-protocol/src/internal/hostile/index.ts')
  }
}
