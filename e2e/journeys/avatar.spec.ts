/**
 * Who the account is, at the top of Account (docs/behaviour.md §3: the name and avatar where the API knows
 * them, mirrored to the host as `profile`): an ENS primary name's avatar record, a project name's `avatar`
 * attribute, else the address's identicon, drawn in the modal. The names come from the devnet's ENS
 * (`alice.eth` with an avatar, `bob.eth` without) and from names registered at the API by fresh keys, so no
 * other journey's names or caches count.
 */
import { devnetA } from '@airlock/devnet/chains'
import type { FrameLocator, Page } from '@playwright/test'
import { createPublicClient, http, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { connectWallet, expect, withAnvilAccount, withEvmKey } from './fixtures.ts'

const api = 'http://127.0.0.1:8787'
const ens = createPublicClient({ chain: devnetA, transport: http(devnetA.rpcUrls.default.http[0]) })
const alice = withAnvilAccount(1)
const bob = withAnvilAccount(2)

/** The picture beside the address: the avatar's `img`, or the identicon's `svg`. */
const avatar = (modal: FrameLocator) => modal.locator('.account-avatar .account-avatar-image')

const profile = (page: Page) => page.evaluate(() => window.airlock?.getState().profile)

/** Registers `label`.airlock.id for the key at the API, signed by it, with `attributes` as its text records. */
async function registerName(privateKey: `0x${string}`, label: string, attributes: Record<string, string>) {
  const owner = privateKeyToAccount(privateKey)
  const name = `${label}.airlock.id`
  const message = JSON.stringify({ name, attributes, timestamp: Math.floor(Date.now() / 1000) })
  const response = await fetch(`${api}/v1/profile/account?projectId=demo`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      // ENSIP-11's coin type of chain 31337.
      coin_type: (0x8000_0000 | 31337) >>> 0,
      address: owner.address,
      message,
      signature: await owner.signMessage({ message: { raw: toHex(message) } }),
    }),
  })
  expect(response.status).toBe(201)
  return name
}

alice.test(
  'an ENS primary name shows with its avatar record, and the dApp is told both',
  async ({ page, modal }) => {
    // What the chain says, read with plain viem: the test does not take the modal's or the API's word.
    const image = await ens.getEnsText({ name: 'alice.eth', key: 'avatar' })
    expect(image).toMatch(/^data:image\/svg\+xml;base64,/)
    await page.goto('/module.html?networks=eip155:31337')
    await connectWallet(page, modal, 'Airlock Test Wallet', alice.evm)
    await expect(modal.locator('.account-name')).toHaveText('alice.eth')
    await expect(avatar(modal)).toHaveJSProperty('tagName', 'IMG')
    await expect(avatar(modal)).toHaveAttribute('src', image as string)
    // Loaded, not a broken image the identicon would stand in for.
    await expect
      .poll(() => avatar(modal).evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0)
    await expect.poll(() => profile(page)).toEqual({ name: 'alice.eth', image })
  },
)

bob.test('a name with no avatar keeps the identicon beside the name', async ({ page, modal }) => {
  expect(await ens.getEnsText({ name: 'bob.eth', key: 'avatar' })).toBeNull()
  await page.goto('/module.html?networks=eip155:31337')
  await connectWallet(page, modal, 'Airlock Test Wallet', bob.evm)
  await expect(modal.locator('.account-name')).toHaveText('bob.eth')
  await expect(avatar(modal)).toHaveJSProperty('tagName', 'svg')
  await expect(modal.locator('.account-avatar img.account-avatar-image')).toHaveCount(0)
  await expect.poll(() => profile(page)).toEqual({ name: 'bob.eth' })
})

const named = withEvmKey(generatePrivateKey())
named.test('a project name’s avatar attribute is the account’s avatar', async ({ page, modal }) => {
  const image = `data:image/svg+xml;base64,${Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#0a7"/></svg>',
  ).toString('base64')}`
  const name = await registerName(named.options.evm?.privateKey as `0x${string}`, `pic${Date.now()}`, {
    avatar: image,
  })
  await page.goto('/module.html?networks=eip155:31337')
  await connectWallet(page, modal, 'Airlock Test Wallet', named.evm)
  await expect(modal.locator('.account-name')).toHaveText(name)
  await expect(avatar(modal)).toHaveAttribute('src', image)
  await expect.poll(() => profile(page)).toEqual({ name, image })
})

const nameless = withEvmKey(generatePrivateKey())
nameless.test(
  'an address with no name has its identicon, and the dApp no profile',
  async ({ page, modal }) => {
    await page.goto('/module.html?networks=eip155:31337')
    await connectWallet(page, modal, 'Airlock Test Wallet', nameless.evm)
    await expect(avatar(modal)).toHaveJSProperty('tagName', 'svg')
    // A 5×5 picture, hidden from screen readers: the address is written beside it.
    await expect(avatar(modal)).toHaveAttribute('viewBox', '0 0 5 5')
    await expect(avatar(modal)).toHaveAttribute('aria-hidden', 'true')
    await expect(modal.locator('.account-avatar img.account-avatar-image')).toHaveCount(0)
    await expect(modal.locator('.account-name')).toHaveCount(0)
    expect(await profile(page)).toBeUndefined()
  },
)
