/**
 * Messages on a live bridge port, each with the answer Messenger.ts promises for it: nothing for what is
 * not a call (comlink's GET, SET, CONSTRUCT, ENDPOINT, RELEASE; an id it does not take; replies to calls
 * never made), 4200 for a call of anything but one contract method with one plain argument, and -32602
 * for a contract method whose argument breaks a limit Schema.ts documents. None may ever be a result.
 */
import type { HostApiContract, ModalApiContract } from '../../Schema.ts'
import type { Forged } from './index.ts'
import { own, polluted, type Random, type Values } from './values.ts'

export function forgeCall(
  r: Random,
  v: Values,
  methods: readonly string[],
  fresh: () => string,
  port: () => MessagePort,
): Forged {
  const method = () => r.pick(methods.length > 0 ? methods : ['ping'])
  const raw = (value: unknown) => ({ type: 'RAW', value })
  const pick = r.int(100)
  if (pick < 20) return { kind: 'junk', data: v.any(3), transfer: [], answer: 'none' }
  const extra = port()
  if (pick < 40) {
    const badId = () => r.pick<unknown>([undefined, null, 7, Number.NaN, {}, ['a'], true, 'x'.repeat(65)])
    const types = ['GET', 'SET', 'CONSTRUCT', 'ENDPOINT', 'RELEASE', 'apply', '', 7, null]
    const silent = r.pick<() => unknown>([
      () => ({
        id: fresh(),
        type: r.pick(types),
        path: [method()],
        argumentList: [raw(v.any())],
        value: raw(1),
      }),
      () => {
        const path = r.pick([
          ['__proto__', 'polluted'],
          ['constructor', 'prototype', 'polluted'],
          [method(), 'x'],
        ])
        return { id: fresh(), type: 'SET', path, value: raw(polluted()) }
      },
      () => ({ id: badId(), type: 'APPLY', path: [method()], argumentList: [] }),
      // Replies to calls never made, some with a port for comlink to wrap.
      () => {
        const name = r.pick(['proxy', 'throw', 'x', '__proto__'])
        return { id: fresh(), type: r.pick(['RAW', 'HANDLER']), name, value: r.chance(0.5) ? extra : v.any() }
      },
      () => own({}, '__proto__', { id: fresh(), type: 'APPLY', path: [method()], argumentList: [] }),
    ])()
    return { kind: 'silent', data: silent, transfer: [extra], answer: 'none' }
  }
  const id = fresh()
  if (pick < 60) {
    const real = method()
    const handler = { type: 'HANDLER', name: 'proxy', value: extra }
    const odd = [
      undefined,
      null,
      'x',
      {},
      [raw(1), raw(2)],
      [{ type: 'RAW' }],
      [null],
      [7],
      [raw(1), handler],
    ]
    const [path, argumentList] = r.pick<() => [unknown, unknown]>([
      () => [
        r.pick<unknown>([[], ['__proto__'], ['constructor', 'constructor'], ['toString'], ['then'], [7]]),
        [],
      ],
      () => [
        r.pick<unknown>([[[real]], real, [Object(real)], [real, r.pick(['call', 'apply', 'polluted'])]]),
        [],
      ],
      () => [[r.pick(['Ping', 'ping ', 'eval', 'fetch', 'hasOwnProperty', v.text(8)])], []],
      () => [[real], r.pick(odd.concat([[{ type: 'raw', value: 1 }], [handler]]))],
    ])()
    return {
      kind: 'unknown',
      data: { id, type: 'APPLY', path, argumentList },
      transfer: [extra],
      answer: 4200,
      id,
    }
  }
  extra.close()
  const name = method()
  const input = r.chance(0.3)
    ? r.pick<unknown>([null, 7, Number.NaN, 'x', true, 1n])
    : invalidInput(r, v, name)
  const data = { id, type: 'APPLY', path: [name], argumentList: [raw(input)] }
  return { kind: `invalid:${name}`, data, transfer: [], answer: -32602, id }
}

const wallet = {
  id: 'eip6963:1',
  namespace: 'eip155',
  name: 'Test',
  icon: 'data:image/svg+xml,<svg/>',
  chains: [],
}
const state = { open: false, view: 'Connect', status: 'disconnected', namespaces: {} }
const request = { namespace: 'eip155', method: 'eth_chainId' }

