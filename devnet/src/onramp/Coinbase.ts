/**
 * The sandbox's Coinbase Onramp: its API as CDP documents it, each call authorised by a CDP JWT that the
 * project's key signed (checked against the key's public half: algorithm, `kid`/`sub`, `iss: cdp`, the
 * `nbf`–`exp` window and the one route its `uris` names), single-use session tokens that bind the checkout
 * to the wallet's address, networks, assets and the visitor's IP, and webhooks signed as Hook0 signs CDP's
 * (`X-Hook0-Signature`). The card checkout itself is the sandbox's (`Sandbox.ts`).
 */
import { createHmac, type KeyObject, randomBytes, verify } from 'node:crypto'
import type { Catalog } from './Catalog.ts'
import * as Protocol from './Protocol.ts'

/** How long a session token is good for, once: Coinbase's five minutes. */
const tokenLifetimeMs = 5 * 60_000

/** The headers a webhook's signature covers beside its body (Hook0's `h`). */
const signedHeaders = ['content-type', 'x-hook0-id'] as const

export type Credentials = {
  /** The CDP API key's id, the JWTs' `kid` and `sub`. */
  keyId: string
  /** Its public half: what verifies the JWTs the API signs with the private one. */
  publicKey: KeyObject
  webhookSecret: string
}

type Session = {
  address: string
  blockchains: string[]
  assets: string[]
  clientIp: string
  issuedAt: number
}

/** A checkout the visitor opened with a session token: what it may buy, to which address. */
export type Checkout = { address: string; currency: Protocol.CryptoCurrency; params: URLSearchParams }

const json = (value: unknown) => Buffer.from(JSON.stringify(value))

/**
 * Whether `authorization` is a JWT of `credentials`' key for `method` on `url` at `nowS`.
 * @example verifyJwt(req.headers.authorization, credentials, 'POST', url, nowS)
 */
function verifyJwt(
  authorization: string | undefined,
  credentials: Credentials,
  method: string,
  url: URL,
  nowS: number,
): boolean {
  const [input = '', signature = ''] =
    /^Bearer ([\w-]+\.[\w-]+)\.([\w-]+)$/.exec(authorization ?? '')?.slice(1) ?? []
  if (!input) return false
  const [head = '', body = ''] = input.split('.')
  let header: { alg?: unknown; kid?: unknown }
  let claims: { sub?: unknown; iss?: unknown; nbf?: unknown; exp?: unknown; uris?: unknown }
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString())
    claims = JSON.parse(Buffer.from(body, 'base64url').toString())
  } catch {
    return false
  }
  const algorithm = header.alg === 'ES256' ? 'sha256' : header.alg === 'EdDSA' ? null : undefined
  if (algorithm === undefined || header.kid !== credentials.keyId || claims.sub !== credentials.keyId)
    return false
  const signed = verify(
    algorithm,
    Buffer.from(input),
    { key: credentials.publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  )
  const route = `${method} ${url.host}${url.pathname}`
  return (
    signed &&
    claims.iss === 'cdp' &&
    typeof claims.nbf === 'number' &&
    typeof claims.exp === 'number' &&
    claims.nbf <= nowS + 5 &&
    nowS < claims.exp &&
    Array.isArray(claims.uris) &&
    claims.uris.includes(route)
  )
}

