/**
 * The sandbox on-ramp provider (http://127.0.0.1:8797 on the dev stack): a hosted checkout on its own
 * origin that takes test cards, really delivers what was bought from its treasury on the devnet chains,
 * and tells the API by a signed webhook, as MoonPay does. Its protocol is `Protocol.ts`'s.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Hex, isAddress } from 'viem'
import * as Catalog from './Catalog.ts'
import * as Pages from './Pages.ts'
import * as Protocol from './Protocol.ts'
import * as Treasury from './Treasury.ts'

export type StartOptions = {
  /** 0 picks a free one. @default 8797 */
  port?: number
  /** @default '127.0.0.1' */
  host?: string
  publishableKey: string
  secretKey: string
  webhookSecret: string
  /** Where webhooks go: the API's `/v1/onramp/webhooks/{provider}`. */
  webhookUrl: string
  chains: readonly Treasury.SandboxChain[]
  prices: Catalog.Prices
  /** The treasury's key; {@link Treasury.fund} must have funded it. */
  treasuryKey: Hex
  /** Waits before each webhook retry. @default [250, 500, 1000, 2000] */
  retryDelaysMs?: readonly number[]
}

export type Instance = {
  url: string
  /** Resolves once every webhook sent so far was answered or given up on. */
  settled(): Promise<void>
  stop(): Promise<void>
}

/** A widget query, verified, with what it buys. */
type Purchase = {
  query: string
  params: URLSearchParams
  currency: Protocol.CryptoCurrency
  quote: Protocol.BuyQuote
  summary: Pages.Summary
}

const maxBody = 16 * 1024

