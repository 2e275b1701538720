/**
 * What every node the devnet runs as a child process needs (anvil, litecoind, alto): a launch that dies with us, a
 * stop that really ends it, a port checked before it is taken, and a URL host for the interface it binds.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import * as Reaper from './Reaper.ts'

const stderrLimit = 4_000
// Linux kills the node if we die without running any handler (SIGKILL, OOM); setpriv execs, so the pid we
// hold is the node's own and signals reach it directly.
const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find(
  (p) => process.platform === 'linux' && existsSync(p),
)

/** A running node: its process, the tail of its stderr, and why it ended, once it has. */
export type Launched = { child: ChildProcess; stderr: () => string; failure: () => Error | undefined }

/**
 * Runs `binary` with `args`, its stderr kept (the last 4,000 characters) for error messages. `env` is added
 * to ours: secrets go there, never in `args`, which every local user's `ps` shows.
 * @example const node = Process.launch('anvil', anvilPath, ['--port', '8545'])
 */
export function launch(
  name: string,
  binary: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Launched {
  const options: SpawnOptions = { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } }
  const child = setpriv
    ? spawn(setpriv, ['--pdeathsig', 'KILL', '--', binary, ...args], options)
    : spawn(binary, args, options)
  const untrack = Reaper.track(child)
  let stderr = ''
  let failure: Error | undefined
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-stderrLimit)
  })
  child.once('error', (error) => {
    untrack()
    failure ??= new Error(`could not run ${name} (${binary}): ${error.message}`)
  })
  child.once('exit', (code, signal) => {
    untrack()
    failure ??= new Error(`${name} exited (${signal ?? `code ${code}`}): ${stderr.trim() || 'no output'}`)
  })
  return { child, stderr: () => stderr, failure: () => failure }
}

/** SIGTERM (the node's clean shutdown), SIGKILL after `graceMs`; resolves once it has exited. */
export async function terminate(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const escalate = setTimeout(() => child.kill('SIGKILL'), graceMs)
  await exited
  clearTimeout(escalate)
}

/**
 * `port` if it is free, or a free ephemeral one for 0. A taken port fails fast with a clear message instead
 * of letting the node die, or worse, polling someone else's.
 */
export function choosePort(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'EADDRINUSE'
          ? 'is already in use; stop whatever holds it or pick other ports'
          : `cannot be bound: ${error.message}`
      reject(new Error(`port ${port} on ${host} ${reason}`))
    })
    server.listen({ host, port, exclusive: true }, () => {
      const address = server.address()
      const chosen = typeof address === 'object' && address ? address.port : port
      server.close(() => resolve(chosen))
    })
  })
}

/** How a URL names the interface a node binds: all interfaces are reached on loopback. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

/** `fn`, run once however often it is called: an idempotent stop. */
export function once(fn: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | undefined
  return () => {
    result ??= fn()
    return result
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
