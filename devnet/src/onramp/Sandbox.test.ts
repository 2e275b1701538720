import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Address, parseEther, parseUnits } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import * as Protocol from './Protocol.ts'
import {
  balanceOf,
  setDown,
  startChain,
  startSandbox,
  stranger,
  type TestChain,
  type TestSandbox,
} from './testing.ts'

type Received = { signature: string; body: string; event: Protocol.WebhookEvent }

let chain: TestChain
let sandbox: TestSandbox
let receiver: Server
/** Webhooks the receiver took (after any refusals it was told to answer). */
let received: Received[] = []
/** Statuses the receiver answers before it answers 200. */
let refusals: number[] = []

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += String(chunk)
    })
    req.on('end', () => {
      const status = refusals.shift()
      if (status) return res.writeHead(status).end()
      const signature = String(req.headers[Protocol.signatureHeader.toLowerCase()] ?? '')
      received.push({ signature, body, event: JSON.parse(body) as Protocol.WebhookEvent })
      res.writeHead(200).end('{}')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  chain = await startChain()
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  sandbox = await startSandbox(chain.chain, { moonpay: hook, coinbase: `${hook}/coinbase` })
})
afterAll(async () => {
  await sandbox?.stop()
  await chain?.stop()
  await new Promise((resolve) => receiver?.close(resolve))
})
beforeEach(() => {
  received = []
  refusals = []
})

/** A widget query as the API's adapter builds one, signed with `secretKey`. */
function widgetQuery(
  to: Address,
  overrides: Record<string, string> = {},
  secretKey = sandbox.credentials.secretKey,
) {
  const params = new URLSearchParams({
    apiKey: sandbox.credentials.publishableKey,
    currencyCode: 'eth',
    walletAddress: to,
    baseCurrencyCode: 'usd',
    baseCurrencyAmount: '100.00',
    externalTransactionId: `order_${Math.random().toString(36).slice(2)}`,
    ...overrides,
  })
  return `?${params}&signature=${encodeURIComponent(Protocol.signQuery(secretKey, `?${params}`))}`
}

async function pay(query: string, cardNumber: string, fields: Record<string, string> = {}) {
  const form = new URLSearchParams({
    query,
    cardNumber,
    expiry: '12/39',
    cvc: '123',
    name: 'Ada Buyer',
    ...fields,
  })
  const response = await fetch(`${sandbox.url}/buy/pay`, { method: 'POST', body: form })
  return { status: response.status, html: await response.text(), headers: response.headers }
}

function verify({ signature, body }: Received): boolean {
  const [, t, s] = /^t=(\d+),s=([0-9a-f]{64})$/.exec(signature) ?? []
  const expected = createHmac('sha256', sandbox.credentials.webhookSecret)
    .update(`${t}.${body}`)
    .digest('hex')
  return s === expected && Math.abs(Date.now() / 1000 - Number(t)) < 300
}

