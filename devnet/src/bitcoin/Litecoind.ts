/**
 * Runs Litecoin Core in regtest mode as the devnet's Bitcoin-family chain: its own datadir and generated
 * RPC password, loopback only, a funded wallet, a block every few seconds, and a `stop` that really ends
 * the process and removes the datadir.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Network } from 'bitcoinjs-lib'
import { choosePort, type Launched, launch, once, sleep, terminate, urlHost } from '../Process.ts'
import * as LitecoindBinary from './LitecoindBinary.ts'
import * as Regtest from './Regtest.ts'
import * as Rpc from './Rpc.ts'

export type StartOptions = {
  /** JSON-RPC port; 0 picks a free one. @default 19443 */
  rpcPort?: number
  /** Peer-to-peer port (bound, never dialled out); 0 picks a free one. @default 19444 */
  p2pPort?: number
  /** Interface to bind; loopback by default so a node with a funded wallet is never reachable from outside. */
  host?: string
  /** A block is mined this often while the node runs, so sent transactions confirm; 0 turns it off. @default 5_000 */
  mineEveryMs?: number
  /** How long to wait for the node to answer RPC. @default 30_000 */
  timeoutMs?: number
}

export type Instance = {
  /** `http://airlock:<password>@127.0.0.1:<port>`: Bitcoin Core's usual form, credentials included. */
  rpcUrl: string
  /** Calls a node (or wallet) RPC method; rejects with {@link Rpc.NodeError} when the node refuses. */
  rpc<T = unknown>(method: string, params?: readonly unknown[]): Promise<T>
  /** bitcoinjs-lib parameters of the chain ({@link Regtest.network}). */
  network: Network
  /** Read from the node: `getblockhash 0`. */
  genesisHash: string
  caipNetworkId: `bip122:${string}`
  /** Sends `amount` (in coins, e.g. `1.5` or `'0.001'`) from the node's wallet; resolves the txid. */
  fund(address: string, amount: number | string): Promise<string>
  /** Mines `count` blocks to the wallet right away; resolves their hashes. */
  mine(count?: number): Promise<string[]>
  /** Ends the node, resolves once it has exited and its datadir is gone; safe to call more than once. */
  stop(): Promise<void>
}

const defaultRpcPort = 19443
const defaultP2pPort = 19444
/** Past 100 confirmations a coinbase is spendable: 120 blocks leave 20 mature rewards (1,000 coins). */
const initialBlocks = 120
const walletName = 'airlock'
const defaultTimeoutMs = 30_000
const stopGraceMs = 10_000
const pollIntervalMs = 100

/**
 * Starts litecoind, creates and funds its wallet, and resolves once coinbase coins are spendable.
 * @throws when litecoind is not installed (the message names `apt-get install -y litecoind`), a port is taken,
 * or the node dies or does not answer in time
 * @example
 * const node = await Litecoind.start({ rpcPort: 0, p2pPort: 0 })
 * const txid = await node.fund('rltc1q…', 1)
 * await node.mine(1)
 * await node.stop()
 */
