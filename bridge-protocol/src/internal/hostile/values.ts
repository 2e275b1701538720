/**
 * Random values of every kind structured clone carries, from a seed: the raw material of the hostile
 * messages (test support, imported by no build).
 */

export type Random = {
  next(): number
  int(n: number): number
  pick<T>(items: readonly T[]): T
  chance(p: number): boolean
}

/** mulberry32: tiny, fast, and the same sequence in Node and every browser. */
export function random(seed: number): Random {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  return { next, int, pick: (items) => items[int(items.length)] as never, chance: (p) => next() < p }
}

const max = Number.MAX_VALUE
const numbers = [0, -0, 1, -1, 1.5, Number.NaN, Infinity, -Infinity, max, -max, Number.MIN_VALUE, 2 ** 53 + 2]
const names =
  'airlock:hello airlock:welcome airlock:refused APPLY RAW HANDLER proxy throw __proto__ constructor'
const strings = [
  ...`${names} prototype then toString eip155:1 demo 1 NaN javascript:alert(1)`.split(' '),
  ...['', ' ', '\u0000', '\uD800', '\uDFFF\uD800', '\u202E', '😀'.repeat(40), '<img src=x onerror=alert(1)>'],
  ...['data:image/svg+xml,<svg/>', 'x'.repeat(65), 'x'.repeat(129)],
]
// No `id` and no `type`: a random object is never mistaken for a call or a hello.
const keys = [
  'a',
  'data',
  'value',
  'path',
  'method',
  'params',
  'namespace',
  '0',
  '',
  'length',
  'then',
  'toJSON',
]

/** What a successful prototype pollution would leave on `Object.prototype`. */
export const polluted = () => ({ polluted: 'yes' })

/** Sets an own key, even `__proto__`, as a structured clone keeps it (a literal would set the prototype). */
export function own(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  return Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

export type Values = ReturnType<typeof values>

/** Values nested up to a depth, with rare deep (up to 1,500 levels), huge (`huge` long) and cyclic ones. */
export function values(r: Random, huge: number) {
  const text = (n: number) => Array.from({ length: n }, () => String.fromCharCode(32 + r.int(95))).join('')
  const atoms: Array<() => unknown> = [
    () => null,
    () => undefined,
    () => r.chance(0.5),
    () => r.pick(numbers),
    () => r.int(2e9) - 1e9,
    () => r.next() * 1e6,
    () => BigInt(r.int(1e9)) ** 3n,
    () => r.pick(strings),
    () => text(r.int(300)),
  ]
  const atom = () => r.pick(atoms)()
  const deep = (n: number): unknown => {
    let value: unknown = atom()
    for (let i = 0; i < n; i++) value = r.chance(0.5) ? [value] : { a: value }
    return value
  }
  const cyclic = (value: unknown) => {
    const self: Record<string, unknown> = { value }
    self.self = self
    self.list = [self, new Map([[self, self]])]
    return self
  }
  const sparse = (value: unknown) => {
    const holes: unknown[] = []
    holes[r.int(1000)] = value
    return holes
  }
  const any = (depth = 2): unknown => {
    if (depth <= 0 || r.chance(0.4)) return atom()
    const inner = () => any(depth - 1)
    const pick = r.int(100)
    if (pick < 20) return Array.from({ length: r.int(8) }, inner)
    if (pick < 40) return Object.fromEntries(Array.from({ length: r.int(6) }, () => [r.pick(keys), inner()]))
    if (pick < 46) {
      const key = r.pick(['__proto__', 'constructor', 'prototype'])
      return own({}, key, r.chance(0.5) ? polluted() : inner())
    }
    if (pick < 50) return { constructor: { prototype: polluted() }, value: inner() }
    if (pick < 54) return sparse(inner())
    if (pick < 58) return cyclic(inner())
    if (pick < 60) return deep(500 + r.int(1000))
    // Rare: across processes each costs the browser a copy of its megabytes.
    if (pick < 61)
      return r.pick([() => 'x'.repeat(huge), () => new Uint8Array(huge), () => new Array(1e5).fill(-0)])()
    return r.pick(objects)(inner)
  }
  const objects: Array<(inner: () => unknown) => unknown> = [
    () => new Date(r.chance(0.5) ? Number.NaN : r.int(2e12)),
    () => /airlock:hello/gi,
    () => new TypeError(text(20)),
    (inner) => new Map([[inner(), inner()]]),
    (inner) => new Set([inner(), inner()]),
    () => new ArrayBuffer(r.int(64)),
    () => new Uint8Array(r.int(64)),
    () => new Float64Array([Number.NaN, -0, Infinity]),
    () => new DataView(new ArrayBuffer(8)),
    // Boxed primitives: a boxed 'airlock:hello' is not the string.
    () => r.pick([Object(1), Object('airlock:hello'), Object(false), Object(1n)]),
  ]
  return { any, text }
}

/** A short, printable account of any value, for a failure's message. */
export function describe(value: unknown): string {
  try {
    return JSON.stringify(value)?.slice(0, 200) ?? String(value)
  } catch {
    return String(value).slice(0, 200)
  }
}
