import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { type Address, getAddress, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import * as Protocol from '../../../../devnet/src/onramp/Protocol.ts'
import {
  balanceOf,
  setDown,
  startChain,
  startSandbox,
  stranger,
  type TestChain,
  type TestSandbox,
} from '../../../../devnet/src/onramp/testing.ts'
import type * as Config from '../../Config.ts'
import * as Contract from '../../contract/index.ts'
import { calls, configOf, ether, shop } from '../../internal/testApi.ts'
import { databases } from '../../internal/testing.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import { onrampMessages } from './messages.ts'

const texts = Contract.onrampTexts

/**
 * docs/behaviour.md §8's fallback list, written out: compared with the code's own constant, the test would pass
 * whatever the list became. USDC and ETH on Ethereum and Polygon (each token's contract there), USD and EUR, card
 * 10.00–7500.00 and bank 10.00–25000.00, no provider.
 */
const limits = [
  { id: 'card', min: '10.00', max: '7500.00' },
  { id: 'bank', min: '10.00', max: '25000.00' },
]
const fallbackList = {
  paymentCurrencies: [
    { id: 'USD', limits },
    { id: 'EUR', limits },
  ],
  purchaseCurrencies: [
    {
      id: 'USDC',
      symbol: 'USDC',
      name: 'USD Coin',
      networks: [
        {
          chainId: 'eip155:1',
          name: 'Ethereum',
          contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        },
        {
          chainId: 'eip155:137',
          name: 'Polygon',
          contractAddress: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
        },
      ],
    },
    {
      id: 'ETH',
      symbol: 'ETH',
      name: 'Ethereum',
      networks: [
        { chainId: 'eip155:1', name: 'Ethereum', contractAddress: null },
        {
          chainId: 'eip155:137',
          name: 'Polygon',
          contractAddress: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619',
        },
      ],
    },
  ],
  providers: [],
  fallback: true,
}

let chain: TestChain
let sandbox: TestSandbox
let server: ReturnType<typeof serve>
let config: Config.Config
/** The app the HTTP server answers with (the sandbox's webhooks come through it): each database's own. */
let current: Service.App | undefined

beforeAll(async () => {
  server = serve({
    fetch: (request) => current?.fetch(request) ?? new Response(null, { status: 503 }),
    port: 0,
  })
  await new Promise<void>((resolve) => server.once('listening', resolve))
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  chain = await startChain()
  sandbox = await startSandbox(chain.chain, {
    moonpay: `${apiUrl}/v1/onramp/webhooks/sandbox`,
    coinbase: `${apiUrl}/v1/onramp/webhooks/coinbase`,
  })
  config = {
    ...configOf([
      { id: chain.chain.id, name: chain.chain.name, rpcUrl: chain.chain.rpcUrl, nativeCurrency: ether },
    ]),
    onramp: {
      providers: [
        {
          id: 'sandbox',
          name: 'Airlock Sandbox',
          // The sandbox's MoonPay, under an id of the deployment's choosing.
          kind: 'moonpay',
          apiUrl: sandbox.url,
          widgetUrl: sandbox.url,
          ...sandbox.credentials,
        },
      ],
    },
  }
})
afterAll(async () => {
  await sandbox?.stop()
  await chain?.stop()
  await new Promise((resolve) => server?.close(resolve))
})

/**
 * `address` written in mixed case with one letter's case flipped: EIP-55's checksum then fails, and the
 * address still has both cases, so it cannot pass as an unchecksummed (all lower or upper case) one.
 */
function badChecksum(address: Address): Address {
  for (;;) {
    const checksummed = getAddress(address)
    const at = checksummed.slice(2).search(/[a-fA-F]/) + 2
    const letter = checksummed.charAt(at)
    const flipped = letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase()
    const bad = `${checksummed.slice(0, at)}${flipped}${checksummed.slice(at + 1)}`
    if (at >= 2 && /[a-f]/.test(bad.slice(2)) && /[A-F]/.test(bad.slice(2))) return bad as Address
    address = stranger()
  }
}

/** Runs `work` with the sandbox answering 503 to everything. */
async function whileDown<T>(work: () => Promise<T>): Promise<T> {
  await setDown(sandbox.url, true)
  try {
    return await work()
  } finally {
    await setDown(sandbox.url, false)
  }
}

describe.each(databases())('on-ramp on $engine', ({ open }) => {
  const { get, json } = calls(() => {
    if (!current) throw new Error('no app')
    return current
  })
  const post = (path: string, body: unknown, projectId = 'demo') =>
    json(`${path}?projectId=${projectId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  const quote = (body: Record<string, string>) =>
    post('/v1/onramp/quote', {
      purchaseCurrency: 'ETH',
      paymentCurrency: 'USD',
      network: chain.chain.id,
      ...body,
    })
  const openOrder = (address: Address, extra: Record<string, unknown> = {}, projectId = 'demo') =>
    post(
      '/v1/generators/onrampurl',
      {
        destinationWallets: [{ address, blockchains: [chain.chain.id], assets: ['ETH'] }],
        partnerUserId: 'visitor-1',
        defaultExperience: 'buy',
        presetFiatAmount: '100.00',
        ...extra,
      },
      projectId,
    )
  const order = async (orderId: string, projectId = 'demo') =>
    json(`/v1/onramp/orders/${orderId}?projectId=${projectId}`)
  const webhook = (body: string, signature: string) =>
    get('/v1/onramp/webhooks/sandbox', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [Protocol.signatureHeader]: signature },
      body,
    })
  const signed = (body: string, t = Math.floor(Date.now() / 1000)) =>
    Protocol.signWebhook(sandbox.credentials.webhookSecret, body, t)
  /** A provider's completed event for `orderId`, as the sandbox sends it. */
  const completedEvent = (orderId: string, walletAddress: string, txHash = `0x${'ab'.repeat(32)}`) =>
    JSON.stringify({
      type: 'transaction_updated',
      data: {
        id: `tx_${orderId}`,
        externalTransactionId: orderId,
        status: 'completed',
        walletAddress,
        baseCurrencyAmount: 100,
        quoteCurrencyAmount: 0.03275,
        cryptoTransactionId: txHash,
        failureReason: null,
        currency: { code: 'eth' },
        baseCurrency: { code: 'usd' },
      },
    })

  /** The same database served by an API configured with no on-ramp provider. */
  let bare: Service.App

  beforeAll(async () => {
    const db = await open()
    await Projects.add(db, 'demo', [shop])
    await Projects.add(db, 'other', ['https://other.example'])
    current = Service.create({ db, config }).api
    bare = Service.create({ db, config: configOf() }).api
    return async () => {
      current = undefined
      await db.close()
    }
  })

  describe('options', () => {
    it('lists what the provider sells, its fiat limits and the provider', async () => {
      const { status, body } = await json('/v1/onramp/options?projectId=demo')
      expect(status).toBe(200)
      const options = body as Contract.OnrampOptionsAnswer
      expect(options.fallback).toBeUndefined()
      expect(options.providers).toEqual([{ id: 'sandbox', name: 'Airlock Sandbox' }])
      // MoonPay's codes, upper-cased: its symbols.
      expect(options.purchaseCurrencies.map((entry) => entry.id)).toEqual(['ETH', 'TUSD'])
      expect(options.purchaseCurrencies[1]?.networks).toEqual([
        { chainId: chain.chain.id, name: chain.chain.network, contractAddress: chain.tusd },
      ])
      expect(options.paymentCurrencies).toContainEqual({
        id: 'EUR',
        limits: [
          { id: 'card', min: '10.00', max: '7500.00' },
          { id: 'bank', min: '10.00', max: '25000.00' },
        ],
      })
    })

    it('answers docs/behaviour.md §8’s fallback list, marked so, while the provider is down', async () => {
      const { status, body } = await whileDown(() => json('/v1/onramp/options?projectId=demo'))
      expect(status).toBe(200)
      expect(body).toEqual(fallbackList)
      expect(body.fallback).toBe(true)
    })

    it('refuses a project that is not configured', async () => {
      expect((await json('/v1/onramp/options?projectId=nobody')).status).toBe(403)
    })
  })

  describe('quote', () => {
    it('quotes docs/behaviour.md §3’s shape with the provider’s 1.5 % fee', async () => {
      const { status, body } = await quote({ amount: '100.00' })
      expect(status).toBe(200)
      expect(body).toMatchObject({
        coinbaseFee: { amount: '1.50', currency: 'USD' },
        networkFee: { amount: '0.25', currency: 'USD' },
        paymentSubtotal: { amount: '98.25', currency: 'USD' },
        paymentTotal: { amount: '100.00', currency: 'USD' },
        // MoonPay writes amounts as JSON numbers.
        purchaseAmount: { amount: '0.03275', currency: 'ETH' },
        provider: 'sandbox',
      })
      expect(body.estimate).toBeUndefined()
      expect(body.quoteId).toMatch(/^sandbox_/)
      const fee = Number((body as Contract.OnrampQuoteAnswer).coinbaseFee.amount)
      expect(fee).toBeGreaterThanOrEqual(1)
      expect(fee).toBeLessThanOrEqual(2)
    })

    it('refuses amounts outside the payment method’s limits with the exact limit texts', async () => {
      expect((await quote({ amount: '9.99' })).body.message).toBe(texts.minimum('10.00', 'USD'))
      expect((await quote({ amount: '9.99' })).body.message).toBe('The minimum purchase is 10.00 USD')
      expect((await quote({ amount: '7500.01' })).body.message).toBe('The maximum purchase is 7500.00 USD')
      const bank = await quote({ amount: '25000.01', paymentMethod: 'bank', paymentCurrency: 'EUR' })
      expect(bank).toEqual({ status: 400, body: { message: 'The maximum purchase is 25000.00 EUR' } })
      expect((await quote({ amount: '20000.00', paymentMethod: 'bank' })).status).toBe(200)
    })

    it('refuses an asset the provider does not sell on the network, and a fiat it does not take', async () => {
      const elsewhere = await quote({ amount: '50.00', network: 'eip155:999' })
      expect(elsewhere).toEqual({
        status: 400,
        body: { message: texts.unsupportedPair('ETH', 'eip155:999') },
      })
      expect((await quote({ amount: '50.00', purchaseCurrency: 'DOGE' })).body.message).toBe(
        'DOGE cannot be bought on eip155:31337',
      )
      expect((await quote({ amount: '50.00', paymentCurrency: 'GBP' })).body.message).toBe(
        'Payments in GBP are not accepted',
      )
      expect((await quote({ amount: '50.00', provider: 'nobody' })).body.message).toBe(
        onrampMessages.unknownProvider('nobody'),
      )
      expect((await quote({ amount: 'lots' })).status).toBe(400)
    })

    it('answers docs/behaviour.md §8’s mocked quote, marked an estimate, while the provider is down; limits still hold', async () => {
      const { status, body } = await whileDown(() => quote({ amount: '100.00' }))
      expect(status).toBe(200)
      expect(body).toEqual(Contract.onrampMockedQuote('100.00', 'USD', 'sandbox'))
      expect(body.estimate).toBe(true)
      const tooLittle = await whileDown(() => quote({ amount: '5.00' }))
      expect(tooLittle.body.message).toBe('The minimum purchase is 10.00 USD')
    })
  })

  describe('checkout URL and order', () => {
    it('opens a pending order and signs a URL the sandbox accepts; a changed URL it refuses', async () => {
      const to = stranger()
      const { status, body } = await openOrder(to)
      expect(status).toBe(200)
      const { url, orderId } = body as Contract.OnrampUrlAnswer
      expect(new URL(url).origin).toBe(sandbox.url)
      expect(new URL(url).searchParams.get('externalTransactionId')).toBe(orderId)
      const page = await fetch(url)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('100.00 USD')
      expect((await fetch(url.replace('walletAddress=', 'walletAddress=0x0'))).status).toBe(403)
      const read = await order(orderId)
      expect(read.body).toMatchObject({
        orderId,
        status: 'pending',
        provider: 'sandbox',
        address: to,
        network: chain.chain.id,
        asset: 'ETH',
        paymentTotal: { amount: '100.00', currency: 'USD' },
      })
    })

    it('shows an order to its own project only', async () => {
      const { body } = await openOrder(stranger())
      const { orderId } = body as Contract.OnrampUrlAnswer
      expect(await order(orderId, 'other')).toEqual({
        status: 404,
        body: { message: onrampMessages.orderNotFound },
      })
      expect((await order('x'.repeat(32))).status).toBe(404)
    })

    it('refuses a bad destination, an unsupported pair, an amount past the limit, and a down provider', async () => {
      expect((await openOrder('0xnot-an-address' as Address)).status).toBe(400)
      const lowerCase = getAddress(stranger()).toLowerCase() as Address
      expect((await openOrder(lowerCase)).status).toBe(200)
      expect((await openOrder(badChecksum(stranger()))).status).toBe(400)
      expect((await openOrder(stranger(), { defaultAsset: 'DOGE' })).body.message).toBe(
        texts.unsupportedPair('DOGE', chain.chain.id),
      )
      expect((await openOrder(stranger(), { presetFiatAmount: '8000.00' })).body.message).toBe(
        'The maximum purchase is 7500.00 USD',
      )
      expect((await openOrder(stranger(), { destinationWallets: [] })).body.message).toBe(
        onrampMessages.noDestination,
      )
      const down = await whileDown(() => openOrder(stranger()))
      expect(down).toEqual({ status: 503, body: { message: onrampMessages.providerUnavailable } })
    })
  })

  describe('buying with the sandbox', () => {
    it('completes the order when the test card pays: tokens on chain, webhook applied, history shows it', async () => {
      const to = stranger()
      const { body } = await openOrder(to)
      const { url, orderId } = body as Contract.OnrampUrlAnswer
      const query = new URL(url).search
      const form = new URLSearchParams({
        query,
        cardNumber: Protocol.testCards.succeeds,
        expiry: '12/39',
        cvc: '123',
        name: 'Ada Buyer',
      })
      const paid = await fetch(`${sandbox.url}/buy/pay`, { method: 'POST', body: form })
      expect(await paid.text()).toContain(Protocol.checkoutTexts.success)
      expect(await balanceOf(chain.chain.rpcUrl, to)).toBe(parseEther('0.03275'))
      await sandbox.settled()
      const read = (await order(orderId)).body as Contract.OnrampOrder
      expect(read).toMatchObject({
        status: 'completed',
        purchaseAmount: { amount: '0.03275000', currency: 'ETH' },
      })
      expect(read.txHash).toMatch(/^0x[0-9a-f]{64}$/)
      const history = await json(`/v1/account/${to}/history?projectId=demo&onramp=sandbox`)
      expect(history.body).toEqual({
        data: [
          {
            id: read.txHash,
            metadata: {
              minedAt: read.updatedAt,
              chain: chain.chain.id,
              operationType: 'buy',
              status: 'confirmed',
              sentFrom: 'sandbox',
              sentTo: to,
            },
            transfers: [
              {
                fungible_info: { name: 'ETH', symbol: 'ETH', icon: { url: '' } },
                direction: 'in',
                quantity: { numeric: '0.03275000' },
              },
            ],
          },
        ],
        next: null,
      })
    })

    it('ends an order whose every webhook was lost from the provider’s record when the client polls it', async () => {
      const to = stranger()
      const { orderId, url } = (await openOrder(to)).body as Contract.OnrampUrlAnswer
      const form = new URLSearchParams({
        query: new URL(url).search,
        cardNumber: Protocol.testCards.succeeds,
        expiry: '12/39',
        cvc: '123',
        name: 'Ada Buyer',
      })
      const serving = current
      current = undefined // the API answers the sandbox's webhooks 503, through every retry
      try {
        await fetch(`${sandbox.url}/buy/pay`, { method: 'POST', body: form })
        await sandbox.settled()
      } finally {
        current = serving
      }
      const read = (await order(orderId)).body as Contract.OnrampOrder
      expect(read.status).toBe('completed')
      expect(read.txHash).toMatch(/^0x[0-9a-f]{64}$/)
      expect(await balanceOf(chain.chain.rpcUrl, to)).toBe(parseEther('0.03275'))
    })

    it('keeps an order left at the authentication step pending, and completes it when the visitor comes back', async () => {
      const to = stranger()
      const { orderId, url } = (await openOrder(to)).body as Contract.OnrampUrlAnswer
      const pay = (cardNumber: string) =>
        fetch(`${sandbox.url}/buy/pay`, {
          method: 'POST',
          body: new URLSearchParams({
            query: new URL(url).search,
            cardNumber,
            expiry: '12/39',
            cvc: '123',
            name: 'A',
          }),
        })
      // The visitor closes the popup at the bank's step.
      expect(await (await pay(Protocol.testCards.authenticates)).text()).toContain('Complete authentication')
      await sandbox.settled()
      expect((await order(orderId)).body.status).toBe('pending')
      expect((await fetch(url)).status).toBe(200)
      expect(await (await pay(Protocol.testCards.succeeds)).text()).toContain(Protocol.checkoutTexts.success)
      await sandbox.settled()
      expect((await order(orderId)).body.status).toBe('completed')
      expect(await balanceOf(chain.chain.rpcUrl, to)).toBe(parseEther('0.03275'))
    })

    it('fails the order when the card is declined', async () => {
      const to = stranger()
      const { orderId, url } = (await openOrder(to)).body as Contract.OnrampUrlAnswer
      const form = new URLSearchParams({
        query: new URL(url).search,
        cardNumber: Protocol.testCards.declined,
        expiry: '12/39',
        cvc: '123',
        name: 'Ada Buyer',
      })
      await fetch(`${sandbox.url}/buy/pay`, { method: 'POST', body: form })
      await sandbox.settled()
      expect((await order(orderId)).body).toMatchObject({
        status: 'failed',
        failureReason: Protocol.checkoutTexts.declined,
      })
      expect(await balanceOf(chain.chain.rpcUrl, to)).toBe(0n)
    })
  })

  describe('webhooks', () => {
    it('completes a pending order once: a duplicate event is accepted and changes nothing', async () => {
      const to = stranger()
      const { orderId } = (await openOrder(to)).body as Contract.OnrampUrlAnswer
      const body = completedEvent(orderId, to)
      const first = await webhook(body, signed(body))
      expect(first.status).toBe(200)
      expect(await first.json()).toEqual({ received: true, changed: true })
      const completed = (await order(orderId)).body
      const again = completedEvent(orderId, to, `0x${'cd'.repeat(32)}`)
      const second = await webhook(again, signed(again))
      expect(await second.json()).toEqual({ received: true, changed: false })
      const replayed = await webhook(body, signed(body))
      expect(await replayed.json()).toEqual({ received: true, changed: false })
      expect((await order(orderId)).body).toEqual(completed)
      expect(completed).toMatchObject({ status: 'completed', txHash: `0x${'ab'.repeat(32)}` })
    })

    it('refuses a tampered body, a wrong or missing signature and a stale one, changing nothing', async () => {
      const to = stranger()
      const { orderId } = (await openOrder(to)).body as Contract.OnrampUrlAnswer
      const body = completedEvent(orderId, to)
      const tampered = body.replace('0.03275', '9.00000')
      const refusal = async (response: Response) => [
        response.status,
        ((await response.json()) as Answer).message,
      ]
      type Answer = { message: string }
      expect(await refusal(await webhook(tampered, signed(body)))).toEqual([
        401,
        onrampMessages.invalidSignature,
      ])
      const wrongKey = Protocol.signWebhook('whsec_someone_else', body, Math.floor(Date.now() / 1000))
      expect(await refusal(await webhook(body, wrongKey))).toEqual([401, onrampMessages.invalidSignature])
      expect(await refusal(await webhook(body, ''))).toEqual([401, onrampMessages.invalidSignature])
      const stale = signed(body, Math.floor(Date.now() / 1000) - 301)
      expect(await refusal(await webhook(body, stale))).toEqual([401, onrampMessages.staleSignature])
      expect((await order(orderId)).body.status).toBe('pending')
    })

    it('refuses an event for another wallet, an unknown order or provider, and a body that is no event', async () => {
      const { orderId } = (await openOrder(stranger())).body as Contract.OnrampUrlAnswer
      const elsewhere = completedEvent(orderId, stranger())
      expect((await webhook(elsewhere, signed(elsewhere))).status).toBe(400)
      const unknown = completedEvent('o'.repeat(32), stranger())
      expect((await webhook(unknown, signed(unknown))).status).toBe(404)
      expect((await webhook('{"type":"nope"}', signed('{"type":"nope"}'))).status).toBe(400)
      const other = await get('/v1/onramp/webhooks/nobody', { method: 'POST', body: '{}' })
      expect(other.status).toBe(404)
      expect((await order(orderId)).body.status).toBe('pending')
    })
  })

  describe('history', () => {
    it('lists a pending purchase as pending, one provider’s and one chain’s only', async () => {
      const to = stranger()
      await openOrder(to)
      const page = async (extra: string) =>
        (await json(`/v1/account/${to}/history?projectId=demo${extra}`)).body as Contract.HistoryAnswer
      const [item] = (await page('&onramp=sandbox')).data
      expect(item?.metadata).toMatchObject({ operationType: 'buy', status: 'pending', sentTo: to })
      expect(item?.transfers[0]?.quantity.numeric).toBe('0')
      expect((await page('&onramp=coinbase')).data).toEqual([])
      expect((await page(`&onramp=sandbox&chainId=${chain.chain.id}`)).data).toHaveLength(1)
      const response = await get(`/v1/account/${to.toLowerCase()}/history?projectId=demo&onramp=sandbox`)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(((await response.json()) as Contract.HistoryAnswer).data).toHaveLength(1)
      expect((await json(`/v1/account/${to}/history?projectId=other&onramp=sandbox`)).body.data).toEqual([])
    })
  })

  describe('without providers', () => {
    it('answers the fallback options and 404 to the rest', async () => {
      const options = await bare.request('/v1/onramp/options?projectId=demo')
      expect(await options.json()).toEqual(fallbackList)
      const quote = await bare.request('/v1/onramp/quote?projectId=demo', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          purchaseCurrency: 'ETH',
          paymentCurrency: 'USD',
          amount: '20',
          network: 'eip155:1',
        }),
      })
      expect(quote.status).toBe(404)
      expect(await quote.json()).toEqual({ message: onrampMessages.notConfigured })
    })
  })
})
