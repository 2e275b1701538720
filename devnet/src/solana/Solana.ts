/**
 * The local Solana chain for `npm start` and the tests: a JSON-RPC + WebSocket pubsub node over litesvm
 * (there is no validator binary here), with slots that advance on a timer so transactions go processed →
 * confirmed → finalized, a faucet, and a USDC-like SPL mint at a fixed address.
 *
 * Modules: `Bank` (state and execution), `Clock` (slots, blockhashes), `Ledger` (history), `Message` (wire
 * transactions, fees), `Tokens`/`Encoding`/`Parsed` (the node's account and transaction shapes), `Methods` and
 * `methods/` (JSON-RPC), `PubSub` (subscriptions), `Server` (listeners), `Seed` (faucet, mint, funding).
 */
import { createHash } from 'node:crypto'
import { type Address, getBase58Decoder } from '@solana/kit'
import { urlHost } from '../Process.ts'
import { Bank } from './Bank.ts'
import * as Methods from './Methods.ts'
import { PubSub } from './PubSub.ts'
import * as Seed from './Seed.ts'
import * as Server from './Server.ts'

export type { Amounts } from './Seed.ts'
export { faucetAddress, lamportsPerSol, usdcDecimals, usdcMint } from './Seed.ts'

export type StartOptions = {
  /** JSON-RPC port; 0 picks a free one (with a free successor for the WebSocket). @default 8899 */
  port?: number
  /** Pubsub port. @default port + 1, where web3.js's `Connection` looks for it */
  wsPort?: number
  /** Interface to bind; loopback by default, since the faucet's key is public. */
  host?: string
  /** Length of a slot: a new blockhash each time, and the pace of confirmations. @default 400 */
  slotMs?: number
  /** Slots behind the tip at which a transaction counts as finalized. @default 32, as on the real cluster */
  finalizedDepth?: number
  /** Told about internal errors a request hit (answered -32603); unset, they go nowhere. */
  onError?: (error: unknown) => void
}

export type Instance = {
  /** e.g. `http://127.0.0.1:8899`: pass it to `new Connection(rpcUrl)` or `createSolanaRpc(rpcUrl)`. */
  rpcUrl: string
  /** e.g. `ws://127.0.0.1:8900`: for `createSolanaRpcSubscriptions(wsUrl)`. */
  wsUrl: string
  genesisHash: string
  usdcMint: Address
  faucet: Address
  /** A faucet transfer; resolves with its signature once it has landed (processed). */
  airdrop(address: Address, lamports: bigint): Promise<string>
  /** SOL and USDC for each address (100 SOL and 1,000,000 USDC unless told); one signature per address. */
  fund(addresses: readonly Address[], amounts?: Seed.Amounts): Promise<string[]>
  /** Stops the clock and both listeners; safe to call more than once. */
  stop(): Promise<void>
}

export const defaultPort = 8899
export const defaultSlotMs = 400

/** Fixed, so the chain's CAIP-2 id (`solana:` + its first 32 characters) is the same on every run. */
export const genesisHash = getBase58Decoder().decode(
  createHash('sha256').update('airlock devnet solana genesis').digest(),
)
export const caipNetworkId = `solana:${genesisHash.slice(0, 32)}`

/**
 * Starts the chain, creates the USDC mint and resolves once both ports accept connections.
 * @example
 * const solana = await Solana.start({ port: 0 })
 * const connection = new Connection(solana.rpcUrl, 'confirmed')
 * await solana.fund([wallet.address])
 * await solana.stop()
 */
export async function start(options: StartOptions = {}): Promise<Instance> {
  const host = options.host ?? '127.0.0.1'
  const bank = new Bank({ finalizedDepth: BigInt(options.finalizedDepth ?? 32) })
  const keys = await Seed.keys()
  await Seed.genesis(bank, keys)
  const airdrop = (address: Address, lamports: bigint) => Seed.airdrop(bank, keys, address, lamports)
  const pubsub = new PubSub(bank)
  const methods = Methods.bind({ bank, genesisHash, airdrop })
  const listening = await Server.listen({
    host,
    port: options.port ?? defaultPort,
    wsPort: options.wsPort,
    methods,
    pubsub,
    onError: options.onError,
  }).catch((error: unknown) => {
    pubsub.close()
    throw error
  })
  const clock = setInterval(() => {
    try {
      bank.tick()
    } catch (error) {
      // A subscriber's failure must not stop time for everyone else.
      options.onError?.(error)
    }
  }, options.slotMs ?? defaultSlotMs)
  let stopping: Promise<void> | undefined
  const stop = () => {
    stopping ??= (async () => {
      clearInterval(clock)
      pubsub.close()
      await listening.stop()
    })()
    return stopping
  }
  return {
    rpcUrl: `http://${urlHost(host)}:${listening.port}`,
    wsUrl: `ws://${urlHost(host)}:${listening.wsPort}`,
    genesisHash,
    usdcMint: Seed.usdcMint,
    faucet: Seed.faucetAddress,
    airdrop,
    fund: (addresses, amounts) => Seed.fund(bank, keys, addresses, amounts),
    stop,
  }
}
