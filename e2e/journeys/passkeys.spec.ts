/**
 * Passkeys in Debian's Chromium with its defaults, through the DevTools protocol's virtual authenticator
 * (`WebAuthn.addVirtualAuthenticator`: CTAP 2.1, resident keys, user verification, PRF), on the dev stack's
 * modal origin `http://airlock.localhost:5174`, a name WebAuthn takes, framed by the demo dApp on
 * `http://localhost:5173`, another site.
 *
 * What Chromium's virtual authenticator cannot do, said where it matters: a credential exported with
 * `WebAuthn.getCredentials` and added to another authenticator with `WebAuthn.addCredential` keeps its key
 * but not its hmac-secret (Chromium keeps that apart, and the protocol has no field for it), so there it signs
 * but gives no PRF output. A "new browser" that must unlock with the PRF is therefore this tab after
 * everything of the modal origin is cleared, its authenticator being the visitor's passkey; another browser
 * context, which has no such passkey, shows that nothing else opens the wallet.
 */
import type { BrowserContext, CDPSession, FrameLocator, Page } from '@playwright/test'
import type { Address } from 'viem'
import { askCode, mailCode } from './emailFixtures.ts'
import { expect, modalOrigin, request, test } from './fixtures.ts'
import { serveDapp } from './servers.ts'

const networks = 'eip155:31337'
// The key's own address: the same wallet shows the same address, whatever account type the default is.
const page$ = `/module.html?networks=${networks}&accountType=eoa`
const apiUrl = 'http://127.0.0.1:8787'

type Credential = { credentialId: string; rpId?: string; privateKey: string; signCount: number }

/** A platform authenticator with resident keys, user verification and PRF, on `page`'s tab. */
async function authenticator(context: BrowserContext, page: Page) {
  const cdp: CDPSession = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf: true,
      automaticPresenceSimulation: true,
    },
  })
  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as Credential[]
  return { cdp, authenticatorId, credentials }
}

/** Logs in by email from Connect, as a visitor types it. */
async function emailLogin(page: Page, modal: FrameLocator, email: string) {
  const asked = new Date()
  await page.evaluate(() => window.airlock?.open())
  // The same address logs in from several browsers here, each within 30 s of the last.
  await askCode(page, modal, email)
  await modal.getByLabel('Code').pressSequentially(await mailCode(email, { after: asked }))
}

async function account(page: Page): Promise<Address | undefined> {
  return ((await request(page, 'eth_accounts')).result as Address[] | undefined)?.[0]
}

async function connected(page: Page, modal: FrameLocator) {
  // The frame keeps nothing past the page load here; the visitor leaves the offer to keep the login.
  await modal.getByRole('button', { name: 'Not now' }).click()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
}

/** Everything the modal origin keeps in this browser context, as if it were another browser. */
async function forgetModalOrigin(cdp: CDPSession) {
  await cdp.send('Storage.clearDataForOrigin', { origin: modalOrigin, storageTypes: 'all' })
}

