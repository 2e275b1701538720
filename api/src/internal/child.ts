/**
 * A server in a child process, told to say where it listens over an IPC channel: the modal origin
 * (`features/modal-origin/Server.ts`) and the API (`Spawn.ts`) each run this way in the dev stack, and the
 * bench floods the API so. {@link announce} is the child's side, {@link spawn} the parent's.
 */
import { type ChildProcess, spawn as spawnChild } from 'node:child_process'

export type SpawnOptions = {
  /** What the child is called in errors: "The API exited (code 1): …". */
  name: string
  /** `node`'s arguments: the script and its flags. */
  args: string[]
  /** The child's environment. @default process.env */
  env?: NodeJS.ProcessEnv | undefined
  /** Called with the child at once, e.g. to kill it if this process exits first (devnet's `Reaper.track`). */
  track?: ((child: ChildProcess) => () => void) | undefined
  /**
   * How long to wait for the child to listen: a minute, what a machine busy with other work may take to start
   * one (the dev stack starts a dozen servers at once). @default 60_000
   */
  timeoutMs?: number | undefined
}

export type Spawned = { url: string; child: ChildProcess; stop(): Promise<void> }

const stopGraceMs = 3_000

/**
 * Runs `node …args` and resolves once the child sent `{ url }`. The child writes its errors to this
 * process's stderr and ends when this process does (its IPC channel closes).
 * @example
 * const api = await spawn({ name: 'The API', args: ['api/dist/server.js', '--config', path] })
 * await api.stop()
 */
export function spawn(options: SpawnOptions): Promise<Spawned> {
  const child = spawnChild(process.execPath, options.args, {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: options.env ?? process.env,
  })
  const untrack = options.track?.(child)
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000)
    process.stderr.write(chunk)
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let state: 'starting' | 'running' | 'stopping' = 'starting'
  const stop = async () => {
    state = 'stopping'
    // A child that never ran (no pid) has nothing to end, and will never report an exit.
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const escalate = setTimeout(() => child.kill('SIGKILL'), stopGraceMs)
      await exited
      clearTimeout(escalate)
    }
  }
  return new Promise<Spawned>((resolve, reject) => {
    const fail = (reason: string) => {
      if (state !== 'starting') return
      clearTimeout(timer)
      void stop().then(() => reject(new Error(`${options.name} ${reason}: ${stderr.trim() || 'no output'}`)))
    }
    const timer = setTimeout(() => fail('did not start in time'), options.timeoutMs ?? 60_000)
    child.once('error', (error) => fail(`could not start (${error.message})`))
    child.once('exit', (code, signal) => {
      untrack?.()
      const how = signal ?? `code ${code}`
      if (state === 'running') console.error(`[airlock] ${options.name} exited (${how})`)
      fail(`exited (${how})`)
    })
    child.once('message', (message: { url?: unknown }) => {
      if (typeof message.url !== 'string') return fail('said something unexpected')
      clearTimeout(timer)
      state = 'running'
      resolve({ url: message.url, child, stop })
    })
  })
}

/**
 * The child's side: when a parent started it with an IPC channel, tells it `url` and stops once the parent
 * is gone (the channel's end is the only news of a parent killed outright). Whether there was a parent.
 */
export function announce(url: string, stop: () => void): boolean {
  if (!process.send) return false
  process.once('disconnect', stop)
  process.send({ url })
  return true
}
