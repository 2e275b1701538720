/**
 * Runs one local anvil node as a child process: deterministic accounts, loopback only, and a `stop` that
 * really ends the process.
 */
import { mnemonic } from './Accounts.ts'
import * as AnvilBinary from './AnvilBinary.ts'
import { choosePort, type Launched, launch, once, sleep, terminate, urlHost } from './Process.ts'

export type StartOptions = {
  /** 0 picks a free one (tests). */
  port: number
  chainId: number
  /** Interface to bind; loopback by default so a devnet with well-known keys is never reachable from outside. */
  host?: string
  /** How long to wait for the node to answer `eth_chainId`. */
  timeoutMs?: number
}

export type Instance = {
  rpcUrl: string
  chainId: number
  /** Ends the node and resolves once it has exited; safe to call more than once. */
  stop(): Promise<void>
}

const defaultTimeoutMs = 15_000
const stopGraceMs = 3_000
const pollIntervalMs = 50

/**
 * Starts anvil and resolves once it answers JSON-RPC with the requested chain id.
 * @example
 * const anvil = await Anvil.start({ port: 8545, chainId: 31337 })
 * await anvil.stop()
 */
export async function start(options: StartOptions): Promise<Instance> {
  const host = options.host ?? '127.0.0.1'
  const port = await choosePort(host, options.port)
  const rpcUrl = `http://${urlHost(host)}:${port}`
  const node = launch('anvil', AnvilBinary.path(), anvilArgs({ ...options, port }, host))
  const stop = once(() => terminate(node.child, stopGraceMs))
  try {
    await waitUntilReady(rpcUrl, options.chainId, node, options.timeoutMs ?? defaultTimeoutMs)
  } catch (error) {
    await stop()
    throw error
  }
  return { rpcUrl, chainId: options.chainId, stop }
}

function anvilArgs(options: StartOptions, host: string): string[] {
  // Spelled out rather than left to anvil's defaults so accounts stay the same across anvil versions.
  return [
    ...['--host', host, '--port', String(options.port), '--chain-id', String(options.chainId)],
    ...['--mnemonic', mnemonic, '--accounts', '10', '--balance', '10000'],
    '--silent',
  ]
}

async function waitUntilReady(
  rpcUrl: string,
  chainId: number,
  node: Launched,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const answered = await queryChainId(rpcUrl)
    // Checked after the query: anvil may die while we wait, and its stderr says why (bad flag, port race).
    const failure = node.failure()
    if (failure) throw failure
    if (answered === chainId) return
    if (answered !== undefined) throw new Error(`${rpcUrl} answered chain ${answered}, expected ${chainId}`)
    if (Date.now() > deadline) {
      throw new Error(`anvil at ${rpcUrl} did not answer within ${timeoutMs} ms: ${node.stderr().trim()}`)
    }
    await sleep(pollIntervalMs)
  }
}

async function queryChainId(rpcUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    })
    const body: { result?: unknown } = await response.json()
    return typeof body.result === 'string' ? Number(body.result) : undefined
  } catch {
    // Not listening yet.
    return undefined
  }
}