export async function start(options: StartOptions = {}): Promise<Instance> {
  const binary = LitecoindBinary.path()
  const host = options.host ?? '127.0.0.1'
  const rpcPort = await choosePort(host, options.rpcPort ?? defaultRpcPort)
  const p2pPort = await choosePort(host, options.p2pPort ?? defaultP2pPort)
  const auth = { user: 'airlock', password: randomBytes(16).toString('hex') }
  const datadir = await mkdtemp(join(tmpdir(), 'airlock-litecoind-'))
  const conf = join(datadir, 'litecoin.conf')
  // In the config file rather than argv, where every local user's `ps` would show the password.
  await writeFile(conf, `rpcuser=${auth.user}\nrpcpassword=${auth.password}\n`, { mode: 0o600 })
  const node = launch('litecoind', binary, nodeArgs({ datadir, conf, host, rpcPort, p2pPort }))
  const url = `http://${urlHost(host)}:${rpcPort}`
  const rpc = Rpc.client({ url, ...auth })
  let miner: Miner | undefined
  const stop = once(async () => {
    await miner?.stop()
    // SIGTERM is litecoind's clean shutdown (flushes the wallet); KILL only if it hangs.
    await terminate(node.child, stopGraceMs)
    await rm(datadir, { recursive: true, force: true })
  })
  try {
    await waitUntilReady(rpc, url, node, options.timeoutMs ?? defaultTimeoutMs)
    await rpc.call('createwallet', [walletName])
    const minerAddress = await rpc.call<string>('getnewaddress', ['miner', 'bech32'])
    const mine = (count = 1) => rpc.call<string[]>('generatetoaddress', [count, minerAddress])
    await mine(initialBlocks)
    const genesisHash = await rpc.call<string>('getblockhash', [0])
    miner = autoMine(mine, options.mineEveryMs ?? 5_000)
    return {
      rpcUrl: `http://${auth.user}:${auth.password}@${urlHost(host)}:${rpcPort}`,
      rpc: (method, params) => rpc.call(method, params),
      network: Regtest.network,
      genesisHash,
      caipNetworkId: Regtest.caipNetworkIdOf(genesisHash),
      fund: (address, amount) => rpc.call<string>('sendtoaddress', [address, amount]),
      mine,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

type ArgsInput = { datadir: string; conf: string; host: string; rpcPort: number; p2pPort: number }

function nodeArgs({ datadir, conf, host, rpcPort, p2pPort }: ArgsInput): string[] {
  const loopback = host === '127.0.0.1' || host === '::1' || host === 'localhost'
  return [
    '-regtest',
    `-datadir=${datadir}`,
    `-conf=${conf}`,
    ...['-server', '-txindex', '-fallbackfee=0.0002', '-printtoconsole=0'],
    // 1,000 keys of each kind by default take most of a second to derive when the wallet is created.
    '-keypool=50',
    ...[`-rpcbind=${host}`, `-rpcport=${rpcPort}`, '-rpcallowip=127.0.0.1'],
    // Off loopback the generated password is what guards the node.
    ...(loopback ? [] : ['-rpcallowip=0.0.0.0/0']),
    // `-connect=0` (no outbound peers) would also turn listening off unless `-listen=1` says otherwise.
    ...['-listen=1', `-bind=${host}`, `-port=${p2pPort}`, '-connect=0', '-listenonion=0', '-discover=0'],
    // MWEB (Litecoin's extension blocks) would activate at height 432 and then block mining on a
    // regtest without peg-ins; a start time that never comes keeps the chain plain Bitcoin.
    '-vbparams=mweb:9223372036854775807:9223372036854775807',
  ]
}

async function waitUntilReady(rpc: Rpc.Client, url: string, node: Launched, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    let lastError: unknown
    try {
      await rpc.call('getblockchaininfo')
      return
    } catch (error) {
      // -28: still loading (block index, wallet); anything else before it listens is a refused connection.
      if (error instanceof Rpc.NodeError && error.code !== -28) throw error
      lastError = error
    }
    // Checked after the call: litecoind may die while we wait, and its stderr says why.
    const failure = node.failure()
    if (failure) throw failure
    if (Date.now() > deadline) {
      const detail = node.stderr().trim() || String(lastError)
      throw new Error(`litecoind at ${url} did not answer within ${timeoutMs} ms: ${detail}`)
    }
    await sleep(pollIntervalMs)
  }
}

type Miner = { stop(): Promise<void> }

/** Mines one block every `everyMs`, never two at once; `stop` waits for the block in flight. */
function autoMine(mine: () => Promise<unknown>, everyMs: number): Miner {
  if (everyMs <= 0) return { stop: async () => {} }
  let inFlight: Promise<unknown> | undefined
  const timer = setInterval(() => {
    // A failed block (the node stopping under us) is not worth a crash; the next tick tries again.
    inFlight ??= mine()
      .catch(() => undefined)
      .finally(() => {
        inFlight = undefined
      })
  }, everyMs)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await inFlight
    },
  }
}
