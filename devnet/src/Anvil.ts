/**
 * Runs one local anvil node as a child process: deterministic accounts, loopback only, and a `stop` that
 * really ends the process.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { mnemonic } from './Accounts.ts'
import * as AnvilBinary from './AnvilBinary.ts'
import * as Reaper from './Reaper.ts'

export type StartOptions = {
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
const stderrLimit = 4_000
// Linux kills the node if we die without running any handler (SIGKILL, OOM); setpriv execs, so the pid
// we hold is anvil's own and signals reach it directly.
const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find(
  (p) => process.platform === 'linux' && existsSync(p),
)

/**
 * Starts anvil and resolves once it answers JSON-RPC with the requested chain id.
 * @example
 * const anvil = await Anvil.start({ port: 8545, chainId: 31337 })
 * await anvil.stop()
 */
export async function start(options: StartOptions): Promise<Instance> {
  const host = options.host ?? '127.0.0.1'
  const rpcUrl = `http://${urlHost(host)}:${options.port}`
  await assertPortFree(host, options.port)
  const node = launch(anvilArgs(options, host))
  const stop = once(() => terminate(node.child))
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

type Launched = { child: ChildProcess; stderr: () => string; failure: () => Error | undefined }

function launch(args: string[]): Launched {
  const binary = AnvilBinary.path()
  const child = setpriv
    ? spawn(setpriv, ['--pdeathsig', 'KILL', '--', binary, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  const untrack = Reaper.track(child)
  let stderr = ''
  let failure: Error | undefined
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-stderrLimit)
  })
  child.once('error', (error) => {
    untrack()
    failure ??= new Error(`could not run anvil (${binary}): ${error.message}`)
  })
  child.once('exit', (code, signal) => {
    untrack()
    failure ??= new Error(`anvil exited (${signal ?? `code ${code}`}): ${stderr.trim() || 'no output'}`)
  })
  return { child, stderr: () => stderr, failure: () => failure }
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

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const escalate = setTimeout(() => child.kill('SIGKILL'), stopGraceMs)
  await exited
  clearTimeout(escalate)
}

/** Fails fast with a clear message instead of letting anvil die, or worse, polling someone else's node. */
function assertPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE'
          ? 'is already in use; stop whatever holds it or pick other ports'
          : `cannot be bound: ${error.message}`
      reject(new Error(`port ${port} on ${host} ${reason}`))
    })
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve()))
  })
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | undefined
  return () => {
    result ??= fn()
    return result
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
