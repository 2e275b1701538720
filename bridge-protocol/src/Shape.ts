/**
 * Runtime shapes: parse an `unknown` that crossed the bridge into a typed value, or fail with a message
 * naming where it went wrong. Objects keep only the keys their shape names.
 *
 * Why not valibot: the host SDK's script budget is 5 KB gzip, and the same contract written with valibot
 * measured about 1.5 KB gzip larger there (its pipelines and per-issue bookkeeping). These few combinators
 * do what the bridge needs, and both sides parse with the same definitions.
 */

/** A parser: returns the typed value or throws {@link ShapeError}. */
export type Shape<T> = (value: unknown, path?: string) => T
export type Infer<S> = S extends Shape<infer T> ? T : never

export class ShapeError extends Error {
  override name = 'ShapeError'
}

const fail = (path: string | undefined, expected: string): never => {
  throw new ShapeError(`${path ? `${path}: ` : ''}expected ${expected}`)
}

export const unknown: Shape<unknown> = (value) => value

export const boolean: Shape<boolean> = (value, path) =>
  typeof value === 'boolean' ? value : fail(path, 'a boolean')

/* @__NO_SIDE_EFFECTS__ */
export function number(min = -Number.MAX_VALUE, max = Number.MAX_VALUE): Shape<number> {
  return (value, path) =>
    typeof value === 'number' && value >= min && value <= max
      ? value
      : fail(path, `a number in ${min}..${max}`)
}

/** A string of `min`..`max` characters, matching `pattern` when given. */
/* @__NO_SIDE_EFFECTS__ */
export function string(max = 1000, min = 0, pattern?: RegExp): Shape<string> {
  return (value, path) =>
    typeof value === 'string' &&
    value.length >= min &&
    value.length <= max &&
    (!pattern || pattern.test(value))
      ? value
      : fail(path, pattern ? `a string like ${pattern}` : `a string of ${min}..${max} characters`)
}

/* @__NO_SIDE_EFFECTS__ */
export function literal<const T extends string | number | boolean | undefined>(expected: T): Shape<T> {
  return (value, path) => (value === expected ? (value as T) : fail(path, String(expected)))
}

/* @__NO_SIDE_EFFECTS__ */
export function picklist<const T extends string>(options: readonly T[]): Shape<T> {
  return (value, path) =>
    options.includes(value as T) ? (value as T) : fail(path, `one of ${options.join(', ')}`)
}

/* @__NO_SIDE_EFFECTS__ */
export function bytes(max = 1 << 20): Shape<Uint8Array> {
  return (value, path) => (value instanceof Uint8Array && value.length <= max ? value : fail(path, 'bytes'))
}

/* @__NO_SIDE_EFFECTS__ */
export function optional<T>(shape: Shape<T>): Shape<T | undefined> {
  return (value, path) => (value === undefined ? undefined : shape(value, path))
}

/** `null` or the shape's value (JSON APIs write "none" as `null`). */
/* @__NO_SIDE_EFFECTS__ */
export function nullable<T>(shape: Shape<T>): Shape<T | null> {
  return (value, path) => (value === null ? null : shape(value, path))
}

/**
 * Refines a shape with a predicate; `message` is the whole error text, so a text people see passes through
 * unchanged.
 */
/* @__NO_SIDE_EFFECTS__ */
export function check<T>(shape: Shape<T>, predicate: (value: T) => boolean, message: string): Shape<T> {
  return (value, path) => {
    const parsed = shape(value, path)
    if (!predicate(parsed)) throw new ShapeError(message)
    return parsed
  }
}

/* @__NO_SIDE_EFFECTS__ */
export function array<T>(item: Shape<T>, max = 1000): Shape<T[]> {
  return (value, path = '') =>
    Array.isArray(value) && value.length <= max
      ? value.map((entry, i) => item(entry, `${path}[${i}]`))
      : fail(path, `an array of at most ${max}`)
}

/* @__NO_SIDE_EFFECTS__ */
export function record<T>(item: Shape<T>, max = 1000): Shape<Record<string, T>> {
  return (value, path = '') => {
    if (!isPlain(value) || Object.keys(value).length > max) return fail(path, 'an object')
    const out: Record<string, T> = {}
    // Defined, not assigned: an own `__proto__` key (structured clone keeps one) would swap the prototype.
    for (const [key, entry] of Object.entries(value))
      Object.defineProperty(out, key, {
        value: item(entry, `${path}.${key}`),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    return out
  }
}

type ObjectOf<S extends Record<string, Shape<unknown>>> = {
  [K in keyof S as undefined extends Infer<S[K]> ? never : K]: Infer<S[K]>
} & { [K in keyof S as undefined extends Infer<S[K]> ? K : never]?: Infer<S[K]> }
type Flat<T> = { [K in keyof T]: T[K] }

/* @__NO_SIDE_EFFECTS__ */
export function object<S extends Record<string, Shape<unknown>>>(shape: S): Shape<Flat<ObjectOf<S>>> {
  return (value, path = '') => {
    if (!isPlain(value)) return fail(path, 'an object')
    const out: Record<string, unknown> = {}
    for (const key in shape) {
      const parsed = (shape[key] as Shape<unknown>)(value[key], path ? `${path}.${key}` : key)
      if (parsed !== undefined) out[key] = parsed
    }
    return out as Flat<ObjectOf<S>>
  }
}

/** Picks the shape by the value of one key: `variant('type', { a: object(…), b: object(…) })`. */
/* @__NO_SIDE_EFFECTS__ */
export function variant<S extends Record<string, Shape<unknown>>>(
  key: string,
  shapes: S,
): Shape<Infer<S[keyof S]>> {
  return (value, path) => {
    const tag = isPlain(value) ? value[key] : undefined
    const name = typeof tag === 'string' || typeof tag === 'boolean' ? String(tag) : ''
    const shape = Object.hasOwn(shapes, name) ? shapes[name] : undefined
    return shape
      ? (shape(value, path) as Infer<S[keyof S]>)
      : fail(path ? `${path}.${key}` : key, 'a known value')
  }
}

/** The first shape that accepts the value. */
/* @__NO_SIDE_EFFECTS__ */
export function union<S extends Shape<unknown>[]>(...shapes: S): Shape<Infer<S[number]>> {
  return (value, path) => {
    for (const shape of shapes) {
      try {
        return shape(value, path) as Infer<S[number]>
      } catch {}
    }
    return fail(path, 'a value of another shape')
  }
}

/**
 * Parses without throwing.
 * @example
 * const result = Shape.parse(Shape.string(10), input)
 * if (result.ok) result.value // string
 */
export function parse<T>(
  shape: Shape<T>,
  value: unknown,
): { ok: true; value: T } | { ok: false; message: string } {
  try {
    return { ok: true, value: shape(value) }
  } catch (error) {
    if (error instanceof ShapeError) return { ok: false, message: error.message }
    // A getter or proxy on hostile input may throw anything; that is a failed parse too.
    return { ok: false, message: 'unreadable value' }
  }
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
