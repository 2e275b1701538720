/**
 * Makes sure child processes die with this process, so a crashed test run or a closed terminal never
 * leaves an anvil holding its port.
 */
import type { ChildProcess } from 'node:child_process'

const children = new Set<ChildProcess>()
const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

function killAll(): void {
  for (const child of children) child.kill('SIGKILL')
  children.clear()
}

function onSignal(signal: NodeJS.Signals): void {
  // Another listener owns shutdown (e.g. the CLI stopping gracefully); it will stop the children itself.
  if (process.listenerCount(signal) > 1) return
  killAll()
  uninstall()
  // With no listener left, re-raising gives the default "die by signal" exit the user asked for.
  process.kill(process.pid, signal)
}

function install(): void {
  process.on('exit', killAll)
  for (const signal of signals) process.on(signal, onSignal)
}

function uninstall(): void {
  process.off('exit', killAll)
  for (const signal of signals) process.off(signal, onSignal)
}

/**
 * Kills `child` if this process exits first; the returned function forgets it once it has stopped.
 * @example
 * const untrack = Reaper.track(child)
 * child.once('exit', untrack)
 */
export function track(child: ChildProcess): () => void {
  if (children.size === 0) install()
  children.add(child)
  return () => {
    if (!children.delete(child)) return
    if (children.size === 0) uninstall()
  }
}
