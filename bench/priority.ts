/**
 * The dev stack's processes (chains, bundlers, relays, the dev API) at a lower scheduling priority while the
 * production server is flooded. A deployment does not share its machine with them, and on the bench's two
 * shared cores their block production took CPU from the server being measured. Only the stack is lowered:
 * the production server (and its workers) and the load generator run at the priority they started with.
 * The balance route reads chain A's anvil, which now waits its turn behind the server, as a remote RPC
 * on its own machine would not.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

/** Lowered by this much (`nice` adds it): the stack still runs, after the server. */
const lowerBy = 10

/** Every process under `pid` (through all of its threads' children), not `pid` itself. */
function descendants(pid: number): number[] {
  let tasks: string[]
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return [] // ended meanwhile
  }
  const children = tasks.flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean)
    } catch {
      return []
    }
  })
  return children.map(Number).flatMap((child) => [child, ...descendants(child)])
}

/**
 * Lowers this process's other descendants, those of `spared` excepted; `restore()` sets each back.
 * @example
 * const lowered = lowerStack([api.child.pid])
 * try { await flood() } finally { lowered.restore() }
 */
export function lowerStack(spared: readonly (number | undefined)[]): {
  count: number
  niceDelta: number
  restore(): void
} {
  const keep = new Set(spared.flatMap((pid) => (pid ? [pid, ...descendants(pid)] : [])))
  const changed: [number, number][] = []
  for (const pid of descendants(process.pid)) {
    if (keep.has(pid)) continue
    try {
      const was = getPriority(pid)
      setPriority(pid, Math.min(19, was + lowerBy))
      changed.push([pid, was])
    } catch {
      // Ended meanwhile.
    }
  }
  return {
    count: changed.length,
    niceDelta: lowerBy,
    restore() {
      for (const [pid, was] of changed)
        try {
          setPriority(pid, was)
        } catch {
          // Ended meanwhile.
        }
    },
  }
}
