/**
 * The embedded wallet, end to end on two origins: an email login (the code read from the stack's mail
 * catcher) opens a wallet whose key is split between the modal origin, the API and a recovery password; a
 * dApp then asks it for signatures and transfers through its ordinary providers, the visitor approves each in
 * ApproveTransaction, and the chains say what happened. A reload keeps the login; another browser recovers the
 * same wallet with the password.
 */
import { createPublicKey, verify } from 'node:crypto'
import { Accounts, Farcaster } from '@airlock/devnet'
import { solanaDevnetId } from '@airlock/devnet/chains'
import type { Browser, FrameLocator, Page } from '@playwright/test'
import { Connection, Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { type Address, type Hex, parseEther, toHex, verifyMessage } from 'viem'
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { askCode, mailCode } from './emailFixtures.ts'
import { axeViolations, clients, expect, modalOrigin, request, rpc, tabTo, test } from './fixtures.ts'

const networks = ['eip155:31337', solanaDevnetId].join(',')
// The plain key's journeys (its address is the recovery phrase's): the smart accounts built on it, the
// default, have theirs in smart-accounts.spec.ts.
const page$ = `/module.html?networks=${networks}&accountType=eoa`
const password = 'a long recovery phrase'
const solanaRpc = 'http://127.0.0.1:8899'

/** Logs in by email from Connect, as a visitor types it, and waits for the recovery step or the connection. */
async function emailLogin(page: Page, modal: FrameLocator, email: string) {
  const asked = new Date()
  await page.evaluate(() => window.airlock?.open())
  await modal.getByLabel('Email', { exact: true }).fill(email)
  await modal.getByRole('button', { name: 'Continue with email' }).click()
  // Typed as a visitor types it: the sixth digit sends it.
  await modal.getByLabel('Code').pressSequentially(await mailCode(email, { after: asked }))
}

/** Creates the wallet with a recovery password: this browser has no passkey (passkeys.spec.ts has those). */
async function choosePassword(modal: FrameLocator, keep = false) {
  await modal.getByRole('button', { name: 'Use a recovery password instead' }).click()
  await modal.getByLabel('Recovery password', { exact: true }).fill(password)
  await modal.getByLabel('Repeat the recovery password').fill(password)
  await modal.getByRole('button', { name: 'Create wallet' }).click()
  await stay(modal, keep)
}

/**
 * Chromium with its defaults gives a third-party frame no storage that outlives the page: the modal offers a
 * window of its own origin to keep the login, which the visitor takes or leaves.
 */
async function stay(modal: FrameLocator, keep: boolean) {
  await modal.getByRole('button', { name: keep ? 'Keep me signed in' : 'Not now' }).click()
}

async function connected(page: Page) {
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('connected')
}

async function approve(modal: FrameLocator) {
  await modal.getByRole('button', { name: 'Approve' }).click()
}

/**
 * In a page of the modal origin: the wrapping key from its IndexedDB (`core/Wrapping.ts`), exported; resolves
 * with the error's name where WebCrypto refuses.
 */
async function exportWrappingKey(): Promise<string> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const opening = indexedDB.open('airlock-secrets')
    opening.onsuccess = () => resolve(opening.result)
    opening.onerror = () => reject(opening.error)
  })
  const key = await new Promise<CryptoKey>((resolve, reject) => {
    const reading = db.transaction('keys').objectStore('keys').get('wrap/v1')
    reading.onsuccess = () => resolve(reading.result as CryptoKey)
    reading.onerror = () => reject(reading.error)
  })
  return crypto.subtle.exportKey('raw', key).then(
    () => 'exported',
    (error: Error) => error.name,
  )
}

async function freshContext(browser: Browser) {
  const context = await browser.newContext({ baseURL: 'http://localhost:5173' })
  const page = await context.newPage()
  return { context, page, modal: page.frameLocator('iframe[title="Airlock"]') }
}

