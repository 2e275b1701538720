/**
 * The wallets that live on the host page: EIP-6963 providers and Wallet Standard wallets. The host SDK
 * finds them and describes them to the modal; it runs a request on one only when the modal asks.
 */
import { type PageWallet, type Request, Schema, type WalletEvent } from '@airlock/bridge-protocol'
import {
  DisconnectedError,
  InvalidParamsError,
  UnauthorizedError,
  UnsupportedMethodError,
} from '@airlock/bridge-protocol/Errors'
import { parse } from '@airlock/bridge-protocol/Shape'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import type { ExternalWallet } from '../ExternalWallet.ts'
import { appReady, registerEvent } from './registry.ts'

type Eip1193 = {
  request(args: { method: string; params?: unknown }): Promise<unknown>
  on?(event: string, listener: (value: unknown) => void): void
}
type Entry = { info: PageWallet; provider?: Eip1193; wallet?: Wallet; watched?: 1 }
type Params = { address?: string; inputsToSign?: { address: string }[] }
type Fn = (...args: unknown[]) => unknown

/**
 * Discovers the page's wallets. `own` holds Airlock's own providers and wallets, which are never listed;
 * it comes from the core because the script build loads this half as a separate script.
 */
export function pageWallets(
  own: WeakSet<object>,
  signal: AbortSignal,
  onChange: () => void,
  onEvent: (event: WalletEvent) => void,
  external: readonly ExternalWallet[] = [],
) {
  const entries = new Map<string, Entry>()

  // A wallet that describes itself badly is left out alone, rather than failing the whole list.
  const add = (entry: Entry) => {
    const info = parse(Schema.pageWallet, entry.info)
    if (info.ok) {
      entries.set(info.value.id, { ...entry, info: info.value })
      onChange()
    }
    return info
  }

  addEventListener(
    'eip6963:announceProvider',
    ((event: CustomEvent) => {
      const { info, provider } = (event.detail ?? {}) as {
        info?: Record<string, unknown>
        provider?: Eip1193
      }
      const id = `eip6963:${info?.uuid}`
      const listed = own.has(provider as object) || external.some((wallet) => wallet.provider === provider)
      if (!info || typeof provider?.request !== 'function' || listed || entries.has(id)) return
      add({
        provider,
        info: {
          id,
          namespace: 'eip155',
          name: info.name,
          icon: info.icon,
          rdns: info.rdns,
          chains: [],
        } as PageWallet,
      })
    }) as EventListener,
    { signal },
  )
  // The dApp's own come first, so the same provider announced on the page as well is listed once.
  for (const { id, name, icon, rdns, provider } of external) {
    const added = add({
      provider,
      info: { id: `external:${id}`, namespace: 'eip155', name, icon, rdns, chains: [], external: true },
    })
    // The dApp's own mistake, said to its developer; the other wallets are listed all the same.
    if (!added.ok) console.error(`Airlock: externalWallets: ${id} is left out: ${added.message}`)
  }
  dispatchEvent(new Event('eip6963:requestProvider'))

  // As a Wallet Standard app: ask the wallets already loaded, and hear from wallets that load later.
  const register = (wallet: Wallet) => {
    const chains = [...(wallet?.chains ?? [])]
    const namespace = chains.some((c) => c.startsWith('solana:'))
      ? 'solana'
      : // Bitcoin wallets name chains `bitcoin:mainnet`, or by CAIP-2 id where the chain has no such name.
        chains.some((c) => /^(bitcoin|bip122):/.test(c))
        ? 'bip122'
        : 0
    if (namespace && !own.has(wallet))
      add({
        wallet,
        info: { id: `standard:${entries.size}`, namespace, name: wallet.name, icon: wallet.icon, chains },
      })
    return () => {}
  }
  addEventListener(registerEvent, ((event: CustomEvent) => event.detail?.({ register })) as EventListener, {
    signal,
  })
  dispatchEvent(Object.assign(new Event(appReady), { detail: { register } }))

  const watch = (entry: Entry) => {
    if (entry.watched) return
    entry.watched = 1
    const walletId = entry.info.id
    const { provider, wallet } = entry
    provider?.on?.('accountsChanged', (accounts) =>
      onEvent({ walletId, type: 'accountsChanged', accounts: accounts as string[] }),
    )
    provider?.on?.('chainChanged', (chainId) =>
      onEvent({ walletId, type: 'chainChanged', chainId: `${chainId}` }),
    )
    provider?.on?.('disconnect', () => onEvent({ walletId, type: 'disconnect' }))
    ;(wallet?.features['standard:events'] as { on?: Fn } | undefined)?.on?.(
      'change',
      ({ accounts }: { accounts?: WalletAccount[] }) =>
        accounts && onEvent({ walletId, type: 'accountsChanged', accounts: accounts.map((a) => a.address) }),
    )
  }

  return {
    list: () => [...entries.values()].map((entry) => entry.info),

    /** Runs one request on the wallet the modal named. */
    async run(walletId: string, request: Request): Promise<unknown> {
      const entry = entries.get(walletId)
      if (!entry) throw new DisconnectedError('Wallet not found on the page.')
      if (entry.info.namespace !== request.namespace) throw new InvalidParamsError()
      watch(entry)
      const params = 'params' in request ? request.params : undefined
      if (entry.provider) return entry.provider.request({ method: request.method, params })
      return runStandard(entry.wallet as Wallet, request.method, (params ?? {}) as Params)
    },
  }
}

/**
 * A Wallet Standard feature `ns:name` has a function `name` (`standard:connect` → `connect`), takes
 * accounts where the bridge carries addresses, and answers sign calls with one output per input.
 */
async function runStandard(wallet: Wallet, method: string, params: Params): Promise<unknown> {
  const name = method.split(':')[1] as string
  const run = (wallet.features[method as `${string}:${string}`] as Record<string, Fn> | undefined)?.[name]
  if (!run) throw new UnsupportedMethodError()
  const account = (address?: string) => {
    const found = wallet.accounts.find((a) => a.address === address)
    if (!found) throw new UnauthorizedError()
    return found
  }
  if (name === 'connect') {
    const { accounts } = (await run(params)) as { accounts: readonly WalletAccount[] }
    return {
      accounts: accounts.map((a) => ({
        address: a.address,
        publicKey: Uint8Array.from(a.publicKey),
        chains: [...a.chains],
      })),
    }
  }
  if (name === 'disconnect') return void (await run())
  const input: Record<string, unknown> = { ...params }
  if (params.address) input.account = account(params.address)
  if (params.inputsToSign)
    input.inputsToSign = params.inputsToSign.map((i) => ({ ...i, account: account(i.address) }))
  const [output] = (await run(input)) as unknown[]
  return output
}
