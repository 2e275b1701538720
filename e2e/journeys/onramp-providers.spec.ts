/**
 * Buy through each real provider's protocol, as the dev stack's sandbox speaks it: MoonPay's signed widget
 * URL (here for SOL, delivered on the Solana dev chain) and Coinbase Onramp's session-token checkout (ETH on
 * anvil), each delivery asserted on its chain. Then what an attacker tries: a checkout URL changed after the
 * API signed it (another wallet, another amount, another network) is refused by the provider and pays
 * nothing, and a webhook not signed with the provider's secret completes nothing; the order stays open and
 * the honest checkout still pays.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { solanaDevnetId } from '@airlock/devnet/chains'
import type { FrameLocator, Page } from '@playwright/test'
import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { axeViolations, clients, connectWallet, expect, rpc } from './fixtures.ts'
import {
  cards,
  chooseProvider,
  connectFunded,
  deliveredOnA,
  openCheckout,
  orderOf,
  payWithCard,
  postWebhook,
  sandboxUrl,
  stage,
  test,
} from './onrampFixtures.ts'

const solanaRpc = 'http://127.0.0.1:8899'
const moonpay = 'MoonPay (sandbox)'
const coinbase = 'Coinbase (sandbox)'
/** The sandbox's refusals (devnet/src/onramp/Protocol.ts). */
const refusals = {
  badSignature: 'This checkout link is not valid: its signature does not match.',
  badSession: 'This checkout link is not valid: its session token is unknown, used or expired.',
}

type ParsedTransfer = { parsed?: { type?: string; info?: { destination?: string; lamports?: number } } }

/** What `address` holds on the Solana dev chain, in lamports. */
async function lamportsOf(address: string): Promise<bigint> {
  const { value } = await rpc<{ value: number }>(solanaRpc, 'getBalance', [
    address,
    { commitment: 'confirmed' },
  ])
  return BigInt(value)
}

/** Connects this test's EVM account (1 ETH) on the demo dApp and opens Buy, of ETH through `provider`. */
async function buyingOnEvm(tab: Page, modal: FrameLocator, account: Address, provider: string) {
  await connectFunded(tab, modal, account, { path: '/module.html?networks=eip155:31337' })
  await modal.getByRole('button', { name: 'Buy', exact: true }).click()
  await expect(modal.getByTestId('onramp-asset')).toHaveAttribute('data-value', 'ETH')
  await chooseProvider(modal, provider)
}

/** {@link buyingOnEvm} for `amount` USD, on to the checkout window it opens. */
async function checkoutOnEvm(
  tab: Page,
  modal: FrameLocator,
  account: Address,
  provider: string,
  amount: string,
) {
  await buyingOnEvm(tab, modal, account, provider)
  await modal.getByTestId('onramp-amount').fill(amount)
  return openCheckout(tab, modal)
}

/** Opens `url` in the checkout window and expects the provider's refusal, saying `text`, and no card form. */
async function refused(popup: Page, url: string, text: string) {
  const response = await popup.goto(url)
  expect(response?.status()).toBe(403)
  await expect(popup.getByRole('heading', { name: 'Checkout unavailable' })).toBeVisible()
  await expect(popup.getByRole('alert')).toHaveText(text)
  await expect(popup.getByLabel('Card number')).toHaveCount(0)
}

