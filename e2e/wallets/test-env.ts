/** Processes the wallet self-test needs: a blank-page HTTP server and an anvil node. */
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { connect } from 'node:net'
import { fileURLToPath } from 'node:url'

export interface RunningServer {
  /** http://localhost:<port>/ */
  url: string
  close(): Promise<void>
}

const BLANK_PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>wallet test</title></head><body></body></html>'

/** Serves the same blank page for every path on a free loopback port. */
export async function startBlankPageServer(): Promise<RunningServer> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(BLANK_PAGE)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('HTTP server has no TCP address')
  return {
    url: `http://localhost:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export interface RunningAnvil {
  rpcUrl: string
  stop(): Promise<void>
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * Starts anvil in its own process group: `npx` and anvil's Node wrapper each add a process layer, and
 * signalling the whole group is the only way to be sure the native node dies with them.
 */
export async function startAnvil(port: number, chainId: number): Promise<RunningAnvil> {
  // Refuse rather than silently reuse someone else's node, whose state and nonces we don't control.
  if (await portInUse(port)) throw new Error(`port ${port} is already in use; is another anvil running?`)
  const child = spawn('npx', ['anvil', '--port', String(port), '--chain-id', String(chainId)], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output: string[] = []
  const keep = (chunk: Buffer): void => {
    output.push(chunk.toString())
    if (output.length > 50) output.shift()
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  // Last resort if the test runner exits without afterAll (the detached group would not get its signals).
  const killOnExit = (): void => signalGroup(child.pid ?? 0, 'SIGKILL')
  process.once('exit', killOnExit)
  child.once('exit', () => process.off('exit', killOnExit))
  const rpcUrl = `http://127.0.0.1:${port}`
  try {
    await waitForRpc(rpcUrl, child)
  } catch (error) {
    await stopProcessGroup(child)
    throw new Error(`anvil did not start: ${String(error)}\n${output.join('')}`)
  }
  return { rpcUrl, stop: () => stopProcessGroup(child) }
}

async function waitForRpc(rpcUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`)
    if (await rpcAnswers(rpcUrl)) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error('timed out after 30 s')
}

async function rpcAnswers(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    })
    return response.ok
  } catch {
    return false
  }
}

async function stopProcessGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  signalGroup(pid, 'SIGTERM')
  const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
  // The wrapper can exit before the native child; make sure nothing of the group survives.
  signalGroup(pid, 'SIGKILL')
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  if (pid <= 0) return // -0 or a negative pid would signal our own or every process group
  try {
    process.kill(-pid, signal)
  } catch {
    // ESRCH: the group is already gone.
  }
}