export function create(catalog: Catalog, credentials: Credentials) {
  const sessions = new Map<string, Session>()

  /** The API's answer to `method` on `url`, or `undefined` for a path that is not Coinbase's. */
  const api = (
    method: string,
    url: URL,
    authorization: string | undefined,
    body: unknown,
    transactions: Iterable<Protocol.Transaction>,
  ): [number, unknown] | undefined => {
    if (!url.pathname.startsWith('/onramp/v1/')) return undefined
    if (!verifyJwt(authorization, credentials, method, url, Math.floor(Date.now() / 1000)))
      return [401, { message: 'Unauthorized: the JWT does not verify' }]
    if (method === 'POST' && url.pathname === '/onramp/v1/token') return token(body)
    if (method === 'GET' && url.pathname === '/onramp/v1/buy/options') return [200, options()]
    if (method === 'POST' && url.pathname === '/onramp/v1/buy/quote') return quote(body)
    const byUser = /^\/onramp\/v1\/buy\/user\/([A-Za-z0-9_-]{1,100})\/transactions$/.exec(url.pathname)
    if (method === 'GET' && byUser) {
      const found = [...transactions]
        .filter((entry) => entry.kind === 'coinbase' && entry.externalTransactionId === byUser[1])
        .reverse()
      return [
        200,
        { transactions: found.map(transactionOf), nextPageKey: '', totalCount: String(found.length) },
      ]
    }
    return [404, { message: 'Not found' }]
  }

  const token = (body: unknown): [number, unknown] => {
    const request = body as {
      addresses?: { address?: unknown; blockchains?: unknown }[]
      assets?: unknown
      clientIp?: unknown
    }
    const [first] = Array.isArray(request?.addresses) ? request.addresses : []
    const blockchains = Array.isArray(first?.blockchains)
      ? first.blockchains.filter((entry): entry is string => typeof entry === 'string')
      : []
    if (typeof first?.address !== 'string' || blockchains.length === 0)
      return [400, { message: 'addresses: an address and its blockchains are required' }]
    if (typeof request.clientIp !== 'string' || !request.clientIp)
      return [400, { message: 'clientIp is required' }]
    const assets = Array.isArray(request.assets)
      ? request.assets.filter((entry): entry is string => typeof entry === 'string')
      : []
    const id = randomBytes(24).toString('base64url')
    sessions.set(id, {
      address: first.address,
      blockchains,
      assets,
      clientIp: request.clientIp,
      issuedAt: Date.now(),
    })
    return [200, { token: id, channel_id: '' }]
  }

  const options = () => {
    const symbols = [...new Set(catalog.crypto.map((entry) => entry.symbol))]
    return {
      paymentCurrencies: Protocol.fiatCurrencies.map((code) => ({
        id: code.toUpperCase(),
        limits: [
          { id: 'CARD', min: String(Protocol.limits.card.min), max: String(Protocol.limits.card.max) },
          {
            id: 'ACH_BANK_ACCOUNT',
            min: String(Protocol.limits.bank.min),
            max: String(Protocol.limits.bank.max),
          },
        ],
      })),
      purchaseCurrencies: symbols.map((symbol) => {
        const entries = catalog.crypto.filter((entry) => entry.symbol === symbol)
        return {
          id: randomBytes(8).toString('hex'),
          name: entries[0]?.name ?? symbol,
          symbol,
          networks: entries.map((entry) => ({
            name: entry.networkCode,
            displayName: entry.networkName,
            chainId: entry.chainId ?? '',
            contractAddress: entry.contractAddress ?? '',
          })),
        }
      }),
    }
  }

  const quote = (body: unknown): [number, unknown] => {
    const request = body as Record<string, unknown>
    const currency = catalog.bySymbol(
      String(request.purchaseCurrency ?? ''),
      String(request.purchaseNetwork ?? ''),
    )
    if (!currency) return [400, { message: 'This currency is not sold on this network' }]
    const fiat = String(request.paymentCurrency ?? 'USD').toLowerCase()
    const method = Protocol.paymentMethods[String(request.paymentMethod ?? 'CARD')] ?? 'card'
    const answer = catalog.quote(currency, fiat, Number(request.paymentAmount ?? 'NaN'), method)
    if (typeof answer === 'string') return [400, { message: answer }]
    const money = (value: string) => ({ value, currency: fiat.toUpperCase() })
    return [
      200,
      {
        coinbaseFee: money(answer.feeAmount),
        networkFee: money(answer.networkFeeAmount),
        paymentSubtotal: money(answer.baseCurrencyAmount),
        paymentTotal: money(answer.totalAmount),
        purchaseAmount: { value: answer.quoteCurrencyAmount, currency: currency.symbol },
        quoteId: randomBytes(12).toString('hex'),
      },
    ]
  }

  /**
   * The checkout a session token opens, once: an unknown, used or expired token (a changed URL among them)
   * opens nothing, and the network and asset the URL asks must be among the token's.
   */
  const open = (params: URLSearchParams): Checkout | string => {
    const id = params.get('sessionToken') ?? ''
    const session = sessions.get(id)
    sessions.delete(id)
    if (!session || Date.now() - session.issuedAt > tokenLifetimeMs) return Protocol.checkoutTexts.badSession
    const network = params.get('defaultNetwork') ?? session.blockchains[0] ?? ''
    const asset = params.get('defaultAsset') ?? session.assets[0] ?? ''
    const currency = catalog.bySymbol(asset, network)
    if (
      !session.blockchains.includes(network) ||
      (session.assets.length && !session.assets.includes(asset)) ||
      !currency
    )
      return Protocol.checkoutTexts.badSession
    return { address: session.address, currency, params }
  }

  return { api, open }
}

/** A transaction as Coinbase's transaction status API and webhooks write it. */
function transactionOf(transaction: Protocol.Transaction) {
  const status = {
    pending: 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS',
    completed: 'ONRAMP_TRANSACTION_STATUS_SUCCESS',
    failed: 'ONRAMP_TRANSACTION_STATUS_FAILED',
  }[transaction.status]
  const fiat = transaction.baseCurrencyCode.toUpperCase()
  return {
    transactionId: transaction.id,
    status,
    partnerUserRef: transaction.externalTransactionId,
    walletAddress: transaction.walletAddress,
    purchaseCurrency: transaction.symbol,
    purchaseNetwork: transaction.networkCode,
    purchaseAmount: { value: transaction.quoteCurrencyAmount, currency: transaction.symbol },
    paymentTotal: { value: transaction.baseCurrencyAmount, currency: fiat },
    coinbaseFee: { value: transaction.feeAmount, currency: fiat },
    networkFee: { value: transaction.networkFeeAmount, currency: fiat },
    txHash: transaction.cryptoTransactionId ?? '',
    failureReason: transaction.failureReason ?? 'FAILURE_REASON_UNSPECIFIED',
    createdAt: transaction.createdAt,
  }
}

/** A webhook of `transaction`'s state: its body and headers, the signature Hook0's. */
export function webhookOf(transaction: Protocol.Transaction, webhookSecret: string, nowS: number) {
  const eventType =
    transaction.status === 'completed'
      ? 'onramp.transaction.success'
      : transaction.status === 'failed'
        ? 'onramp.transaction.failed'
        : 'onramp.transaction.updated'
  const body = json({ eventType, ...transactionOf(transaction) }).toString()
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-hook0-id': randomBytes(12).toString('hex'),
  }
  return { body, headers: { ...headers, 'x-hook0-signature': signHook0(webhookSecret, headers, body, nowS) } }
}

/** Hook0's `X-Hook0-Signature` of `body` and the {@link signedHeaders} at `t` (unix seconds). */
function signHook0(secret: string, headers: Record<string, string>, body: string, t: number): string {
  const names = signedHeaders.join(' ')
  const values = signedHeaders.map((name) => headers[name] ?? '').join('.')
  const v1 = createHmac('sha256', secret).update(`${t}.${names}.${values}.${body}`).digest('hex')
  return `t=${t},h=${names},v1=${v1}`
}
