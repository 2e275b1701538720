/**
 * Sign in with X: the modal builds the message with the page's real origin, the page wallet signs it, the
 * API verifies it and keeps the session. Each namespace, decline and retry, required mode, reload, revoke.
 */
import { Siwx } from '@airlock/bridge-protocol'
import type { FrameLocator, Page } from '@playwright/test'
import { type Hex, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ANVIL_ACCOUNT_0_PRIVATE_KEY, setWalletMode } from '../wallets/index.ts'
import { addresses, axeViolations, expect, test } from './fixtures.ts'

const api = 'http://127.0.0.1:8787'
// The devnet's own chains, as the demo page configures them.
const solanaDevnet = 'solana:5Rqo9UxdHy9JBtqyVvuwV4Sv7wuDnKNh'
const regtest = 'bip122:530827f38f93b43ed12af0b3ad25a288'
type Session = {
  id: string
  address: string
  chainId: string
  message: string
  signature: string
  token: string
}

const session = (page: Page) => page.evaluate(() => window.airlock?.getSession() as Session | undefined)

/** The sessions the API holds for an account, as anyone can ask for them. */
async function apiSessions(account: string): Promise<Session[]> {
  const response = await fetch(`${api}/v1/sessions/${encodeURIComponent(account)}?projectId=demo`)
  return ((await response.json()) as { sessions: Session[] }).sessions
}

/** What a dApp's backend learns from the API about a session token: the session, or 401 when it is not live. */
async function verify(token: string | undefined): Promise<{ status: number; id?: string }> {
  const response = await fetch(`${api}/v1/sessions/verify?projectId=demo`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  })
  const body = (await response.json()) as { id?: string }
  return { status: response.status, ...(body.id ? { id: body.id } : {}) }
}

/** Opens the modal, picks the wallet and waits for the sign-in view. */
async function connect(page: Page, modal: FrameLocator, wallet: string) {
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: wallet }).click()
  await expect(modal.getByRole('heading', { name: 'Sign In' })).toBeVisible()
  await expect(modal.getByTestId('signin-origin')).toHaveText('http://localhost:5173')
}

test('EVM: signing in on connect opens a session the API verified, and the dApp is told', async ({
  page,
  modal,
}) => {
  await page.goto('/module.html?siwx=optional')
  await page.evaluate(() => {
    const changes: unknown[] = []
    Object.assign(window, { sessionChanges: changes })
    window.airlock?.onSessionChange((next) => changes.push(next?.address ?? null))
  })
  await connect(page, modal, 'Airlock Test Wallet')
  await modal.getByRole('button', { name: 'Sign', exact: true }).click()
  await expect(modal.getByRole('dialog')).toBeHidden()
  const signed = await session(page)
  const evm = addresses.evm?.address as Hex
  expect(signed?.address).toBe(`eip155:31337:${evm.toLowerCase()}`)
  // The message names the page's origin and is EIP-4361 text the wallet really signed.
  const message = Siwx.parse(signed?.message ?? '')
  expect(message).toMatchObject({
    domain: 'localhost:5173',
    uri: 'http://localhost:5173',
    chainId: 'eip155:31337',
  })
  expect(signed?.message).toContain('localhost:5173 wants you to sign in with your Ethereum account:')
  expect(
    await verifyMessage({
      address: evm,
      message: signed?.message ?? '',
      signature: signed?.signature as Hex,
    }),
  ).toBe(true)
  expect((await apiSessions(signed?.address ?? '')).map((item) => item.id)).toContain(signed?.id)
  // What anyone can read back is not a login: the backend checks the token.
  expect(JSON.stringify(await apiSessions(signed?.address ?? ''))).not.toContain(signed?.signature)
  expect(await verify(signed?.token)).toEqual({ status: 200, id: signed?.id })
  expect((await verify('x'.repeat(43))).status).toBe(401)
  expect(
    await page.evaluate(() => (window as unknown as { sessionChanges: unknown[] }).sessionChanges),
  ).toEqual([signed?.address])
})

for (const [name, wallet, network, words] of [
  ['Solana', 'Airlock Test Solana', solanaDevnet, 'Solana account'],
  ['Bitcoin', 'Airlock Test Bitcoin', regtest, 'Bitcoin account'],
] as const) {
  test(`${name}: signing in on connect opens a CAIP-122 session`, async ({ page, modal }) => {
    await page.goto(`/module.html?siwx=optional&networks=${network}`)
    await connect(page, modal, wallet)
    await modal.getByRole('button', { name: 'Sign', exact: true }).click()
    await expect(modal.getByRole('dialog')).toBeHidden()
    const signed = await session(page)
    expect(signed?.chainId).toBe(network)
    expect(signed?.message).toContain(`localhost:5173 wants you to sign in with your ${words}:`)
    expect((await apiSessions(signed?.address ?? '')).map((item) => item.id)).toContain(signed?.id)
  })
}