test('an email login creates a wallet a passkey protects; the passkey alone opens it again, and a browser without it cannot', async ({
  page,
  modal,
  browser,
  context,
}) => {
  test.setTimeout(180_000)
  const passkey = await authenticator(context, page)
  await page.goto(page$)
  const email = `passkey-${Date.now()}@example.test`
  await emailLogin(page, modal, email)
  await expect(modal.getByText('neither Airlock nor anyone who reads your email can open it')).toBeVisible()
  // The frame was delegated publickey-credentials-create by the host SDK: the ceremony runs in place.
  await modal.getByRole('button', { name: 'Protect with a passkey' }).click()
  await connected(page, modal)
  const address = await account(page)
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  const [credential, ...more] = await passkey.credentials()
  expect(more).toEqual([])
  expect(credential).toMatchObject({ rpId: 'airlock.localhost', isResidentCredential: true })

  // Another browser with no passkey: the email login reaches the wallet's lock, and nothing else opens it.
  const other = await browser.newContext({ baseURL: 'http://localhost:5173' })
  try {
    const elsewhere = await other.newPage()
    const lock = elsewhere.frameLocator('iframe[title="Airlock"]')
    await authenticator(other, elsewhere)
    await elsewhere.goto(page$)
    await emailLogin(elsewhere, lock, email)
    await expect(lock.getByText('Use the passkey that protects it.')).toBeVisible()
    // No password to guess, either: the passkey is the only way in.
    await expect(lock.getByLabel('Recovery password')).toHaveCount(0)
    await lock.getByRole('button', { name: 'Unlock with passkey' }).click()
    await expect(lock.getByText('The passkey was not used. Try again.')).toBeVisible()
    expect(await elsewhere.evaluate(() => window.airlock?.getState().status)).not.toBe('connected')
    expect(await account(elsewhere)).toBeUndefined()
  } finally {
    await other.close()
  }

  // A new browser, with the visitor's passkey: nothing of the modal origin kept, an email login, the passkey.
  const cdp = await context.newCDPSession(page)
  await forgetModalOrigin(cdp)
  await page.goto(page$)
  await emailLogin(page, modal, email)
  await modal.getByRole('button', { name: 'Unlock with passkey' }).click()
  await connected(page, modal)
  expect(await account(page)).toBe(address)

  // Sign in with the passkey alone, no email: the API checks the assertion, its PRF output opens the wallet.
  await forgetModalOrigin(cdp)
  await page.goto(page$)
  const assertion = page.waitForRequest((sent) => sent.url().includes('/v1/auth/passkey/login?'))
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await connected(page, modal)
  expect(await account(page)).toBe(address)
  const sent = (await assertion).postData() ?? ''
  // What reached the API is the assertion alone: no PRF output travels.
  expect(JSON.parse(sent)).not.toHaveProperty('response.clientExtensionResults')
  expect(sent).not.toMatch(/prf|results/i)

  // The same assertion again is refused: its challenge was used.
  const replayed = await fetch(`${apiUrl}/v1/auth/passkey/login?projectId=demo`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: modalOrigin },
    body: sent,
  })
  expect([replayed.status, await replayed.json()]).toEqual([
    401,
    { message: 'This passkey request expired or was already used' },
  ])
  // A page of another origin may not use the modal origin's passkeys at all: the browser refuses the RP ID.
  const foreign = await page.evaluate(async () => {
    try {
      await navigator.credentials.get({
        publicKey: { challenge: new Uint8Array(32), rpId: 'airlock.localhost', userVerification: 'required' },
      })
      return 'signed'
    } catch (error) {
      return (error as Error).name
    }
  })
  expect(foreign).toBe('SecurityError')
})

test('where the page does not delegate passkeys to the frame, they run in a window of the modal origin', async ({
  page,
  modal,
  context,
}) => {
  test.setTimeout(180_000)
  // The page's own Permissions Policy refuses WebAuthn to every frame: the host's delegation counts for nothing.
  const dapp = await serveDapp('localhost', 'demo', {
    'Permissions-Policy': 'publickey-credentials-get=(), publickey-credentials-create=()',
  })
  try {
    await page.goto(`${dapp.origin}/module.html?networks=${networks}&accountType=eoa`)
    await emailLogin(page, modal, `window-${Date.now()}@example.test`)
    // The window's own authenticator; what it creates is caught as it is added, before the window closes.
    const opened = context.waitForEvent('page')
    await modal.getByRole('button', { name: 'Protect with a passkey' }).click()
    const window1 = await opened
    expect(new URL(window1.url()).origin).toBe(modalOrigin)
    const first = await authenticator(context, window1)
    const added = new Promise<Credential>((resolve) =>
      first.cdp.on('WebAuthn.credentialAdded', (event: { credential: Credential }) =>
        resolve(event.credential),
      ),
    )
    await window1.getByRole('button', { name: 'Continue with passkey' }).click()
    const credential = await added
    await connected(page, modal)
    const address = await account(page)
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)

    // Signed out, this page load still holds this browser's share; signing in with the passkey in a window
    // (its assertion checked by the API) opens the same wallet.
    await page.evaluate(() => window.airlock?.disconnect())
    await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
    await page.evaluate(() => window.airlock?.open())
    const next = context.waitForEvent('page')
    await modal.getByRole('button', { name: 'Sign in with a passkey' }).click()
    const window2 = await next
    const second = await authenticator(context, window2)
    await second.cdp.send('WebAuthn.addCredential', {
      authenticatorId: second.authenticatorId,
      credential: { ...credential, isResidentCredential: true },
    })
    await window2.getByRole('button', { name: 'Continue with passkey' }).click()
    await connected(page, modal)
    expect(await account(page)).toBe(address)
  } finally {
    await dapp.close()
  }
})
