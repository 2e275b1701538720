/** Figures of a sample. */

/** The `p`th percentile (nearest rank) of `samples`. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/** Rounded to the microsecond, for figures in ms. */
export const round = (n: number) => Math.round(n * 1000) / 1000