test('an email login opens a wallet: a signature and an ETH transfer through ApproveTransaction, on chain; a reload keeps it, another browser recovers it', async ({
  page,
  modal,
  browser,
}) => {
  test.setTimeout(120_000)
  await page.goto(page$)
  const email = `embedded-${Date.now()}@example.test`
  // By keyboard, as a visitor without a mouse goes: Tab to the field, type, Enter; each view passes axe.
  const asked = new Date()
  await page.evaluate(() => window.airlock?.open())
  await tabTo(page, modal.getByLabel('Email', { exact: true }))
  await page.keyboard.type(email)
  await page.keyboard.press('Enter')
  const code = modal.getByLabel('Code')
  await expect(code).toBeFocused()
  expect(await axeViolations(page)).toEqual([])
  await page.keyboard.type(await mailCode(email, { after: asked }))
  await expect(modal.getByRole('button', { name: 'Protect with a passkey' })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  await choosePassword(modal, true)
  await connected(page)
  const accounts = await request(page, 'eth_accounts')
  const address = (accounts.result as Address[])[0] as Address
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)

  // personal_sign waits for the visitor, and the signature is the wallet's.
  const signing = request(page, 'personal_sign', [toHex('Hello from the dApp'), address])
  await expect(modal.getByText('Hello from the dApp')).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  // Closing is blocked while a request waits for the visitor (docs/behaviour.md): Escape leaves it showing.
  await page.keyboard.press('Escape')
  await expect(modal.getByText('Hello from the dApp')).toBeVisible()
  await approve(modal)
  const signature = (await signing).result as Hex
  expect(await verifyMessage({ address, message: 'Hello from the dApp', signature })).toBe(true)

  // A refusal is EIP-1193's 4001, and nothing is signed.
  const refused = request(page, 'personal_sign', [toHex('Not this one'), address])
  await tabTo(page, modal.getByRole('button', { name: 'Reject' }))
  await page.keyboard.press('Enter')
  expect((await refused).error?.code).toBe(4001)

  // An ETH transfer the wallet completes (nonce, gas, fees), signs and sends: the chain has it.
  await rpc('http://127.0.0.1:8545', 'anvil_setBalance', [address, toHex(parseEther('1'))])
  const to = privateKeyToAccount(generatePrivateKey()).address
  const sending = request(page, 'eth_sendTransaction', [
    { from: address, to, value: toHex(parseEther('0.25')) },
  ])
  await expect(modal.getByText(to, { exact: false }).first()).toBeVisible()
  // The node's simulation, before the visitor decides: what leaves the wallet.
  await expect(modal.getByText('−0.25 ETH')).toBeVisible()
  await approve(modal)
  const hash = (await sending).result as Hex
  const receipt = await clients.a.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())
  expect(await clients.a.getBalance({ address: to })).toBe(parseEther('0.25'))
  const fee = receipt.gasUsed * receipt.effectiveGasPrice
  expect(await clients.a.getBalance({ address })).toBe(parseEther('0.75') - fee)

  // A method no wallet should run here: the product's words (docs/behaviour.md §8), and 4200.
  const disallowed = await request(page, 'debug_traceTransaction', [hash])
  expect(disallowed.error?.code).toBe(4200)
  await expect(modal.getByText('Action not allowed')).toBeVisible()

  // After a reload, the window that kept the login hands it back in one click: no code, no password.
  await page.reload()
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Continue with your saved login' }).click()
  await connected(page)
  expect((await request(page, 'eth_accounts')).result).toEqual([address])

  // What the window keeps is ciphertext: a script that copies the modal origin's localStorage gets neither the
  // session (its token, its email) nor the share, and the key it is wrapped under cannot be exported.
  const origin = await page.context().newPage()
  try {
    await origin.goto(`${modalOrigin}/approve.html`)
    const kept = await origin.evaluate(() =>
      Object.entries(localStorage).filter(([name]) => name.startsWith('airlock-kept:embedded ')),
    )
    expect(kept.map(([name]) => name.split(':').at(-1)).sort()).toEqual(['session', 'share'])
    for (const [, value] of kept) expect(value).toMatch(/^w1:[A-Za-z0-9+/]+=*$/)
    expect(JSON.stringify(kept)).not.toContain(email)
    expect(await origin.evaluate(exportWrappingKey)).toBe('InvalidAccessError')
  } finally {
    await origin.close()
  }

  // Another browser: the same email, then the recovery password, gives the same wallet.
  const other = await freshContext(browser)
  try {
    await other.page.goto(page$)
    const asked = new Date()
    await other.page.evaluate(() => window.airlock?.open())
    // The first browser's code went out moments ago: the product's throttle (docs/behaviour.md §5), in its words, until 30 s have passed.
    await askCode(other.page, other.modal, email)
    await other.modal.getByLabel('Code').pressSequentially(await mailCode(email, { after: asked }))
    await other.modal.getByLabel('Recovery password').fill('not the password at all')
    await other.modal.getByRole('button', { name: 'Unlock wallet' }).click()
    await expect(other.modal.getByText('This recovery password does not open the wallet.')).toBeVisible()
    await other.modal.getByLabel('Recovery password').fill(password)
    await other.modal.getByRole('button', { name: 'Unlock wallet' }).click()
    await stay(other.modal, false)
    await connected(other.page)
    expect((await request(other.page, 'eth_accounts')).result).toEqual([address])
  } finally {
    await other.context.close()
  }
})