/** @example const sandbox = await Sandbox.start({ …credentials, webhookUrl, chains, prices, treasuryKey }) */
export async function start(options: StartOptions): Promise<Instance> {
  const catalog = Catalog.create(options.chains, options.prices)
  const treasury = Treasury.create(options.chains, options.treasuryKey)
  const transactions = new Map<string, Protocol.Transaction>()
  /** 3-D-Secure steps waiting for the visitor: transaction id → the token its form carries. */
  const challenges = new Map<string, { token: string; purchase: Purchase }>()
  const inFlight = new Set<Promise<void>>()
  const delays = options.retryDelaysMs ?? [250, 500, 1000, 2000]
  let down = false

  const sendWebhook = (type: Protocol.WebhookEvent['type'], data: Protocol.Transaction) => {
    const body = JSON.stringify({ type, id: `evt_${randomBytes(12).toString('hex')}`, data })
    const attempt = async () => {
      for (const delay of [0, ...delays]) {
        if (delay) await new Promise((resolve) => setTimeout(resolve, delay))
        const signature = Protocol.signWebhook(options.webhookSecret, body, Math.floor(Date.now() / 1000))
        const ok = await fetch(options.webhookUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [Protocol.signatureHeader]: signature },
          body,
          signal: AbortSignal.timeout(5000),
        }).then(
          (response) => response.ok,
          () => false,
        )
        if (ok) return
      }
    }
    const running = attempt().finally(() => inFlight.delete(running))
    inFlight.add(running)
  }

  const update = (transaction: Protocol.Transaction, change: Partial<Protocol.Transaction>) => {
    Object.assign(transaction, change, { updatedAt: new Date().toISOString() })
    if (transaction.status === 'completed') sendWebhook('transaction_completed', { ...transaction })
    if (transaction.status === 'failed') sendWebhook('transaction_failed', { ...transaction })
    return transaction
  }

  const open = (purchase: Purchase): Protocol.Transaction => {
    const now = new Date().toISOString()
    const { params, quote, currency } = purchase
    const transaction: Protocol.Transaction = {
      id: `tx_${randomBytes(12).toString('hex')}`,
      externalTransactionId: params.get('externalTransactionId') ?? '',
      status: 'pending',
      walletAddress: params.get('walletAddress') ?? '',
      currencyCode: currency.code,
      network: currency.network,
      baseCurrencyCode: quote.baseCurrencyCode,
      baseCurrencyAmount: quote.totalAmount,
      quoteCurrencyAmount: quote.quoteCurrencyAmount,
      feeAmount: quote.feeAmount,
      networkFeeAmount: quote.networkFeeAmount,
      cryptoTransactionId: null,
      failureReason: null,
      createdAt: now,
      updatedAt: now,
    }
    transactions.set(transaction.id, transaction)
    return transaction
  }

  const complete = async (transaction: Protocol.Transaction, purchase: Purchase): Promise<Pages.Page> => {
    try {
      const hash = await treasury.deliver({
        chainId: transaction.network,
        symbol: purchase.currency.symbol,
        to: transaction.walletAddress as Hex,
        amount: transaction.quoteCurrencyAmount,
      })
      update(transaction, { status: 'completed', cryptoTransactionId: hash })
      return Pages.success(purchase.summary, hash)
    } catch (error) {
      console.warn('[onramp sandbox] delivery failed:', error instanceof Error ? error.message : error)
      update(transaction, { status: 'failed', failureReason: 'The delivery failed' })
      return Pages.failure('The delivery failed')
    }
  }

  const fail = (transaction: Protocol.Transaction, reason: string): Pages.Page => {
    update(transaction, { status: 'failed', failureReason: reason })
    return Pages.failure(reason)
  }

  /** Verifies a widget query (its signature, key and figures): the purchase, or the page that refuses it. */
  const purchaseOf = (query: string): Purchase | Pages.Page => {
    const raw = query.replace(/^\?/, '')
    const params = new URLSearchParams(raw)
    const signed = raw
      .split('&')
      .filter((part) => !part.startsWith('signature='))
      .join('&')
    const given = Buffer.from(params.get('signature') ?? '', 'base64')
    const expected = Buffer.from(Protocol.signQuery(options.secretKey, signed), 'base64')
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return Pages.error(403, Protocol.checkoutTexts.badSignature)
    if (params.get('apiKey') !== options.publishableKey) return Pages.error(403, 'Unknown publishable key.')
    const currency = catalog.find(params.get('currencyCode') ?? '', params.get('network') ?? '')
    if (!currency) return Pages.error(400, 'This currency is not sold on this network.')
    const walletAddress = params.get('walletAddress') ?? ''
    if (!isAddress(walletAddress, { strict: false }))
      return Pages.error(400, 'The wallet address is not valid.')
    if (!params.get('externalTransactionId')) return Pages.error(400, 'The order is missing.')
    const fiat = params.get('baseCurrencyCode') ?? 'usd'
    // Without an amount the checkout opens at 100, as MoonPay's opens at its default.
    const quote = catalog.quote(currency, fiat, Number(params.get('baseCurrencyAmount') ?? '100'))
    if (typeof quote === 'string') return Pages.error(400, quote)
    const network = options.chains.find((chain) => chain.id === currency.network)?.name ?? currency.network
    const summary = {
      total: quote.totalAmount,
      fiat,
      crypto: quote.quoteCurrencyAmount,
      symbol: currency.symbol,
      networkName: network,
      walletAddress,
    }
    return { query: `?${raw}`, params, currency, quote, summary }
  }

  const pay = (form: URLSearchParams): Promise<Pages.Page> | Pages.Page => {
    const purchase = purchaseOf(form.get('query') ?? '')
    if ('html' in purchase) return purchase
    const paid = [...transactions.values()].some(
      (entry) =>
        entry.externalTransactionId === purchase.params.get('externalTransactionId') &&
        entry.status === 'completed',
    )
    if (paid) return Pages.error(409, 'This order is already paid.')
    const card = (form.get('cardNumber') ?? '').replace(/[\s-]/g, '')
    const expiry = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/.exec(form.get('expiry') ?? '')
    const now = new Date()
    const expired =
      !expiry ||
      2000 + Number(expiry[2]) < now.getUTCFullYear() ||
      (2000 + Number(expiry[2]) === now.getUTCFullYear() && Number(expiry[1]) < now.getUTCMonth() + 1)
    const problem = !/^\d{12,19}$/.test(card)
      ? 'Enter the card number.'
      : expired
        ? 'Enter an expiry date in the future, as MM/YY.'
        : !/^\d{3,4}$/.test(form.get('cvc') ?? '')
          ? 'Enter the 3 or 4 digit CVC.'
          : !(form.get('name') ?? '').trim()
            ? 'Enter the name on the card.'
            : !(Object.values(Protocol.testCards) as string[]).includes(card)
              ? Protocol.checkoutTexts.unknownCard
              : undefined
    if (problem) return Pages.checkout(purchase.query, purchase.summary, problem)
    const transaction = open(purchase)
    if (card === Protocol.testCards.declined) return fail(transaction, Protocol.checkoutTexts.declined)
    if (card === Protocol.testCards.succeeds) return complete(transaction, purchase)
    const token = randomBytes(16).toString('hex')
    challenges.set(transaction.id, { token, purchase })
    return Pages.authenticate(transaction.id, token)
  }

  const authenticate = (form: URLSearchParams): Promise<Pages.Page> | Pages.Page => {
    const id = form.get('transactionId') ?? ''
    const challenge = challenges.get(id)
    const transaction = transactions.get(id)
    const given = Buffer.from(form.get('token') ?? '')
    const expected = Buffer.from(challenge?.token ?? '')
    if (!challenge || !transaction || given.length !== expected.length || !timingSafeEqual(given, expected))
      return Pages.error(400, 'This authentication is not pending.')
    challenges.delete(id)
    if (form.get('outcome') !== 'complete')
      return fail(transaction, Protocol.checkoutTexts.authenticationFailed)
    return complete(transaction, challenge.purchase)
  }

  const api = (req: IncomingMessage, url: URL): [number, unknown] => {
    const authorised = req.headers.authorization === `Api-Key ${options.secretKey}`
    const byId = /^\/v1\/transactions\/(ext\/)?([A-Za-z0-9_-]{1,100})$/.exec(url.pathname)
    if (byId) {
      if (!authorised) return [401, { message: 'The secret key is required' }]
      const found = byId[1]
        ? [...transactions.values()].filter((entry) => entry.externalTransactionId === byId[2]).at(-1)
        : transactions.get(byId[2] ?? '')
      return found ? [200, found] : [404, { message: 'Transaction not found' }]
    }
    if (url.searchParams.get('apiKey') !== options.publishableKey && !authorised)
      return [401, { message: 'Unknown apiKey' }]
    if (url.pathname === '/v1/currencies') return [200, catalog.currencies]
    const quote = /^\/v1\/currencies\/([a-z0-9]{1,20})\/buy_quote$/.exec(url.pathname)
    if (!quote) return [404, { message: 'Not found' }]
    const currency = catalog.find(quote[1] ?? '', url.searchParams.get('network') ?? '')
    if (!currency) return [400, { message: 'This currency is not sold on this network' }]
    const answer = catalog.quote(
      currency,
      url.searchParams.get('baseCurrencyCode') ?? 'usd',
      Number(url.searchParams.get('baseCurrencyAmount') ?? 'NaN'),
      url.searchParams.get('paymentMethod') ?? 'card',
    )
    return typeof answer === 'string' ? [400, { message: answer }] : [200, answer]
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://sandbox')
    const sendPage = (page: Pages.Page) =>
      res.writeHead(page.status, Pages.headers(page.nonce)).end(page.html)
    const sendJson = (status: number, body: unknown) =>
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
    if (url.pathname === '/__control' && req.method === 'POST') {
      if (!isLoopback(req.socket.remoteAddress)) return sendJson(403, { message: 'Loopback only' })
      const body = JSON.parse((await read(req)) || '{}') as { down?: unknown }
      down = body.down === true
      return sendJson(200, { down })
    }
    if (down) {
      if (url.pathname.startsWith('/v1/')) return sendJson(503, { message: 'The provider is down' })
      return sendPage(Pages.error(503, 'The provider is down. Try again later.'))
    }
    if (url.pathname.startsWith('/v1/') && req.method === 'GET') return sendJson(...api(req, url))
    if (url.pathname === '/buy' && req.method === 'GET') {
      const purchase = purchaseOf(url.search)
      return sendPage('html' in purchase ? purchase : Pages.checkout(purchase.query, purchase.summary))
    }
    if (url.pathname === '/buy/pay' && req.method === 'POST')
      return sendPage(await pay(new URLSearchParams(await read(req))))
    if (url.pathname === '/buy/authenticate' && req.method === 'POST')
      return sendPage(await authenticate(new URLSearchParams(await read(req))))
    return sendPage(Pages.error(404, 'Not found.'))
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.warn('[onramp sandbox]', error instanceof Error ? error.message : error)
      if (!res.headersSent) res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad request')
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? Protocol.defaultPort, options.host ?? '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    settled: async () => {
      while (inFlight.size) await Promise.all([...inFlight])
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1'
}

async function read(req: IncomingMessage): Promise<string> {
  let body = ''
  for await (const chunk of req) {
    body += String(chunk)
    if (body.length > maxBody) throw new Error('The body is too large')
  }
  return body
}
