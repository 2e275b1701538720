/**
 * Hellos a modal must ignore without a word: the hello's own fields broken one at a time (its type, its
 * version, its project id, as Schema.ts `hello` limits them), wrapped hellos, random values, and genuine
 * hellos carrying a second port. A hello whose range is garbage still counts as a hello (Schema.ts reads
 * it as no range), so a broken range only ever rides along with a broken field.
 */
import type { Forged, ForgeOptions } from './index.ts'
import { own, polluted, type Random, type Values } from './values.ts'

const range = { min: { major: 1, minor: 0 }, max: { major: 1, minor: 9 } }

export function forgeHello(r: Random, v: Values, options: ForgeOptions, huge: number): Forged {
  const projectId = options.projectId ?? 'demo'
  const versions = r.pick<unknown>([undefined, range, v.any()])
  const hello = (): Record<string, unknown> => ({ type: 'airlock:hello', version: 1, projectId, versions })
  const ignored = (kind: string, data: unknown, transfer: Transferable[] = []): Forged => ({
    kind,
    data,
    transfer,
    answer: 'none',
  })
  const pick = r.int(100)
  if (options.genuine && pick < 10) return ignored('genuine', hello())
  if (pick < 35) return ignored('junk', spoil(v.any(3)))
  if (pick < 80) {
    const field = r.pick(['type', 'version', 'projectId'] as const)
    const broken = {
      type: () => [undefined, 'airlock:hello ', 'Airlock:hello', 'airlock:welcome', ['airlock:hello']],
      version: () => [undefined, '1', Number.NaN, Infinity, -Infinity, null, [1], 1n, true, {}, Object(1)],
      projectId: () => [
        undefined,
        '',
        'x'.repeat(129),
        'x'.repeat(r.chance(0.9) ? 4096 : huge),
        7,
        [projectId],
      ],
    }[field]()
    const random = v.any()
    const data = own(hello(), field, r.chance(0.3) && breaks[field](random) ? random : r.pick(broken))
    if (r.chance(0.3))
      own(data, r.pick(['__proto__', 'constructor', 'extra']), r.chance(0.5) ? polluted() : v.any())
    return ignored(`near:${field}`, data)
  }
  if (pick < 92) {
    const wrapped = r.pick<() => unknown>([
      () => [hello()],
      () => ({ data: hello() }),
      () => JSON.stringify({ ...hello(), versions: range }),
      () => new Map(Object.entries(hello())),
      () => own({}, '__proto__', hello()),
    ])()
    return ignored('wrapped', wrapped)
  }
  const extra = options.port()
  return ignored('ports', r.chance(0.5) ? { ...hello(), port: extra } : hello(), [extra])
}

/** Whether a value breaks the field, by the limits Schema.ts `hello` documents. */
const breaks = {
  type: (value: unknown) => value !== 'airlock:hello',
  version: (value: unknown) => typeof value !== 'number' || !Number.isFinite(value),
  projectId: (value: unknown) => typeof value !== 'string' || value.length === 0 || value.length > 128,
}

/** A random value that happens to read as a hello would rightly be answered: it is made not to. */
function spoil(value: unknown): unknown {
  const hello =
    value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'airlock:hello'
  return hello ? own(value as Record<string, unknown>, 'type', 'airlock:hellO') : value
}