test('the same wallet signs on Solana: a message and a transfer the chain confirms; its recovery phrase rebuilds it; its email changes with a code from each address; a browser forgotten asks for the password again', async ({
  page,
  modal,
}) => {
  test.setTimeout(120_000)
  await page.goto(page$)
  const email = `solana-${Date.now()}@example.test`
  await emailLogin(page, modal, email)
  await choosePassword(modal)
  await connected(page)

  const connect = page.evaluate(async () => {
    const wallet = window.airlock?.providers.solana
    const feature = wallet?.features['standard:connect'] as {
      connect(): Promise<{ accounts: { address: string; publicKey: Uint8Array }[] }>
    }
    const { accounts } = await feature.connect()
    return { address: accounts[0]?.address ?? '', publicKey: [...(accounts[0]?.publicKey ?? [])] }
  })
  const { address, publicKey } = await connect
  expect(new PublicKey(address).toBytes()).toEqual(Uint8Array.from(publicKey))

  const message = 'Sign in to the dApp'
  const signing = page.evaluate(async (text) => {
    const wallet = window.airlock?.providers.solana
    const feature = wallet?.features['solana:signMessage'] as {
      signMessage(input: { account: unknown; message: Uint8Array }): Promise<{ signature: Uint8Array }[]>
    }
    const [signed] = await feature.signMessage({
      account: wallet?.accounts[0],
      message: new TextEncoder().encode(text),
    })
    return [...(signed?.signature ?? [])]
  }, message)
  await expect(modal.getByText(message)).toBeVisible()
  await approve(modal)
  const signature = Uint8Array.from(await signing)
  // Ed25519 over the exact bytes, checked with Node's own crypto and the account's public key.
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicKey)])
  const key = createPublicKey({ key: spki, format: 'der', type: 'spki' })
  expect(verify(null, Buffer.from(message), key, Buffer.from(signature))).toBe(true)

  // A transfer signed and sent by the wallet: the chain confirms it and the receiver holds the lamports.
  const connection = new Connection(solanaRpc, 'confirmed')
  const funded = await connection.requestAirdrop(new PublicKey(address), 2_000_000_000)
  await connection.confirmTransaction(funded, 'confirmed')
  const to = Keypair.generate().publicKey
  const { blockhash } = await connection.getLatestBlockhash()
  const transfer = new Transaction({ feePayer: new PublicKey(address), recentBlockhash: blockhash }).add(
    SystemProgram.transfer({ fromPubkey: new PublicKey(address), toPubkey: to, lamports: 500_000_000 }),
  )
  const wire = transfer.serialize({ requireAllSignatures: false })
  const sending = page.evaluate(
    async (bytes) => {
      const wallet = window.airlock?.providers.solana
      const feature = wallet?.features['solana:signAndSendTransaction'] as {
        signAndSendTransaction(input: {
          account: unknown
          transaction: Uint8Array
          chain: string
        }): Promise<{ signature: Uint8Array }[]>
      }
      const [sent] = await feature.signAndSendTransaction({
        account: wallet?.accounts[0],
        transaction: new Uint8Array(bytes),
        chain: wallet?.chains[0] ?? '',
      })
      return [...(sent?.signature ?? [])]
    },
    [...wire],
  )
  await approve(modal)
  const sent = Uint8Array.from(await sending)
  expect(sent).toHaveLength(64)
  await expect.poll(() => connection.getBalance(to, 'confirmed')).toBe(500_000_000)

  // The wallet's own page: the recovery phrase, behind the password, rebuilds the same EVM account in viem.
  const evm = ((await request(page, 'eth_accounts')).result as Address[])[0]
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: `Airlock wallet: ${email}` }).click()
  await expect(modal.getByTestId('embedded-user')).toHaveText(`Logged in as ${email}.`)
  // Only once the visitor read the warnings and says so. (The page also offers the move to a passkey, with a
  // password field of its own: the phrase's is the one in its section.)
  const phraseSection = modal.getByRole('region', { name: 'Recovery phrase' })
  await expect(phraseSection.getByRole('button', { name: 'Show recovery phrase' })).toBeDisabled()
  await phraseSection.getByLabel('I understand: whoever has these words has my wallet.').check()
  await phraseSection.getByLabel('Recovery password').fill('not the password at all')
  await phraseSection.getByRole('button', { name: 'Show recovery phrase' }).click()
  await expect(phraseSection.getByText('This recovery password does not open the wallet.')).toBeVisible()
  await phraseSection.getByLabel('Recovery password').fill(password)
  await phraseSection.getByRole('button', { name: 'Show recovery phrase' }).click()
  const phrase = modal.getByRole('list', { name: 'Your recovery phrase' }).getByRole('listitem')
  await expect(phrase).toHaveCount(24)
  const words = await phrase.allInnerTexts()
  expect(mnemonicToAccount(words.join(' ')).address).toBe(evm)
  expect(await axeViolations(page)).toEqual([])

  // Changing the email, the product's way (docs/behaviour.md §4): a code to the current address, then one to the new; the login follows.
  const renamed = email.replace('@', '-new@')
  await modal.getByRole('button', { name: 'Change email' }).click()
  let mailed = new Date()
  await modal.getByLabel('New email').fill(renamed)
  await modal.getByRole('button', { name: 'Send code' }).click()
  await modal
    .getByLabel(`Enter the code sent to your current address, ${email}.`)
    .fill(await mailCode(email, { after: mailed }))
  mailed = new Date()
  await modal.getByRole('button', { name: 'Confirm' }).click()
  await modal
    .getByLabel(`Enter the code sent to ${renamed}.`)
    .fill(await mailCode(renamed, { after: mailed }))
  await modal.getByRole('button', { name: 'Confirm' }).click()
  await expect(modal.getByTestId('email-changed')).toHaveText(`Your email is now ${renamed}.`)
  await expect(modal.getByTestId('embedded-user')).toHaveText(`Logged in as ${renamed}.`)
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().user?.email)).toBe(renamed)

  // Signing out and forgetting this browser, once confirmed: the next login here asks for the password again.
  await modal.getByRole('button', { name: 'Sign out and forget this browser' }).click()
  await modal.getByRole('button', { name: 'Forget it' }).click()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
  const asked = new Date()
  await page.evaluate(() => window.airlock?.open())
  await askCode(page, modal, renamed)
  await modal.getByLabel('Code').pressSequentially(await mailCode(renamed, { after: asked }))
  await modal.getByLabel('Recovery password').fill(password)
  await modal.getByRole('button', { name: 'Unlock wallet' }).click()
  await stay(modal, false)
  await connected(page)
  expect((await request(page, 'eth_accounts')).result).toEqual([evm])
})

