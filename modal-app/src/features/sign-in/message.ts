/**
 * Sign in with X, the modal's half: build the message for the connected account (EIP-4361 for EVM,
 * CAIP-122 for Solana and Bitcoin), have the wallet sign it, and let the API verify it and open a session.
 * The domain and URI are the host page's origin as the browser reported it at the handshake, never a value
 * the host sent. Loaded on demand, with the sign-in view.
 */
import { type Caip, Errors, type Request, type Schema, Siwx } from '@airlock/bridge-protocol'
import type * as Api from '../../api/Api.ts'
import type { Connection } from '../../core/Connection.ts'
import * as base58 from '../../shared/encoding/base58.ts'
import * as base64 from '../../shared/encoding/base64.ts'

/** The text a declined signature shows. */
export const declined = 'Signature declined'

export type SignInOptions = {
  connection: Connection
  /** The host page's origin, from the handshake. */
  origin: string
  statement?: string | undefined
  resources?: string[] | undefined
  /** Seconds the session lasts. @default 86_400 */
  expiresIn?: number | undefined
  api: Pick<Api.Client, 'nonce' | 'signIn'>
  /** Runs a request on the connection's wallet. */
  sign: (request: Request) => Promise<unknown>
  now: () => number
}

/**
 * @example
 * const session = await signIn({ connection, origin, api, sign: (request) => walletRequest(connection, request), now: Date.now })
 */
export async function signIn(options: SignInOptions): Promise<Schema.Session> {
  const { connection, now } = options
  const account = connection.accounts[0]?.address
  if (!account) throw new Errors.InternalError('No ActiveCaipAddress found')
  // EIP-4361 takes the EIP-55 spelling only, and a wallet may answer in lower case (as MetaMask does).
  const address = connection.chainId.startsWith('eip155:') ? Siwx.checksumAddress(account) : account
  const page = new URL(options.origin)
  const nonce = await options.api.nonce()
  const text = Siwx.format({
    domain: page.host,
    uri: page.origin,
    version: '1',
    nonce,
    accountAddress: address,
    chainId: connection.chainId,
    issuedAt: new Date(now()).toISOString(),
    expirationTime: new Date(now() + (options.expiresIn ?? 86_400) * 1000).toISOString(),
    ...(options.statement ? { statement: options.statement } : {}),
    ...(options.resources?.length ? { resources: options.resources } : {}),
  })
  const signature = await signatureOf(options.sign, connection.chainId, address, text)
  return options.api.signIn(text, signature)
}

/** The wallet's signature of the text, encoded the way the API reads it for the namespace. */
async function signatureOf(
  sign: SignInOptions['sign'],
  chainId: Caip.ChainId,
  address: string,
  text: string,
): Promise<string> {
  const message = new TextEncoder().encode(text)
  const namespace = chainId.split(':')[0] as Caip.Namespace
  if (namespace === 'eip155') {
    const hex = `0x${[...message].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`
    const signature = await sign({ namespace, method: 'personal_sign', params: [hex, address] })
    if (typeof signature !== 'string')
      throw new Errors.InternalError('The wallet answered personal_sign with no signature.')
    return signature
  }
  const request: Request =
    namespace === 'solana'
      ? { namespace, method: 'solana:signMessage', params: { address, message } }
      : { namespace: 'bip122', method: 'bitcoin:signMessage', params: { address, message } }
  const result = (await sign(request)) as { signature?: unknown }
  if (!(result?.signature instanceof Uint8Array))
    throw new Errors.InternalError(`The wallet answered ${request.method} with no signature.`)
  return namespace === 'solana' ? base58.encode(result.signature) : base64.encode(result.signature)
}