test('MoonPay: SOL bought with the signed widget URL arrives on the Solana dev chain, by the transfer the order names', async ({
  page: tab,
  modal,
  solanaAccount,
}) => {
  await tab.goto(`/module.html?networks=eip155:31337,${solanaDevnetId}`)
  await connectWallet(tab, modal, 'Airlock Test Solana', solanaAccount)
  await modal.getByRole('button', { name: 'Buy', exact: true }).click()
  await expect(modal.getByTestId('onramp-asset')).toHaveAttribute('data-value', 'SOL')
  await expect(modal.getByTestId('onramp-network')).toHaveAttribute('data-value', solanaDevnetId)
  await chooseProvider(modal, moonpay)
  await modal.getByRole('button', { name: '100 USD' }).click()
  await expect(modal.getByTestId('onramp-total')).toHaveText('100.00 USD')
  expect(await lamportsOf(solanaAccount)).toBe(0n)

  const popup = await openCheckout(tab, modal)
  // MoonPay's widget URL: the wallet and amount in the query, vouched for by the API's signature over it.
  const widget = new URL(popup.url())
  expect(widget.pathname).toBe('/')
  expect(widget.searchParams.get('walletAddress')).toBe(solanaAccount)
  expect(widget.searchParams.get('signature')).toBeTruthy()
  await payWithCard(popup, cards.succeeds)
  await expect(popup.getByRole('heading', { name: 'Payment complete' })).toBeVisible({ timeout: 30_000 })
  await stage(modal, 'arrived')
  expect(await axeViolations(tab)).toEqual([])

  // The chain's word: the order's transfer landed, from the provider to this account, and it is all it holds.
  const signature = (await modal.getByTestId('onramp-status').getAttribute('data-tx')) as string
  const order = await orderOf(widget.searchParams.get('externalTransactionId') ?? '')
  expect(order).toMatchObject({ status: 'completed', txHash: signature })
  const landed = await rpc<{
    meta: { err: unknown }
    transaction: { message: { instructions: ParsedTransfer[] } }
  }>(solanaRpc, 'getTransaction', [
    signature,
    { encoding: 'jsonParsed', commitment: 'confirmed', maxSupportedTransactionVersion: 0 },
  ])
  expect(landed.meta.err).toBeNull()
  const [transfer] = landed.transaction.message.instructions
  expect(transfer?.parsed?.type).toBe('transfer')
  expect(transfer?.parsed?.info?.destination).toBe(solanaAccount)
  const lamports = BigInt(transfer?.parsed?.info?.lamports ?? 0)
  expect(lamports).toBeGreaterThan(0n)
  expect(await lamportsOf(solanaAccount)).toBe(lamports)
  await expect(modal.getByTestId('onramp-stage')).toContainText('SOL is in your account.')
})

test('Coinbase: ETH bought through a session-token checkout arrives on anvil; the token opens one checkout only', async ({
  page: tab,
  modal,
  account,
}) => {
  await buyingOnEvm(tab, modal, account, coinbase)
  await modal.getByRole('button', { name: '100 USD' }).click()
  await expect(modal.getByTestId('onramp-total')).toHaveText('100.00 USD')
  const before = await clients.a.getBalance({ address: account })

  const popup = await openCheckout(tab, modal)
  // Coinbase's checkout URL carries a session token, never the wallet: the token binds it.
  const checkout = new URL(popup.url())
  expect(checkout.pathname).toBe('/buy/select-asset')
  expect(checkout.searchParams.get('sessionToken')).toBeTruthy()
  expect(checkout.search).not.toContain(account.slice(2))
  await payWithCard(popup, cards.succeeds)
  await expect(popup.getByRole('heading', { name: 'Payment complete' })).toBeVisible({ timeout: 30_000 })
  await stage(modal, 'arrived')

  const { hash } = await deliveredOnA(modal, account, before)
  expect(await orderOf(checkout.searchParams.get('partnerUserRef') ?? '')).toMatchObject({
    status: 'completed',
    txHash: hash,
  })

  // The same link again, spent: Coinbase's session tokens are single-use.
  await refused(popup, checkout.toString(), refusals.badSession)
})

test('a MoonPay checkout URL changed after signing (another wallet, another amount) is refused and pays nothing; the signed one still pays', async ({
  page: tab,
  modal,
  account,
}) => {
  const popup = await checkoutOnEvm(tab, modal, account, moonpay, '50')
  const signed = new URL(popup.url())
  const orderId = signed.searchParams.get('externalTransactionId') ?? ''
  const attacker = privateKeyToAccount(generatePrivateKey()).address
  const before = await clients.a.getBalance({ address: account })

  const tampered = (name: string, value: string) => {
    const url = new URL(signed)
    url.searchParams.set(name, value)
    return url
  }
  const elsewhere = tampered('walletAddress', attacker)
  await refused(popup, elsewhere.toString(), refusals.badSignature)
  await refused(popup, tampered('baseCurrencyAmount', '7500.00').toString(), refusals.badSignature)
  // Nor does the card form take it when posted straight to the provider.
  const posted = await popup.request.post(`${sandboxUrl}/buy/pay`, {
    form: {
      query: elsewhere.search,
      cardNumber: cards.succeeds,
      expiry: '12/34',
      cvc: '123',
      name: 'Mallory',
    },
  })
  expect(posted.status()).toBe(403)

  expect(await clients.a.getBalance({ address: attacker })).toBe(0n)
  expect(await clients.a.getBalance({ address: account })).toBe(before)
  expect((await orderOf(orderId)).status).toBe('pending')

  // The URL as the API signed it is untouched by all that: it pays, to this account.
  await popup.goto(signed.toString())
  await payWithCard(popup, cards.succeeds)
  await stage(modal, 'arrived')
  expect(await clients.a.getBalance({ address: account })).toBeGreaterThan(before)
  expect(await clients.a.getBalance({ address: attacker })).toBe(0n)
})

