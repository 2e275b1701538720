/**
 * The sandbox on-ramp provider (http://127.0.0.1:8797 on the dev stack): a hosted checkout on its own
 * origin that takes test cards, really delivers what was bought from its treasury on the devnet chains,
 * and tells the API by a signed webhook. It speaks two providers' protocols (`Protocol.ts`): MoonPay's
 * (signed widget URLs, `/v3/…`, `Moonpay-Signature-V2`) and Coinbase Onramp's (`Coinbase.ts`: CDP JWTs,
 * session tokens, `X-Hook0-Signature`), each refusing a checkout its own way of signing does not vouch for.
 */
import type { KeyObject } from 'node:crypto'
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as Catalog from './Catalog.ts'
import * as Coinbase from './Coinbase.ts'
import * as Moonpay from './Moonpay.ts'
import * as Pages from './Pages.ts'
import * as Protocol from './Protocol.ts'
import * as Treasury from './Treasury.ts'

export type StartOptions = {
  /** 0 picks a free one. @default 8797 */
  port?: number
  /** @default '127.0.0.1' */
  host?: string
  /** MoonPay's credentials, and where its webhooks go: the API's `/v1/onramp/webhooks/{provider}`. */
  moonpay: { publishableKey: string; secretKey: string; webhookSecret: string; webhookUrl: string }
  /** Coinbase's: the CDP key's id and public half, the webhook secret, and where its webhooks go. */
  coinbase: { keyId: string; publicKey: KeyObject; webhookSecret: string; webhookUrl: string }
  chains: readonly Treasury.SandboxChain[]
  prices: Catalog.Prices
  /** The treasury's keys; {@link Treasury.fund} must have funded them. */
  treasury: Treasury.Keys
  /** Waits before each webhook retry. @default [250, 500, 1000, 2000] */
  retryDelaysMs?: readonly number[]
}

export type Instance = {
  url: string
  /** Resolves once every webhook sent so far was answered or given up on. */
  settled(): Promise<void>
  stop(): Promise<void>
}

/** A checkout, verified, with what it buys. */
type Purchase = {
  kind: Protocol.Kind
  /** What the card form posts back to find the purchase again (MoonPay's signed query, Coinbase's checkout). */
  query: string
  orderId: string
  walletAddress: string
  currency: Protocol.CryptoCurrency
  quote: Protocol.BuyQuote
  summary: Pages.Summary
}

const maxBody = 16 * 1024