/** Per field of a page wallet and of the state, values its shape refuses. */
const walletBreaks = {
  icon: ['https://evil.example/i.png', '', 7],
  name: ['', 'x'.repeat(65), 7],
  namespace: ['eip999', '', 7],
  chains: ['eip155:1', null, new Array(65).fill('eip155:1')],
}
const stateBreaks = {
  open: ['yes', 1, null],
  view: ['Foo1', '', 'A'.repeat(65), 7],
  status: ['bogus', '', null],
  namespaces: ['x', null, 7],
}

/**
 * An argument the method's shape refuses: one field past the limit Schema.ts documents for it. Typed by
 * both contracts, so a new method needs its entry here before it can be fuzzed.
 */
function invalidInput(r: Random, v: Values, method: string): unknown {
  // Mostly long, sometimes a megabyte: across processes each costs the browser a copy.
  const huge = () => 'x'.repeat(r.chance(0.1) ? 1_000_000 : 10_000)
  const one = (base: Record<string, unknown>, key: string, bad: readonly unknown[]) =>
    own({ ...base }, key, r.pick(bad))
  const field = <T extends Record<string, unknown[]>>(base: Record<string, unknown>, breaks: T) => {
    const key = r.pick(Object.keys(breaks))
    return one(base, key, breaks[key] ?? [])
  }
  const badRequest = () =>
    r.pick<() => unknown>([
      () =>
        one(request, 'namespace', ['eip999', 'EIP155', '__proto__', 'constructor', 'toString', 7, undefined]),
      () => one(request, 'method', ['', 'x'.repeat(129), huge(), 7, null, undefined]),
      () => one(request, 'params', ['x', 7, null, true, huge()]),
      () => ({
        namespace: 'solana',
        method: 'solana:signMessage',
        params: { address: 'a', message: new Uint8Array(65_537) },
      }),
      () => ({ namespace: 'bip122', method: 'bitcoin:nope' }),
      () => own({ namespace: 'eip155', method: 7 }, '__proto__', { ...request, ...polluted() }),
    ])()
  // What takes nothing refuses anything else.
  const nothing = () => v.any(3) ?? null
  const table: Record<keyof ModalApiContract | keyof HostApiContract, () => unknown> = {
    open: () => one({}, 'view', ['', 'Foo1', 'A'.repeat(65), 'Connect ', 7, null, ['Connect'], huge()]),
    request: badRequest,
    walletRequest: () =>
      r.pick([
        { walletId: 'w', request: badRequest() },
        { walletId: r.pick([7, null, 'x'.repeat(201)]), request },
      ]),
    switchNetwork: () =>
      one({}, 'caipNetworkId', ['not-a-chain', 'eip155', 'eip155:', 'x'.repeat(81), 7, null]),
    walletsChanged: () =>
      r.pick<() => unknown>([
        () => [field(wallet, walletBreaks)],
        () => new Array(65).fill(wallet),
        () => ({ 0: wallet, length: 1 }),
      ])(),
    walletEvent: () =>
      r.pick([
        { walletId: 'w', type: r.pick(['unknown', '__proto__', 'constructor', 'toString']) },
        { walletId: 'w', type: 'accountsChanged', accounts: 'x' },
        { walletId: 'w', type: 'chainChanged', chainId: 'x'.repeat(67) },
      ]),
    setState: () => field(state, stateBreaks),
    resize: () => one({}, 'height', [-1, Number.NaN, Infinity, 10_001, '100', null]),
    storageWrite: () =>
      r.pick([
        one({ value: 'x' }, 'key', ['__proto__', '', 'a b', 'x'.repeat(65), 7]),
        { key: 'k', value: r.pick([7, {}, 'x'.repeat(65_537)]) },
      ]),
    pay: () =>
      field(
        { to: `0x${'1'.repeat(40)}`, amount: '1', chain: 'eip155:1' },
        {
          to: ['0x12', `0x${'g'.repeat(40)}`, huge(), 7, null],
          amount: ['0', '-1', '1e3', '0x10', '', huge(), 1],
          asset: ['ETH', '0x12', huge(), 7],
          chain: ['solana:1', 'eip155', 'x'.repeat(101), 7],
        },
      ),
    close: nothing,
    getState: nothing,
    disconnect: nothing,
    signOut: nothing,
    ping: nothing,
    listWallets: nothing,
    storageRead: nothing,
    leaveFor: () => one({}, 'url', ['', 'x'.repeat(4097), huge(), 7, null]),
    socialResult: nothing,
  }
  const forge = Object.hasOwn(table, method) ? table[method as keyof typeof table] : undefined
  if (!forge) throw new Error(`No invalid input is known for ${method}: add one to hostile/call.ts.`)
  return forge()
}