describe('sandbox checkout', () => {
  it('serves the checkout for a signed URL, unframable under a strict CSP', async () => {
    const response = await fetch(`${sandbox.url}/${widgetQuery(stranger())}`)
    expect(response.status).toBe(200)
    const csp = response.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("default-src 'none'")
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    const html = await response.text()
    expect(html).toContain('<label for="cardNumber">Card number</label>')
    expect(html).toContain('You pay</dt><dd>100.00 USD')
  })

  it('refuses a URL whose signature was made with another key, or whose query was changed after signing', async () => {
    const forged = await fetch(`${sandbox.url}/${widgetQuery(stranger(), {}, 'sk_someone_else')}`)
    expect(forged.status).toBe(403)
    expect(await forged.text()).toContain(Protocol.checkoutTexts.badSignature)
    const tampered = widgetQuery(stranger()).replace('baseCurrencyAmount=100.00', 'baseCurrencyAmount=10.00')
    expect((await fetch(`${sandbox.url}/${tampered}`)).status).toBe(403)
    const unsigned = widgetQuery(stranger()).replace(/&signature=.*$/, '')
    expect((await fetch(`${sandbox.url}/${unsigned}`)).status).toBe(403)
  })

  it('refuses a currency it does not sell on the network', async () => {
    const response = await fetch(`${sandbox.url}/${widgetQuery(stranger(), { currencyCode: 'doge' })}`)
    expect(response.status).toBe(400)
  })

  it('delivers ETH on chain for the succeeding card and sends a signed completed webhook', async () => {
    const to = stranger()
    const before = await balanceOf(chain.chain.rpcUrl, to)
    const query = widgetQuery(to)
    const page = await pay(query, '4242 4242 4242 4242')
    expect(page.status).toBe(200)
    expect(page.html).toContain(Protocol.checkoutTexts.success)
    // 100.00 less 1.5 % (1.50) and the 0.25 network fee buys 98.25 / 3000 ETH.
    expect((await balanceOf(chain.chain.rpcUrl, to)) - before).toBe(parseEther('0.03275'))
    await sandbox.settled()
    expect(received).toHaveLength(1)
    const [webhook] = received as [Received]
    expect(verify(webhook)).toBe(true)
    expect(webhook.event.type).toBe('transaction_updated')
    expect(webhook.event.data).toMatchObject({
      status: 'completed',
      walletAddress: to,
      quoteCurrencyAmount: '0.03275000',
      feeAmount: '1.50',
      networkFeeAmount: '0.25',
      externalTransactionId: new URLSearchParams(query).get('externalTransactionId'),
    })
    expect(webhook.event.data.cryptoTransactionId).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('asks the 3-D-Secure card to authenticate, then delivers tUSD', async () => {
    const to = stranger()
    const page = await pay(
      widgetQuery(to, { currencyCode: 'tusd', baseCurrencyAmount: '50.00' }),
      '4000000000003220',
    )
    expect(page.html).toContain('Complete authentication')
    const [, transactionId, token] =
      /name="transactionId" value="([^"]+)".*name="token" value="([^"]+)"/s.exec(page.html) ?? []
    const form = new URLSearchParams({
      transactionId: transactionId ?? '',
      token: token ?? '',
      outcome: 'complete',
    })
    const done = await fetch(`${sandbox.url}/buy/authenticate`, { method: 'POST', body: form })
    expect(await done.text()).toContain(Protocol.checkoutTexts.success)
    // 50.00 − 0.75 − 0.25
    expect(await balanceOf(chain.chain.rpcUrl, to, chain.tusd)).toBe(parseUnits('49', 6))
    const again = await fetch(`${sandbox.url}/buy/authenticate`, { method: 'POST', body: form })
    expect(again.status).toBe(400)
  })

  it('fails the payment when authentication fails, with a failed webhook and nothing delivered', async () => {
    const to = stranger()
    const page = await pay(widgetQuery(to), '4000000000003220')
    const [, transactionId, token] =
      /name="transactionId" value="([^"]+)".*name="token" value="([^"]+)"/s.exec(page.html) ?? []
    const form = new URLSearchParams({
      transactionId: transactionId ?? '',
      token: token ?? '',
      outcome: 'fail',
    })
    const done = await fetch(`${sandbox.url}/buy/authenticate`, { method: 'POST', body: form })
    expect(await done.text()).toContain(Protocol.checkoutTexts.authenticationFailed)
    await sandbox.settled()
    expect(received.map(({ event }) => [event.type, event.data.failureReason])).toEqual([
      ['transaction_failed', Protocol.checkoutTexts.authenticationFailed],
    ])
    expect(await balanceOf(chain.chain.rpcUrl, to)).toBe(0n)
  })

  it('declines the declined card', async () => {
    const to = stranger()
    const page = await pay(widgetQuery(to), '4000 0000 0000 0002')
    expect(page.status).toBe(402)
    expect(page.html).toContain(Protocol.checkoutTexts.declined)
    await sandbox.settled()
    expect(received[0]?.event.type).toBe('transaction_failed')
    expect(await balanceOf(chain.chain.rpcUrl, to)).toBe(0n)
  })

  it('asks again for an unknown card or a bad field, taking nothing', async () => {
    const unknown = await pay(widgetQuery(stranger()), '5555555555554444')
    expect(unknown.status).toBe(400)
    expect(unknown.html).toContain(Protocol.checkoutTexts.unknownCard)
    const expired = await pay(widgetQuery(stranger()), '4242424242424242', { expiry: '01/20' })
    expect(expired.html).toContain('Enter an expiry date in the future')
    await sandbox.settled()
    expect(received).toEqual([])
  })

  it('refuses to take a second payment for a paid order', async () => {
    const query = widgetQuery(stranger())
    expect((await pay(query, Protocol.testCards.succeeds)).status).toBe(200)
    expect((await pay(query, Protocol.testCards.succeeds)).status).toBe(409)
  })

  it('retries a webhook the receiver refuses, with backoff', async () => {
    refusals = [500, 503]
    await pay(widgetQuery(stranger()), Protocol.testCards.succeeds)
    await sandbox.settled()
    expect(refusals).toEqual([])
    expect(received).toHaveLength(1)
  })
})

describe('sandbox API', () => {
  const get = (path: string, init?: RequestInit) => fetch(`${sandbox.url}${path}`, init)

  it('lists currencies and quotes with the publishable key, at a 1.5 % fee', async () => {
    const key = sandbox.credentials.publishableKey
    const currencies = (await (
      await get(`/v3/currencies?apiKey=${key}`)
    ).json()) as Protocol.MoonpayCurrency[]
    expect(currencies.map((entry) => `${entry.type}:${entry.code}@${entry.metadata?.chainId ?? ''}`)).toEqual(
      ['crypto:eth@31337', 'crypto:tusd@31337', 'fiat:usd@', 'fiat:eur@'],
    )
    const quote = await get(
      `/v3/currencies/eth/buy_quote?apiKey=${key}&baseCurrencyCode=usd&baseCurrencyAmount=200&areFeesIncluded=true`,
    )
    expect(await quote.json()).toMatchObject({ totalAmount: 200, feeAmount: 3, baseCurrencyAmount: 196.75 })
    const tooMuch = await get(
      `/v3/currencies/eth/buy_quote?apiKey=${key}&baseCurrencyCode=usd&baseCurrencyAmount=7500.01`,
    )
    expect(tooMuch.status).toBe(400)
    expect((await get('/v3/currencies?apiKey=pk_wrong')).status).toBe(401)
  })

  it('reads a transaction by its id or the order id with the secret key only', async () => {
    const query = widgetQuery(stranger())
    await pay(query, Protocol.testCards.succeeds)
    const order = new URLSearchParams(query).get('externalTransactionId')
    expect((await get(`/v1/transactions/ext/${order}`)).status).toBe(401)
    const auth = { headers: { Authorization: `Api-Key ${sandbox.credentials.secretKey}` } }
    const [byOrder] = (await (
      await get(`/v1/transactions/ext/${order}`, auth)
    ).json()) as Protocol.MoonpayTransaction[]
    expect(byOrder?.status).toBe('completed')
    const byId = (await (
      await get(`/v1/transactions/${byOrder?.id}`, auth)
    ).json()) as Protocol.MoonpayTransaction
    expect(byId).toEqual(byOrder)
  })

  it('answers 503 to everything while down, and serves again when back', async () => {
    await setDown(sandbox.url, true)
    try {
      expect((await get(`/v3/currencies?apiKey=${sandbox.credentials.publishableKey}`)).status).toBe(503)
      expect((await get(`/${widgetQuery(stranger())}`)).status).toBe(503)
    } finally {
      await setDown(sandbox.url, false)
    }
    expect((await get(`/v3/currencies?apiKey=${sandbox.credentials.publishableKey}`)).status).toBe(200)
  })
})
