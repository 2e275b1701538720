/**
 * A texts module's English messages made into the texts the views read: each one looked up in the active
 * catalogue when it is read (English where the catalogue lacks it), so the module's shape stays what the
 * call sites know. A message with arguments becomes a function of them, typed from the message itself:
 * `'Continue in {wallet}'` is `(wallet: string | number) => string`. Its parameters come in the order the
 * arguments first appear, unless the message names the order: `['{n, plural, …} of {symbol}', 'symbol', 'n']`.
 */
import * as Locale from './Locale.ts'
import { argumentsOf, format, type Params, type Value } from './Message.ts'

type Source = string | readonly [string, ...string[]]
// A function stays as it is: the texts a developer reads (console, errors for the dApp), English only.
type Plain = (...args: never[]) => string
type Tree = { readonly [key: string]: Source | Plain | Tree }

type Text<S> = S extends readonly [infer M extends string, ...infer Order extends string[]]
  ? (...args: Params<M, Order>) => string
  : S extends string
    ? Params<S> extends []
      ? string
      : (...args: Params<S>) => string
    : never

/** The texts of a module: strings and functions where its source had messages. */
export type Texts<T> = {
  readonly [K in keyof T]: T[K] extends Source ? Text<T[K]> : T[K] extends Plain ? T[K] : Texts<T[K]>
}

const english = new Map<string, string>()

/**
 * @example
 * export const texts = define('core', { close: 'Close', continueIn: 'Continue in {wallet}' })
 * texts.continueIn('Rabby') // 'Continue in Rabby', or the visitor's language's words
 */
export function define<const T extends Tree>(namespace: string, source: T): Texts<T> {
  return build(namespace, source) as Texts<T>
}

function build(prefix: string, tree: Tree): object {
  const out = {}
  for (const [name, source] of Object.entries(tree)) {
    const key = `${prefix}.${name}`
    if (typeof source === 'function') {
      Object.defineProperty(out, name, { value: source, enumerable: true })
      continue
    }
    if (typeof source === 'object' && !Array.isArray(source)) {
      Object.defineProperty(out, name, { value: build(key, source as Tree), enumerable: true })
      continue
    }
    const [message, ...order] = (typeof source === 'string' ? [source] : source) as [string, ...string[]]
    english.set(key, message)
    const read = () => {
      const { catalogue, tag } = Locale.current()
      return { text: catalogue[key] ?? message, tag }
    }
    const names = order.length > 0 ? order : argumentsOf(message)
    const property =
      names.length === 0
        ? { get: () => read().text }
        : {
            value: (...args: Value[]) => {
              const { text, tag } = read()
              return format(text, Object.fromEntries(names.map((arg, i) => [arg, args[i]])), tag)
            },
          }
    Object.defineProperty(out, name, { ...property, enumerable: true })
  }
  return out
}

/** Every English message defined so far, by key: what each catalogue translates (its test reads it). */
export function sources(): ReadonlyMap<string, string> {
  return english
}
