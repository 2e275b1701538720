/**
 * Runs Pimlico's Alto, an ERC-4337 bundler, for one devnet chain as a child process: the EntryPoints v0.8
 * and v0.7 that `Devnet.start` deploys; executor and utility accounts of fresh keys funded with
 * `anvil_setBalance` (never anvil's default accounts, whose nonces the devnet's deployments and the tests
 * own); bound to the stack's interface; and a `stop` that really ends it.
 */
import { createRequire } from 'node:module'
import { devNull } from 'node:os'
import { dirname, join } from 'node:path'
import { type Address, type Hex, numberToHex, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { accountAbstraction } from '../Chains.ts'
import type * as Devnet from '../Devnet.ts'
import { choosePort, type Launched, launch, once, sleep, terminate, urlHost } from '../Process.ts'
import { paymasterSignerKey } from './AccountAbstraction.ts'

/** The bundlers' ports on chain A and chain B. */
const defaultPorts = [4337, 4338] as const

export type StartOptions = {
  /** The chain's node; it must have the EntryPoints and accept `anvil_setBalance`. */
  rpcUrl: string
  /** 0 picks a free one (tests). */
  port: number
  /** Interface to bind; loopback by default, as the chains'. */
  host?: string | undefined
  /** How long to wait for the bundler to answer. @default 60_000 */
  timeoutMs?: number | undefined
}

export type Instance = {
  /** The bundler's JSON-RPC (ERC-4337's `eth_sendUserOperation`…). */
  url: string
  /** The EntryPoints it serves, v0.8 first. */
  entryPoints: readonly Address[]
  /** Ends the bundler and resolves once it has exited; safe to call more than once. */
  stop(): Promise<void>
}

/** What the executor (it pays for bundles) and the utility account (it deploys Alto's simulation contracts) get. */
const funding = parseEther('1000')

// Alto spends most of its start deploying its simulation contracts; two bundlers and two chains share 2 cores.
const defaultTimeoutMs = 60_000
const stopGraceMs = 5_000
const pollIntervalMs = 100

/**
 * Starts Alto on the chain at `rpcUrl` and resolves once it answers `eth_supportedEntryPoints`.
 * @example
 * const bundler = await Bundler.start({ rpcUrl: 'http://127.0.0.1:8545', port: 4337 })
 * await bundler.stop()
 */
export async function start(options: StartOptions): Promise<Instance> {
  const host = options.host ?? '127.0.0.1'
  const port = await choosePort(host, options.port)
  const url = `http://${urlHost(host)}:${port}`
  const [executor, utility] = [generatePrivateKey(), generatePrivateKey()]
  await fund(options.rpcUrl, [executor, utility])
  const served = [accountAbstraction.entryPoint08, accountAbstraction.entryPoint07]
  const node = launch(
    'alto',
    process.execPath,
    ['--import', bindTo(host), cliPath(), ...args(options.rpcUrl, port, served)],
    {
      ALTO_EXECUTOR_PRIVATE_KEYS: executor,
      ALTO_UTILITY_PRIVATE_KEY: utility,
      // Alto reads a `.env` in its working directory and reports to Sentry when told to: neither, here.
      DOTENV_CONFIG_PATH: devNull,
      SENTRY_DSN: '',
    },
  )
  const stop = once(() => terminate(node.child, stopGraceMs))
  try {
    await waitUntilReady(url, node, options.timeoutMs ?? defaultTimeoutMs)
  } catch (error) {
    await stop()
    throw error
  }
  return { url, entryPoints: served, stop }
}

/**
 * A bundler for each devnet chain, A's on `ports[0]`, B's on `ports[1]`; each `stop` goes to `onStarted` as
 * soon as it runs, so a stack that fails half-way still stops what did start.
 */
export function startAll(
  devnet: Devnet.Instance,
  options: {
    host?: string | undefined
    ports?: readonly [number, number]
    onStarted(stop: () => Promise<void>): void
  },
): Promise<Instance[]> {
  const ports = options.ports ?? defaultPorts
  return Promise.all(
    devnet.chains.map(async (chain, index) => {
      const bundler = await start({ rpcUrl: chain.rpcUrl, port: ports[index] ?? 0, host: options.host })
      options.onStarted(bundler.stop)
      return bundler
    }),
  )
}

/**
 * What the API's configuration says of a devnet chain with `bundler` (its `accountAbstraction` block): the
 * bundler, and the devnet's verifying paymaster, signed for with its dev key.
 */
export function apiConfig(bundler: Instance | undefined) {
  if (!bundler) return undefined
  return {
    bundlerUrl: bundler.url,
    entryPoints: [...bundler.entryPoints],
    paymaster: { address: accountAbstraction.paymaster, signerKey: paymasterSignerKey },
  }
}

function args(rpcUrl: string, port: number, served: readonly Address[]): string[] {
  return [
    ...['--entrypoints', served.join(','), '--rpc-url', rpcUrl, '--port', String(port)],
    // Safe mode traces validation (ERC-7562's opcode rules) with debug_traceCall's JS tracer, which anvil lacks.
    ...['--safe-mode', 'false'],
    // anvil mines each transaction at once: polling for receipts every 25 ms (a quarter of this) is what
    // a user operation's inclusion waits on.
    ...['--block-time', '100', '--min-bundle-interval', '50'],
    // The utility account watches its own balance every 15 s to alert an operator; no one reads it here.
    ...['--utility-wallet-monitor', 'false', '--log-level', 'warn'],
    // Bundles tip what the network asks, not most of what their operations pay (Alto's default keeps 10%):
    // anvil suggests the last block's lowest tip, one transaction a block, so a bundle tipping what viem's
    // clients offer (twice the suggestion) would double the suggestion with each operation, past any
    // sponsorship's tip cap within a few.
    ...['--bundler-initial-commission', '100'],
  ]
}

/**
 * A preload that binds Alto's server to `host`: it always listens on every interface (its server has no
 * host option), and a bundler holding funded keys belongs on the interface the stack's nodes use.
 */
function bindTo(host: string): string {
  const source = `import net from 'node:net'
const listen = net.Server.prototype.listen
net.Server.prototype.listen = function (...args) {
  const [options] = args
  if (options && typeof options === 'object' && options.host === '0.0.0.0') args[0] = { ...options, host: ${JSON.stringify(host)} }
  return listen.apply(this, args)
}`
  return `data:text/javascript,${encodeURIComponent(source)}`
}

/**
 * Alto's CLI script, run with this Node: found from the package's entry (its `exports` hide `package.json`),
 * so a hoisted or nested install both work. `ALTO_CLI` overrides the lookup.
 */
function cliPath(): string {
  const override = process.env.ALTO_CLI
  if (override) return override
  const entry = createRequire(import.meta.url).resolve('@pimlico/alto')
  // The entry is `<package>/esm/index.js`; the `alto` bin is `<package>/esm/cli/alto.js`.
  return join(dirname(entry), 'cli', 'alto.js')
}

async function fund(rpcUrl: string, keys: readonly Hex[]): Promise<void> {
  for (const key of keys) {
    const answer = await rpc(rpcUrl, 'anvil_setBalance', [
      privateKeyToAccount(key).address,
      numberToHex(funding),
    ])
    if (answer.error)
      throw new Error(`could not fund the bundler's accounts at ${rpcUrl}: ${answer.error.message}`)
  }
}

async function waitUntilReady(url: string, node: Launched, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const answered = await rpc(url, 'eth_supportedEntryPoints', []).catch(() => undefined)
    // Checked after the query: Alto dies at start on a chain without the EntryPoints, and its stderr says so.
    const failure = node.failure()
    if (failure) throw failure
    if (Array.isArray(answered?.result)) return
    if (Date.now() > deadline)
      throw new Error(`alto at ${url} did not answer within ${timeoutMs} ms: ${node.stderr().trim()}`)
    await sleep(pollIntervalMs)
  }
}

type Answer = { result?: unknown; error?: { message: string } }

async function rpc(url: string, method: string, params: readonly unknown[]): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(2_000),
  })
  return (await response.json()) as Answer
}
