/**
 * The `coinbase` kind end to end against the sandbox's Coinbase Onramp: options and quotes through CDP
 * JWTs, a checkout opened with a session token (once; a changed or reused token opens nothing), a card
 * payment that delivers on anvil and completes the order by an X-Hook0-Signature webhook, and a webhook
 * signed with another secret that changes nothing.
 */
import { createHmac } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// By path, not as a package: the devnet's stack runs this service, so a package dependency would be a cycle.
import * as Protocol from '../../../../devnet/src/onramp/Protocol.ts'
import {
  balanceOf,
  startChain,
  startSandbox,
  stranger,
  type TestChain,
  type TestSandbox,
} from '../../../../devnet/src/onramp/testing.ts'
import type * as Contract from '../../contract/index.ts'
import * as Database from '../../Database.ts'
import { calls, configOf, ether, shop } from '../../internal/testApi.ts'
import * as Service from '../../Service.ts'
import * as Projects from '../projects/Projects.ts'
import { onrampMessages } from './messages.ts'

let chain: TestChain
let sandbox: TestSandbox
let server: ReturnType<typeof serve>
let db: Database.Database
let api: Service.App
const { json } = calls(() => api)

beforeAll(async () => {
  server = serve({ fetch: (request) => api.fetch(request), port: 0 })
  await new Promise<void>((resolve) => server.once('listening', resolve))
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  chain = await startChain()
  sandbox = await startSandbox(chain.chain, {
    moonpay: `${apiUrl}/v1/onramp/webhooks/moonpay`,
    coinbase: `${apiUrl}/v1/onramp/webhooks/coinbase`,
  })
  db = await Database.open({ url: undefined, dataDir: 'memory://' })
  await Projects.add(db, 'demo', [shop])
  const config = {
    ...configOf([
      { id: chain.chain.id, name: chain.chain.name, rpcUrl: chain.chain.rpcUrl, nativeCurrency: ether },
    ]),
    onramp: {
      providers: [
        {
          id: 'coinbase',
          name: 'Coinbase',
          kind: 'coinbase' as const,
          apiUrl: sandbox.url,
          widgetUrl: sandbox.url,
          publishableKey: sandbox.cdp.keyId,
          secretKey: sandbox.cdp.secretKey,
          webhookSecret: sandbox.cdp.webhookSecret,
        },
      ],
    },
  }
  api = Service.create({ db, config }).api
})
afterAll(async () => {
  await sandbox?.stop()
  await chain?.stop()
  await db?.close()
  await new Promise((resolve) => server?.close(resolve))
})

const post = (path: string, body: unknown) =>
  json(`${path}?projectId=demo`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
const openOrder = (address: string) =>
  post('/v1/generators/onrampurl', {
    destinationWallets: [{ address, blockchains: [chain.chain.id], assets: ['ETH'] }],
    partnerUserId: 'visitor-1',
    defaultExperience: 'buy',
    presetFiatAmount: '100.00',
  })
const pay = (query: string) =>
  fetch(`${sandbox.url}/buy/pay`, {
    method: 'POST',
    body: new URLSearchParams({
      query,
      cardNumber: Protocol.testCards.succeeds,
      expiry: '12/39',
      cvc: '123',
      name: 'Ada Buyer',
    }),
  })

describe('the coinbase kind against the sandbox’s Coinbase Onramp', () => {
  it('lists its buy options and quotes through CDP JWTs', async () => {
    const options = (await json('/v1/onramp/options?projectId=demo')).body as Contract.OnrampOptionsAnswer
    expect(options.providers).toEqual([{ id: 'coinbase', name: 'Coinbase' }])
    expect(options.purchaseCurrencies.map((entry) => entry.id)).toEqual(['ETH', 'tUSD'])
    expect(options.paymentCurrencies).toContainEqual({
      id: 'USD',
      limits: [
        { id: 'card', min: '10.00', max: '7500.00' },
        { id: 'bank', min: '10.00', max: '25000.00' },
      ],
    })
    const quote = await post('/v1/onramp/quote', {
      purchaseCurrency: 'ETH',
      paymentCurrency: 'USD',
      amount: '100.00',
      network: chain.chain.id,
    })
    expect(quote.body).toMatchObject({
      coinbaseFee: { amount: '1.50', currency: 'USD' },
      paymentTotal: { amount: '100.00', currency: 'USD' },
      purchaseAmount: { amount: '0.03275000', currency: 'ETH' },
      provider: 'coinbase',
    })
  })

  it('opens the checkout with a single-use session token; a changed or reused one opens nothing', async () => {
    const { url } = (await openOrder(stranger())).body as Contract.OnrampUrlAnswer
    const link = new URL(url)
    expect(link.pathname).toBe('/buy/select-asset')
    // The wallet's address travels in the token, never in the URL.
    expect(url).not.toMatch(/0x[0-9a-fA-F]{40}/)
    const token = link.searchParams.get('sessionToken') ?? ''
    const tampered = url.replace(token, `${token.slice(0, -2)}xx`)
    const refused = await fetch(tampered)
    expect(refused.status).toBe(403)
    expect(await refused.text()).toContain(Protocol.checkoutTexts.badSession)
    expect((await fetch(url)).status).toBe(200)
    expect((await fetch(url)).status).toBe(403)
  })

  it('delivers on anvil for a paid card and completes the order by its X-Hook0-Signature webhook', async () => {
    const to = stranger()
    const { url, orderId } = (await openOrder(to)).body as Contract.OnrampUrlAnswer
    const page = await (await fetch(url)).text()
    const query = /name="query" value="([^"]+)"/.exec(page)?.[1] ?? ''
    const paid = await pay(query.replace(/&amp;/g, '&'))
    expect(await paid.text()).toContain(Protocol.checkoutTexts.success)
    expect(await balanceOf(chain.chain.rpcUrl, to)).toBeGreaterThan(0n)
    await sandbox.settled()
    const order = (await json(`/v1/onramp/orders/${orderId}?projectId=demo`)).body as Contract.OnrampOrder
    expect(order).toMatchObject({ status: 'completed', provider: 'coinbase', address: to })
    expect(order.txHash).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('refuses a webhook signed with another secret, changing nothing', async () => {
    const to = stranger()
    const { orderId } = (await openOrder(to)).body as Contract.OnrampUrlAnswer
    const body = JSON.stringify({
      eventType: 'onramp.transaction.success',
      transactionId: 'forged',
      status: 'ONRAMP_TRANSACTION_STATUS_SUCCESS',
      partnerUserRef: orderId,
      walletAddress: to,
      purchaseAmount: { value: '9.0', currency: 'ETH' },
      paymentTotal: { value: '10.00', currency: 'USD' },
      txHash: `0x${'ab'.repeat(32)}`,
    })
    const t = Math.floor(Date.now() / 1000)
    const names = 'content-type x-hook0-id'
    const v1 = createHmac('sha256', 'whsec_someone_else')
      .update(`${t}.${names}.application/json.evt.${body}`)
      .digest('hex')
    const answer = await json('/v1/onramp/webhooks/coinbase', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hook0-id': 'evt',
        'x-hook0-signature': `t=${t},h=${names},v1=${v1}`,
      },
      body,
    })
    expect(answer).toEqual({ status: 401, body: { message: onrampMessages.invalidSignature } })
    expect(
      ((await json(`/v1/onramp/orders/${orderId}?projectId=demo`)).body as Contract.OnrampOrder).status,
    ).toBe('pending')
  })
})