test('a Coinbase checkout asked for another network than its session token allows is refused and pays nothing', async ({
  page: tab,
  modal,
  account,
}) => {
  // The link is changed on its way to the provider, before the token was ever used.
  const checkoutPage = (url: URL) => url.origin === sandboxUrl && url.pathname === '/buy/select-asset'
  await tab.context().route(checkoutPage, (route) => {
    const url = new URL(route.request().url())
    url.searchParams.set('defaultNetwork', 'airlock-devnet-b')
    return route.continue({ url: url.toString() })
  })
  const before = await clients.b.getBalance({ address: account })
  const popup = await checkoutOnEvm(tab, modal, account, coinbase, '50')
  await expect(popup.getByRole('heading', { name: 'Checkout unavailable' })).toBeVisible()
  await expect(popup.getByRole('alert')).toHaveText(refusals.badSession)
  await expect(popup.getByLabel('Card number')).toHaveCount(0)
  await tab.context().unrouteAll()

  expect(await clients.b.getBalance({ address: account })).toBe(before)
  const orderId = new URL(popup.url()).searchParams.get('partnerUserRef') ?? ''
  expect((await orderOf(orderId)).status).toBe('pending')
})

test('a webhook not signed with the provider’s secret completes nothing: the order stays open, nothing arrives, and the real payment still does', async ({
  page: tab,
  modal,
  account,
}) => {
  const popup = await checkoutOnEvm(tab, modal, account, moonpay, '50')
  const orderId = new URL(popup.url()).searchParams.get('externalTransactionId') ?? ''
  await stage(modal, 'paying')
  const before = await clients.a.getBalance({ address: account })

  // What a forger sends: MoonPay's event shape saying the order was paid and delivered, signed with a key
  // of its own, under MoonPay's header.
  const nowS = Math.floor(Date.now() / 1000)
  const forged = JSON.stringify({
    type: 'transaction_updated',
    data: {
      id: `tx_${randomBytes(12).toString('hex')}`,
      externalTransactionId: orderId,
      status: 'completed',
      walletAddress: account,
      baseCurrencyAmount: 50,
      quoteCurrencyAmount: 1,
      cryptoTransactionId: `0x${'ab'.repeat(32)}`,
      failureReason: null,
      currency: { code: 'eth' },
      baseCurrency: { code: 'usd' },
    },
  })
  const wrongKey = randomBytes(24).toString('hex')
  const signature = createHmac('sha256', wrongKey).update(`${nowS}.${forged}`).digest('hex')
  const answer = await postWebhook('moonpay', forged, { 'Moonpay-Signature-V2': `t=${nowS},s=${signature}` })
  expect(answer.status).toBe(401)
  expect(await answer.json()).toEqual({ message: 'Invalid webhook signature' })
  // Unsigned: refused alike. And Coinbase's route refuses a Hook0 signature made with a key not its own.
  expect((await postWebhook('moonpay', forged, {})).status).toBe(401)
  const hook0 = createHmac('sha256', wrongKey)
    .update(`${nowS}.content-type x-hook0-id.application/json.x.${forged}`)
    .digest('hex')
  const coinbaseForged = await postWebhook('coinbase', forged, {
    'x-hook0-id': 'x',
    'x-hook0-signature': `t=${nowS},h=content-type x-hook0-id,v1=${hook0}`,
  })
  expect(coinbaseForged.status).toBe(401)

  expect((await orderOf(orderId)).status).toBe('pending')
  await stage(modal, 'paying')
  expect(await clients.a.getBalance({ address: account })).toBe(before)

  // The provider's own webhook, after a real payment, is the one that completes it.
  await payWithCard(popup, cards.succeeds)
  await stage(modal, 'arrived')
  const { hash } = await deliveredOnA(modal, account, before)
  expect(hash).not.toBe(`0x${'ab'.repeat(32)}`)
  expect(await orderOf(orderId)).toMatchObject({ status: 'completed', txHash: hash })
})