/** Goes through the local OpenID provider's pages in the window the modal opened: log in as `login`, consent. */
async function providerLogin(popup: Page, login: string) {
  await popup.locator('input[name="login"]').fill(login)
  await popup.locator('input[name="password"]').fill('any')
  await popup.locator('button[type="submit"]').click()
  await popup.locator('button[type="submit"]').click()
}

/** Signs out, then logs in anew through `provider`'s window as `login` (the provider's own cookie dropped first, so it asks who logs in). */
async function socialLogin(page: Page, modal: FrameLocator, provider: string, login: string) {
  await modal.getByRole('button', { name: 'Disconnect all' }).click()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
  await page.context().clearCookies()
  await page.evaluate(() => window.airlock?.open())
  const [popup] = await Promise.all([
    page.context().waitForEvent('page'),
    modal.getByRole('button', { name: `Continue with ${provider}` }).click(),
  ])
  await providerLogin(popup, login)
  await choosePassword(modal)
  await connected(page)
}

test('social logins (Google, GitHub and Apple shapes) run the real redirect, consent and code exchange in a window of the modal origin, and reach the wallet of the same verified email', async ({
  page,
  modal,
}) => {
  // An email login and three providers' logins, each a window, a consent and a wallet made or opened (with
  // PBKDF2's 600,000 rounds for a new one): past the suite's two minutes on a busy machine.
  test.setTimeout(240_000)
  await page.goto(page$)
  const login = `ada-${Date.now()}`

  // An email login first, with the address Google will vouch for below.
  await emailLogin(page, modal, `${login}@google.test`)
  await choosePassword(modal)
  await connected(page)
  const address = ((await request(page, 'eth_accounts')).result as Address[])[0]
  expect(await page.evaluate(() => window.airlock?.getState().user)).toEqual({
    email: `${login}@google.test`,
    authProvider: 'email',
    preferredAccountType: 'eoa',
  })
  await modal.getByRole('button', { name: 'Disconnect all' }).click()
  await expect.poll(() => page.evaluate(() => window.airlock?.getState().status)).toBe('disconnected')
  expect(await page.evaluate(() => window.airlock?.getState().user)).toBeUndefined()

  // A window closed half-way opens nothing, says so, and offers to try again.
  await page.evaluate(() => window.airlock?.open())
  const [closedEarly] = await Promise.all([
    page.context().waitForEvent('page'),
    modal.getByRole('button', { name: 'Continue with Google' }).click(),
  ])
  await closedEarly.close()
  await expect(modal.getByText('The sign-in window was closed before the sign-in finished.')).toBeVisible()

  // Google's shape: the same verified email is the same person, so the same wallet, opened by this browser's share.
  const [popup] = await Promise.all([
    page.context().waitForEvent('page'),
    modal.getByRole('button', { name: 'Try again' }).click(),
  ])
  await providerLogin(popup, login)
  await stay(modal, false)
  await connected(page)
  expect((await request(page, 'eth_accounts')).result).toEqual([address])
  expect(await page.evaluate(() => window.airlock?.getState().user)).toEqual({
    email: `${login}@google.test`,
    authProvider: 'google',
    socialProvider: 'google',
    preferredAccountType: 'eoa',
  })

  // GitHub's shape: OAuth 2.0 and its user API, a handle besides the email; a new person, a new wallet.
  await socialLogin(page, modal, 'GitHub', `${login}-gh`)
  const other = ((await request(page, 'eth_accounts')).result as Address[])[0]
  expect(other).not.toBe(address)
  expect(await page.evaluate(() => window.airlock?.getState().user)).toEqual({
    email: `${login}-gh@github.test`,
    username: `${login}-gh`,
    authProvider: 'github',
    socialProvider: 'github',
    preferredAccountType: 'eoa',
  })

  // Apple's shape: the provider posts its answer back as a form (response_mode=form_post), in a real browser.
  await socialLogin(page, modal, 'Apple', `${login}-apple`)
  expect(await page.evaluate(() => window.airlock?.getState().user)).toEqual({
    email: `${login}-apple@apple.test`,
    authProvider: 'apple',
    socialProvider: 'apple',
    preferredAccountType: 'eoa',
  })
})