test('the view previews the message before signing, and Sign has the focus', async ({ page, modal }) => {
  await page.goto('/module.html?siwx=optional')
  await connect(page, modal, 'Airlock Test Wallet')
  const sign = modal.getByRole('button', { name: 'Sign', exact: true })
  await expect(sign).toBeFocused()
  const preview = modal.getByRole('region', { name: 'The message you sign' })
  const evm = addresses.evm?.address as Hex
  await expect(preview.getByTestId('signin-domain')).toHaveText('localhost:5173')
  await expect(preview.getByTestId('signin-chain')).toHaveText(/^.+ \(eip155:31337\)$/)
  const address = preview.getByTestId('signin-address')
  await expect(address).toHaveAttribute('title', evm)
  // Shortened on screen (the full one is there for screen readers only) …
  const short = address.locator('.signin-address-short')
  const full = address.locator('.signin-address-full')
  await expect(short).toHaveText(`${evm.slice(0, 6)}…${evm.slice(-4)}`)
  await expect(short).toBeVisible()
  expect((await full.boundingBox())?.width).toBeLessThanOrEqual(1)
  await expect(full).toHaveText(evm)
  // … and in full once focused, as by Tab, over the preview: the card does not move for it.
  const height = (await preview.boundingBox())?.height
  await address.focus()
  await expect.poll(async () => (await full.boundingBox())?.width ?? 0).toBeGreaterThan(100)
  await expect(full).toBeVisible()
  expect((await preview.boundingBox())?.height).toBe(height)
  await expect(preview.getByTestId('signin-issued')).toContainText('now')
  await expect(preview.getByTestId('signin-expires')).toContainText(/tomorrow|in 1 day/)
  expect(await axeViolations(page)).toEqual([])
  // What the wallet signs is what the preview said.
  await sign.click()
  await expect(modal.getByRole('dialog')).toBeHidden()
  const message = Siwx.parse((await session(page))?.message ?? '')
  expect(message).toMatchObject({ domain: 'localhost:5173', chainId: 'eip155:31337', accountAddress: evm })
})

test("a declined signature says 'Signature declined' once; Sign again works", async ({ page, modal }) => {
  await page.goto('/module.html?siwx=optional')
  await connect(page, modal, 'Airlock Test Wallet')
  await setWalletMode(page, 'reject')
  await modal.getByRole('button', { name: 'Sign', exact: true }).click()
  await expect(modal.getByRole('alert')).toHaveText(['Signature declined'])
  await expect(modal.getByText('Signature declined')).toHaveCount(1)
  await expect(modal.getByText('Waiting for your signature…')).toHaveCount(0)
  await expect(modal.getByRole('heading', { name: 'Sign In' })).toBeVisible()
  expect(await session(page)).toBeUndefined()
  await setWalletMode(page, 'approve')
  await modal.getByRole('button', { name: 'Sign', exact: true }).click()
  await expect(modal.getByRole('dialog')).toBeHidden()
  expect((await session(page))?.address).toMatch(/^eip155:31337:0x/)
})

test('required sign-in: the view cannot be closed, and leaving it disconnects', async ({ page, modal }) => {
  await page.goto('/module.html?siwx=required')
  await connect(page, modal, 'Airlock Test Wallet')
  await expect(modal.getByRole('button', { name: 'Close' })).toHaveCount(0)
  await page.keyboard.press('Escape')
  await page.evaluate(() => window.airlock?.close())
  await expect(modal.getByRole('heading', { name: 'Sign In' })).toBeVisible()
  await modal.getByRole('button', { name: 'Disconnect' }).click()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
  await expect(modal.getByRole('heading', { name: 'Connect Wallet' })).toBeVisible()
  expect(await session(page)).toBeUndefined()
})

test('a reload keeps the session; revoking it at the API asks for a new sign-in', async ({ page, modal }) => {
  await page.goto('/module.html?siwx=optional')
  await connect(page, modal, 'Airlock Test Wallet')
  await modal.getByRole('button', { name: 'Sign', exact: true }).click()
  await expect(modal.getByRole('dialog')).toBeHidden()
  const signed = await session(page)

  await page.reload()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
  await expect.poll(() => session(page).then((s) => s?.id)).toBe(signed?.id)
  await expect(modal.getByRole('dialog')).toBeHidden()

  // The account revokes its session at the API, signing the revocation text with its own key.
  const owner = privateKeyToAccount(ANVIL_ACCOUNT_0_PRIVATE_KEY)
  const revoked = await fetch(
    `${api}/v1/sessions/${encodeURIComponent(signed?.address ?? '')}/revoke?projectId=demo`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        pci: signed?.id,
        signature: await owner.signMessage({ message: Siwx.revokeMessage(signed?.id ?? '') }),
      }),
    },
  )
  expect(await revoked.json()).toEqual({ success: true })
  expect((await verify(signed?.token)).status).toBe(401)

  await page.reload()
  await expect(modal.getByRole('heading', { name: 'Sign In' })).toBeVisible()
  expect(await session(page)).toBeUndefined()
  await modal.getByRole('button', { name: 'Sign', exact: true }).click()
  await expect(modal.getByRole('dialog')).toBeHidden()
  // A new session of the same account, signed again and live at the API: not the revoked one, nor none.
  const renewed = await session(page)
  expect(renewed).toMatchObject({ address: signed?.address, chainId: 'eip155:31337' })
  expect(renewed?.id).toEqual(expect.any(String))
  expect(renewed?.id).not.toBe(signed?.id)
  expect(renewed?.message).not.toBe(signed?.message)
  expect(
    await verifyMessage({
      address: owner.address,
      message: renewed?.message ?? '',
      signature: renewed?.signature as Hex,
    }),
  ).toBe(true)
  expect(await verify(renewed?.token)).toEqual({ status: 200, id: renewed?.id })
})

test('siweConfig signs in EVM accounts only, on ConnectingSiwe', async ({ page, modal }) => {
  await page.goto(`/module.html?siwx=siwe&networks=eip155:31337,${solanaDevnet}`)
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Airlock Test Solana' }).click()
  await expect(modal.getByTestId('account-address')).toBeVisible()
  expect(await page.evaluate(() => window.airlock?.getState().view)).toBe('Account')
  await page.evaluate(() => window.airlock?.open({ view: 'Connect' }))
  await modal.getByRole('button', { name: 'Airlock Test Wallet' }).click()
  await expect(modal.getByRole('heading', { name: 'Sign In' })).toBeVisible()
  expect(await page.evaluate(() => window.airlock?.getState().view)).toBe('ConnectingSiwe')
})
