/**
 * What a chain family (EVM, Solana, Bitcoin) does for Send, behind one shape so the flow, its views and its
 * rules never ask which family they drive. A family builds the transaction, shows what it will do before
 * anything is signed (a simulation, or for Bitcoin the PSBT itself), has the connected wallet sign it, puts it
 * on chain and follows it until it settles. Each family is its own chunk, loaded when the visitor sends on it.
 */
import type { Caip, Request } from '@airlock/bridge-protocol'
import type { Network } from '../../shared/Network.ts'

/** What is sent: the network's own currency, or one of its tokens. */
export type Asset = {
  symbol: string
  decimals: number
  /** The token's contract (EVM) or mint (Solana); absent for the native currency. */
  address?: string | undefined
}

/** How a family reaches its chain. */
export type Chain = {
  network: Network
  /**
   * A JSON-RPC call on the network: its RPC URL when it has one, else the Airlock API's relay. Rejects with
   * {@link RpcError} when the node answers an error, with {@link SendFailure} `unavailable` when it cannot be
   * reached.
   */
  rpc(method: string, params: unknown): Promise<unknown>
  /**
   * The API's Esplora for a Bitcoin-family network (`/address/{a}/utxo`, `/fee-estimates`, `POST /tx` with
   * the raw transaction in hex): the answer's text. Rejects with {@link RpcError} (code = HTTP status,
   * message = the API's) on an error status.
   */
  esplora(path: string, body?: string): Promise<string>
}

/** The node answered a call with an error (a revert, insufficient funds, a refused broadcast). */
export class RpcError extends Error {
  override name = 'RpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

/**
 * Why a send cannot go on, with the text the visitor reads (`sendTexts`). `declined`: the wallet refused
 * (4001); `funds`: not enough for the amount and the fee; `chain`: the node refused or the simulation
 * failed; `unavailable`: the network could not be reached (nothing was sent).
 */
export class SendFailure extends Error {
  override name = 'SendFailure'
  constructor(
    readonly kind: 'declined' | 'funds' | 'chain' | 'unavailable' | 'invalid',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** A send the visitor filled in, amounts in the asset's base units. */
export type Draft = {
  /** The sending account (the connection's). */
  from: string
  /** Its public key where the family needs one to spend (a Bitcoin taproot account). */
  publicKey?: Uint8Array | undefined
  to: string
  asset: Asset
  amount: bigint
  /** Bitcoin only: the fee rate chosen, in sat/vB; the family's default (the next-block estimate) without. */
  feeRate?: number | undefined
}

/** One balance change the transaction makes, as the simulation (or the PSBT) shows it. */
export type BalanceChange = { address: string; asset: Asset; delta: bigint }

/** What the visitor sees before signing, and what is signed. */
export type Preview = {
  draft: Draft
  /** The network fee, in base units of the network's currency (an upper bound where it is estimated). */
  fee: bigint
  /** The balance changes, the sender's first; the fee is part of the sender's native change. */
  changes: BalanceChange[]
  /** Lines a family adds: Bitcoin's inputs, outputs and fee rate; an account the send creates on Solana. */
  details: { label: string; value: string }[]
  /** What submit signs, opaque to the flow. Submitting the same preview twice never sends twice. */
  payload: unknown
}

/** Runs a request on the connected wallet (through the host's bridge or WalletConnect). */
export type WalletRequest = (request: Request) => Promise<unknown>

export type Family = {
  namespace: Caip.Namespace
  /** Undefined when tokens can be sent to the address on the network; else the text that says why not. */
  checkAddress(address: string, network: Network): string | undefined
  /** The most the sender can send of the asset: its balance, less the network fee when it pays the fee. */
  max(chain: Chain, draft: Omit<Draft, 'amount' | 'to'> & { to?: string | undefined }): Promise<bigint>
  /** Builds the transaction and shows what it does; throws {@link SendFailure} (insufficient funds…). */
  preview(chain: Chain, draft: Draft): Promise<Preview>
  /**
   * Has the wallet sign the preview's transaction and broadcasts it; answers its id (hash, signature,
   * txid). Called again after a failure with the same preview, it cannot send twice: the EVM nonce is pinned,
   * a signed Solana or Bitcoin transaction is broadcast again as it is.
   */
  submit(chain: Chain, preview: Preview, wallet: WalletRequest): Promise<string>
  /** Resolves once the transaction is final on chain, or failed there. */
  settle(chain: Chain, id: string): Promise<'confirmed' | 'failed'>
  /** The fee rates the visitor may choose from, where the family lets them (Bitcoin: sat/vB). */
  feeRates?(chain: Chain): Promise<{ label: string; satPerVbyte: number }[]>
}
