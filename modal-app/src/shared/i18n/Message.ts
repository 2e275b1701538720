/**
 * A small, typed subset of ICU MessageFormat, enough for the modal's texts and a fraction of a full
 * implementation's size: `{name}` arguments, `{count, plural, =0 {…} one {# item} other {# items}}` (the
 * categories of `Intl.PluralRules`, so Arabic's six work), `{kind, select, a {…} other {…}}`, and
 * `{n, number}`. Braces cannot appear as literal text (no ICU quoting), and a `#` is a number only inside a
 * plural branch.
 */

type Node =
  | string
  | { readonly arg: string; readonly kind?: 'number' }
  | { readonly pound: true }
  | { readonly arg: string; readonly kind: 'plural' | 'select'; readonly branches: Record<string, Node[]> }

/** A message that is not in the subset; catalogues are checked for these by their test. */
export class MessageError extends Error {
  override name = 'MessageError'
}

const parsed = new Map<string, Node[]>()

function parse(source: string): Node[] {
  const known = parsed.get(source)
  if (known) return known
  let at = 0
  const fail = (why: string): never => {
    throw new MessageError(`${why} at ${at} in "${source}"`)
  }
  const skip = () => {
    while (/\s/.test(source[at] ?? '')) at++
  }
  const until = (stop: RegExp) => {
    const from = at
    while (at < source.length && !stop.test(source[at] ?? '')) at++
    return source.slice(from, at).trim()
  }
  const nodes = (plural: boolean): Node[] => {
    const out: Node[] = []
    let text = ''
    const flush = () => {
      if (text) out.push(text)
      text = ''
    }
    while (at < source.length && source[at] !== '}') {
      const char = source[at] ?? ''
      if (char === '{') {
        flush()
        out.push(argument())
      } else if (char === '#' && plural) {
        flush()
        out.push({ pound: true })
        at++
      } else {
        text += char
        at++
      }
    }
    flush()
    return out
  }
  const argument = (): Node => {
    at++
    const arg = until(/[,}]/)
    if (!/^\w+$/.test(arg)) fail('An argument name is expected')
    if (source[at] === '}') {
      at++
      return { arg }
    }
    at++
    const kind = until(/[,}]/)
    if (kind === 'number' && source[at] === '}') {
      at++
      return { arg, kind }
    }
    if ((kind !== 'plural' && kind !== 'select') || source[at] !== ',') fail(`Unknown argument type ${kind}`)
    at++
    const branches: Record<string, Node[]> = {}
    for (skip(); source[at] !== '}'; skip()) {
      const key = until(/[\s{}]/)
      skip()
      if (!key || source[at] !== '{') fail('A branch is expected')
      at++
      branches[key] = nodes(kind === 'plural')
      if (source[at] !== '}') fail('A closing brace is expected')
      at++
    }
    if (!branches.other) fail(`A ${kind} needs an other branch`)
    at++
    return { arg, kind: kind as 'plural' | 'select', branches }
  }
  const out = nodes(false)
  if (at < source.length) fail('An unmatched closing brace')
  parsed.set(source, out)
  return out
}

/**
 * The names of a message's arguments in the order they first appear, which is the order of the typed
 * function's parameters (see `Params`).
 * @example argumentsOf('{count, plural, one {# wallet} other {# wallets}} in {place}') // ['count', 'place']
 */
export function argumentsOf(source: string): string[] {
  const names: string[] = []
  const walk = (list: Node[]) => {
    for (const node of list) {
      if (typeof node === 'string' || 'pound' in node) continue
      if (!names.includes(node.arg)) names.push(node.arg)
      if ('branches' in node) for (const branch of Object.values(node.branches)) walk(branch)
    }
  }
  walk(parse(source))
  return names
}

export type Value = string | number | bigint | undefined

/**
 * @example format('Continue in {wallet}', { wallet: 'Rabby' }, 'en') // 'Continue in Rabby'
 * @example format('{n, plural, one {# day} other {# days}}', { n: 3 }, 'en') // '3 days'
 */
export function format(source: string, values: Record<string, Value>, locale: string): string {
  const render = (list: Node[], count?: number): string =>
    list
      .map((node) => {
        if (typeof node === 'string') return node
        if ('pound' in node) return new Intl.NumberFormat(locale).format(count ?? 0)
        const value = values[node.arg]
        if (!('branches' in node))
          return node.kind === 'number'
            ? new Intl.NumberFormat(locale).format(Number(value))
            : `${value ?? ''}`
        if (node.kind === 'select') {
          // An absent or empty value picks `none` where the message has one: "… failed{reason, select, none {} other {: {reason}}}".
          const key = value === undefined || value === '' ? 'none' : String(value)
          return render(node.branches[key] ?? node.branches.other ?? [])
        }
        const n = Number(value)
        const branch =
          node.branches[`=${n}`] ??
          node.branches[new Intl.PluralRules(locale).select(n)] ??
          node.branches.other
        return render(branch ?? [], n)
      })
      .join('')
  return render(parse(source))
}

// The same reading at the type level, so a call with a missing or extra argument does not compile.
type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S
type IsName<S extends string> = S extends ''
  ? false
  : S extends `${string}${' ' | '#' | '{'}${string}`
    ? false
    : true
type ArgumentAt<R extends string> = R extends `${infer Head}}${string}`
  ? Head extends `${infer Name},${infer Kind}`
    ? IsName<Trim<Name>> extends true
      ? Trim<Kind> extends `plural${string}` | 'number'
        ? [Trim<Name>, number]
        : Trim<Kind> extends `select${string}`
          ? [Trim<Name>, Value]
          : false
      : false
    : IsName<Trim<Head>> extends true
      ? [Trim<Head>, string | number | bigint]
      : false
  : false
type Scan<
  S extends string,
  Seen extends string = never,
  Out extends [string, unknown][] = [],
> = S extends `${string}{${infer Rest}`
  ? ArgumentAt<Rest> extends [infer Name extends string, infer Type]
    ? [Name] extends [Seen]
      ? Scan<Rest, Seen, Out>
      : Scan<Rest, Seen | Name, [...Out, [Name, Type]]>
    : Scan<Rest, Seen, Out>
  : Out
type TypeOf<List, Name> = List extends [infer Head, ...infer Tail]
  ? Head extends [Name, infer Type]
    ? Type
    : TypeOf<Tail, Name>
  : never

type Types<List> = List extends [[string, infer Type], ...infer Rest] ? [Type, ...Types<Rest>] : []
type Ordered<List, Order> = Order extends readonly [infer Name, ...infer Rest]
  ? [TypeOf<List, Name>, ...Ordered<List, Rest>]
  : []

/** The parameters of a message's function: its arguments in order of appearance, or in `Order`. */
export type Params<
  S extends string,
  Order extends readonly string[] | undefined = undefined,
> = Order extends readonly string[] ? Ordered<Scan<S>, Order> : Types<Scan<S>>