/** @example const sandbox = await Sandbox.start({ moonpay, coinbase, chains, prices, treasury }) */
export async function start(options: StartOptions): Promise<Instance> {
  const catalog = Catalog.create(options.chains, options.prices)
  const treasury = Treasury.create(options.chains, options.treasury)
  const transactions = new Map<string, Protocol.Transaction>()
  const moonpay = Moonpay.create(catalog, options.moonpay)
  const coinbase = Coinbase.create(catalog, {
    keyId: options.coinbase.keyId,
    publicKey: options.coinbase.publicKey,
    webhookSecret: options.coinbase.webhookSecret,
  })
  /** Coinbase checkouts opened (their session token spent), by the id their card form posts back. */
  const checkouts = new Map<string, Purchase>()
  /** 3-D-Secure steps waiting for the visitor: transaction id → the token its form carries. */
  const challenges = new Map<string, { token: string; purchase: Purchase }>()
  const inFlight = new Set<Promise<void>>()
  const delays = options.retryDelaysMs ?? [250, 500, 1000, 2000]
  let down = false

  const sendWebhook = (transaction: Protocol.Transaction) => {
    const attempt = async () => {
      for (const delay of [0, ...delays]) {
        if (delay) await new Promise((resolve) => setTimeout(resolve, delay))
        const nowS = Math.floor(Date.now() / 1000)
        const { url, body, headers } =
          transaction.kind === 'coinbase'
            ? {
                url: options.coinbase.webhookUrl,
                ...Coinbase.webhookOf(transaction, options.coinbase.webhookSecret, nowS),
              }
            : {
                url: options.moonpay.webhookUrl,
                ...Moonpay.webhookOf(transaction, options.moonpay.webhookSecret, nowS),
              }
        const ok = await fetch(url, {
          method: 'POST',
          headers,
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
    if (transaction.status !== 'pending') sendWebhook({ ...transaction })
    return transaction
  }

  const open = (purchase: Purchase): Protocol.Transaction => {
    const now = new Date().toISOString()
    const { quote, currency } = purchase
    const transaction: Protocol.Transaction = {
      id: `tx_${randomBytes(12).toString('hex')}`,
      kind: purchase.kind,
      externalTransactionId: purchase.orderId,
      status: 'pending',
      walletAddress: purchase.walletAddress,
      currencyCode: currency.code,
      symbol: currency.symbol,
      network: currency.network,
      networkCode: currency.networkCode,
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
        to: transaction.walletAddress,
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

  /** A purchase with its quote and summary, or the page that refuses it. */
  const priced = (
    kind: Protocol.Kind,
    query: string,
    orderId: string,
    walletAddress: string,
    currency: Protocol.CryptoCurrency,
    fiat: string,
    total: string | null,
  ): Purchase | Pages.Page => {
    if (!Treasury.isAddressOf(currency.network, walletAddress))
      return Pages.error(400, 'The wallet address is not valid.')
    if (!orderId) return Pages.error(400, 'The order is missing.')
    // Without an amount the checkout opens at 100, as the providers' open at their default.
    const quote = catalog.quote(currency, fiat.toLowerCase(), Number(total ?? '100'))
    if (typeof quote === 'string') return Pages.error(400, quote)
    const summary = {
      total: quote.totalAmount,
      fiat: fiat.toLowerCase(),
      crypto: quote.quoteCurrencyAmount,
      symbol: currency.symbol,
      networkName: currency.networkName,
      walletAddress,
    }
    return { kind, query, orderId, walletAddress, currency, quote, summary }
  }

  /** The purchase a card form's `query` names: a MoonPay widget query, verified again, or a Coinbase checkout. */
  const purchaseOf = (query: string): Purchase | Pages.Page => {
    const checkout = /^\?checkout=([\w-]{1,64})$/.exec(query)
    if (checkout)
      return checkouts.get(checkout[1] ?? '') ?? Pages.error(400, Protocol.checkoutTexts.badSession)
    const verified = moonpay.verify(query)
    if (typeof verified === 'string')
      return Pages.error(verified === Protocol.checkoutTexts.badSignature ? 403 : 400, verified)
    const { params, currency } = verified
    return priced(
      'moonpay',
      verified.query,
      params.get('externalTransactionId') ?? '',
      params.get('walletAddress') ?? '',
      currency,
      params.get('baseCurrencyCode') ?? 'usd',
      params.get('baseCurrencyAmount'),
    )
  }

  /** Opens a Coinbase checkout from its session token, spending the token. */
  const coinbaseCheckout = (params: URLSearchParams): Purchase | Pages.Page => {
    const opened = coinbase.open(params)
    if (typeof opened === 'string') return Pages.error(403, opened)
    const id = randomBytes(16).toString('base64url')
    const purchase = priced(
      'coinbase',
      `?checkout=${id}`,
      params.get('partnerUserRef') ?? '',
      opened.address,
      opened.currency,
      params.get('fiatCurrency') ?? 'USD',
      params.get('presetFiatAmount'),
    )
    if (!('html' in purchase)) checkouts.set(id, purchase)
    return purchase
  }

  const pay = (form: URLSearchParams): Promise<Pages.Page> | Pages.Page => {
    const purchase = purchaseOf(form.get('query') ?? '')
    if ('html' in purchase) return purchase
    const paid = [...transactions.values()].some(
      (entry) =>
        entry.kind === purchase.kind &&
        entry.externalTransactionId === purchase.orderId &&
        entry.status === 'completed',
    )
    if (paid) return Pages.error(409, 'This order is already paid.')
    const problem = Pages.cardProblem(form)
    if (problem) return Pages.checkout(purchase.query, purchase.summary, problem)
    const card = (form.get('cardNumber') ?? '').replace(/[\s-]/g, '')
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

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'sandbox'}`)
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
    const isApi =
      url.pathname.startsWith('/v1/') ||
      url.pathname.startsWith('/v3/') ||
      url.pathname.startsWith('/onramp/')
    if (down) {
      if (isApi) return sendJson(503, { message: 'The provider is down' })
      return sendPage(Pages.error(503, 'The provider is down. Try again later.'))
    }
    if (url.pathname.startsWith('/onramp/')) {
      const body = req.method === 'POST' ? JSON.parse((await read(req)) || '{}') : undefined
      const answer = coinbase.api(
        req.method ?? 'GET',
        url,
        req.headers.authorization,
        body,
        transactions.values(),
      )
      if (answer) return sendJson(...answer)
    }
    if (isApi && req.method === 'GET')
      return sendJson(...moonpay.api(url, req.headers.authorization, transactions))
    if (url.pathname === '/' && req.method === 'GET') {
      const purchase = purchaseOf(url.search)
      return sendPage('html' in purchase ? purchase : Pages.checkout(purchase.query, purchase.summary))
    }
    if (url.pathname === '/buy/select-asset' && req.method === 'GET') {
      const purchase = coinbaseCheckout(url.searchParams)
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
