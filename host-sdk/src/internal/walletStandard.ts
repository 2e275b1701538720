/**
 * Airlock as a Wallet Standard wallet, one per non-EVM namespace, so Solana and Bitcoin dApps find it the
 * way they find any wallet. Every feature goes to the modal.
 */
import type { Namespace, Request, State } from '@airlock/bridge-protocol'
import { standardNameOf } from '@airlock/bridge-protocol/Caip'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { emitter } from './emitter.ts'
import { appReady, registerEvent } from './registry.ts'

type Send = (request: Request) => Promise<unknown>
type Input = { account?: WalletAccount; inputsToSign?: { account: WalletAccount }[]; [key: string]: unknown }
type Chain = `${string}:${string}`

const signFeatures = {
  solana: ['solana:signMessage', 'solana:signTransaction', 'solana:signAndSendTransaction'],
  bip122: ['bitcoin:signMessage', 'bitcoin:signTransaction'],
} as const

/** Bridge params carry addresses where Wallet Standard inputs carry account objects. */
function toParams({ account, inputsToSign, ...rest }: Input) {
  return {
    ...rest,
    ...(account && { address: account.address }),
    ...(inputsToSign && {
      inputsToSign: inputsToSign.map(({ account, ...i }) => ({ ...i, address: account.address })),
    }),
  }
}

export function standardWallet(
  namespace: Exclude<Namespace, 'eip155'>,
  networks: readonly string[],
  icon: Wallet['icon'],
  send: Send,
  state: () => State,
) {
  const events = emitter()
  const version = '1.0.0'
  // A chain's Wallet Standard name where it has one (`solana:devnet`), else its CAIP-2 id (a devnet's).
  const chains = networks
    .filter((n) => n.startsWith(`${namespace}:`))
    .map((n) => standardNameOf(n) ?? n) as Chain[]
  const signs = signFeatures[namespace]
  const cache = new Map<string, WalletAccount>()
  const accounts = () =>
    (state().namespaces[namespace]?.accounts ?? []).map(({ address, publicKey = new Uint8Array() }) => {
      if (!cache.has(address))
        cache.set(address, Object.freeze({ address, publicKey, chains, features: signs }))
      return cache.get(address) as WalletAccount
    })
  const request = (method: string, params?: unknown) => send({ namespace, method, params } as Request)
  const connectFeature = namespace === 'solana' ? 'standard:connect' : 'bitcoin:connect'

  const features: Record<string, unknown> = {
    [connectFeature]: {
      version,
      async connect(input?: { silent?: boolean }) {
        if (!accounts().length && !input?.silent) await request(connectFeature)
        return { accounts: accounts() }
      },
    },
    'standard:disconnect': { version, disconnect: () => request('standard:disconnect') },
    'standard:events': { version, on: events.on },
  }
  for (const feature of signs)
    features[feature] = {
      version,
      supportedTransactionVersions: ['legacy', 0],
      // Each call takes one or more inputs and answers with one output each.
      [feature.split(':')[1] as string]: (...inputs: Input[]) =>
        Promise.all(inputs.map((input) => request(feature, toParams(input)))),
    }

  const wallet = {
    version,
    name: 'Airlock',
    icon,
    chains,
    features,
    get accounts() {
      return accounts()
    },
  } as Wallet

  /** Tells the dApp when this namespace's accounts changed. */
  const update = (before: State, after: State) => {
    const list = (s: State) => `${s.namespaces[namespace]?.accounts.map((a) => a.address)}`
    if (list(before) !== list(after)) events.emit('change', { accounts: accounts() })
  }

  return { wallet, update }
}

/** Registers a wallet per the Wallet Standard: now for apps already listening, and for apps that start later. */
export function registerWallet(wallet: Wallet, signal: AbortSignal) {
  const callback = (api: { register(wallet: Wallet): unknown }) => api.register(wallet)
  dispatchEvent(Object.assign(new Event(registerEvent), { detail: callback }))
  addEventListener(appReady, ((event: CustomEvent) => callback(event.detail)) as EventListener, { signal })
}
