/**
 * The slowest tests of a run, printed at its end and kept in `test-results/slowest-<suite>.txt`, where
 * `.ci/run` prints them again beside its total: what to look at first when the suite outgrows its budget.
 * The vitest and Playwright reporters beside this feed it.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export type Timed = { ms: number; name: string }

const results = fileURLToPath(new URL('../../test-results/', import.meta.url))

/** The `count` longest of `rows` as lines: seconds, then the name. */
function slowest(rows: readonly Timed[], count = 10): string[] {
  return [...rows]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map(({ ms, name }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`)
}

/** Prints and keeps the report of one suite (`unit`, `e2e`), each section its slowest 10. */
export function report(suite: string, sections: Record<string, readonly Timed[]>): void {
  const text = Object.entries(sections)
    .map(([title, rows]) => [`Slowest ${title} (${suite}):`, ...slowest(rows)].join('\n'))
    .join('\n\n')
  console.log(`\n${text}\n`)
  mkdirSync(results, { recursive: true })
  writeFileSync(`${results}slowest-${suite}.txt`, `${text}\n`)
}