test('Sign In With Farcaster: the view shows the relay’s link, the visitor’s app signs with a key that owns its fid, and a wallet opens', async ({
  page,
  modal,
}) => {
  await page.goto(page$)
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Continue with Farcaster' }).click()
  const link = modal.getByTestId('farcaster-link')
  await expect(modal.getByTestId('farcaster-qr').getByRole('img')).toBeVisible()
  const url = (await link.getAttribute('href')) ?? ''
  expect(new URL(url).searchParams.get('siweUri')).toBe('http://airlock.localhost:5174')
  expect(await axeViolations(page)).toEqual([])

  // The visitor's Farcaster app: a custody key that owns its fid on the dev chain's IdRegistry signs the
  // Sign In With Farcaster message and completes the channel at the relay; the API checks both.
  const custody = privateKeyToAccount(generatePrivateKey())
  const fid = BigInt(Date.now())
  await Farcaster.IdRegistry.register({ rpcUrl: 'http://127.0.0.1:8545' }, custody.address, fid, {
    from: Accounts.all()[8]?.address,
  })
  const relay = { url: 'http://127.0.0.1:8796', authKey: Farcaster.devAuthKey }
  await Farcaster.Relay.signIn(relay, url, { custody, fid: Number(fid), username: 'ada-fc' })
  await choosePassword(modal)
  await connected(page)
  expect(await page.evaluate(() => window.airlock?.getState().user)).toEqual({
    username: 'ada-fc',
    authProvider: 'farcaster',
    preferredAccountType: 'eoa',
  })
  // The wallet's page names the visitor by their Farcaster name: there is no email to show or change.
  await page.evaluate(() => window.airlock?.open())
  await modal.getByRole('button', { name: 'Airlock wallet: ada-fc' }).click()
  await expect(modal.getByTestId('embedded-user')).toHaveText('Logged in as ada-fc with Farcaster.')
  await expect(modal.getByRole('button', { name: 'Change email' })).toHaveCount(0)
})
