/**
 * Which account the embedded wallet's EVM side is, and what that changes (docs/behaviour.md §1: eip155 defaults to a
 * smart account): an AirlockAccount (ERC-4337, its own address), the EOA upgraded with EIP-7702 (the same
 * address), or the plain EOA. The host may prefer another default; the visitor's choice is kept per login.
 * The smart account code loads the first time one is used (`SmartRequests.ts`); on a chain without the
 * contracts the EOA serves.
 */
import { type Caip, Errors, type Request } from '@airlock/bridge-protocol'
import * as Calls from '@airlock/bridge-protocol/Calls'
import type { Hex } from 'viem'
import { type AccountType, defaultType, smartAccountsUnsupported } from './AccountType.ts'
import type { Description } from './Describe.ts'
import type { Rpc } from './Rpc.ts'
import type { Smart } from './SmartAccount.ts'
import type { Prepared } from './UserOps.ts'
import type { Wallet } from './Vault.ts'

/** A preview's operation is signed as prepared if the visitor approves within this time; later, again. */
const freshMs = 60_000

export type Options = {
  rpc: Rpc
  endpoint(path: string): string
  wallet(): Wallet | undefined
  /** The host's `preferredAccountTypes.eip155`, where it set one: the default in place of docs/behaviour.md's. */
  preferred?: AccountType | undefined
  /** The visitor's choice for this login, if they made one: it wins over the host's. */
  stored(): AccountType | undefined
  store(type: AccountType): void
  /** What the state shows changed (the account was deployed). */
  changed(): void
  /** Tells the visitor why a dApp's request was refused (the product's words, docs/behaviour.md §8, shown as well as answered). */
  refused?(message: string): void
  now?(): number
}

type Previewed = { prepared?: Prepared | undefined; failure?: unknown; at: number }

/**
 * @example
 * const accounts = SmartAccounts.create({ rpc, endpoint, wallet: () => wallet, stored, store })
 * await accounts.address('eip155:31337') // the AirlockAccount's counterfactual address
 */
export function create(options: Options) {
  const now = options.now ?? Date.now
  const code = () => import('./SmartRequests.ts')
  const accounts = new Map<string, Promise<Smart | undefined>>()
  const previews = new WeakMap<Request, Previewed>()
  /** The batches sent in this page load: their chain and operation, by the id the dApp was given. */
  const batches = new Map<string, { chainId: Caip.ChainId; hash: Hex }>()

  const type = (): AccountType => options.stored() ?? options.preferred ?? defaultType
  /** Whether the account's code is on chain, as last read (docs/behaviour.md §3's smartAccountDeployed); undefined for the EOA. */
  let deployed: boolean | undefined

  function readDeployed(chainId: Caip.ChainId) {
    smartOn(chainId)
      .then((smart) => smart?.deployed())
      .then(
        (now) => {
          if (now === deployed) return
          deployed = now
          options.changed()
        },
        () => {},
      )
  }

  /** The smart account on `chainId`; undefined where the account is the EOA (chosen, or no contracts there). */
  function smartOn(chainId: Caip.ChainId): Promise<Smart | undefined> {
    const wallet = options.wallet()
    const kind = type()
    if (!wallet || kind === 'eoa' || !chainId.startsWith('eip155:')) return Promise.resolve(undefined)
    const key = `${wallet.fingerprint} ${chainId} ${kind}`
    const known = accounts.get(key)
    if (known) return known
    // One answer per login, chain and type, so dApps never see one address and get operations from another:
    // a chain that could not be asked is served by the EOA too, as one without the contracts is.
    const found = code()
      .then((module) => module.smartAccountOn(wallet, chainId, kind, options))
      .catch((error: unknown) => {
        console.warn(`[airlock] No smart account on ${chainId}; the key’s own account serves.`, error)
        return undefined
      })
    accounts.set(key, found)
    return found
  }

  return {
    type,
    /** The visitor chose another account type: kept for this login, and every account is worked out again. */
    choose(next: AccountType) {
      options.store(next)
      accounts.clear()
      deployed = undefined
    },
    /** What the host's state says of the account (the product's embedded user, docs/behaviour.md §3). */
    state() {
      return {
        preferredAccountType: type() === 'eoa' ? ('eoa' as const) : ('smartAccount' as const),
        ...(deployed === undefined ? {} : { smartAccountDeployed: deployed }),
      }
    },
    /** The EVM address dApps see on `chainId`. */
    async address(chainId: Caip.ChainId): Promise<string | undefined> {
      const wallet = options.wallet()
      if (!wallet) return undefined
      const smart = await smartOn(chainId)
      readDeployed(chainId)
      return smart?.account.address ?? wallet.addresses.eip155
    },
    /** EIP-5792's capabilities: atomic batches, and paymasters, where the account is a smart account. */
    async capabilities(chainIds: readonly Caip.ChainId[]): Promise<Calls.Capabilities> {
      const entries = await Promise.all(
        chainIds.map(async (chainId) =>
          (await smartOn(chainId).catch(() => undefined))
            ? [
                [
                  Calls.hexChainIdOf(chainId),
                  { atomic: { status: 'supported' }, paymasterService: { supported: true } },
                ],
              ]
            : [],
        ),
      )
      return Object.fromEntries(entries.flat())
    },
    /** `wallet_getCallsStatus` of a batch this account sent. */
    async callsStatus(request: Request): Promise<Calls.Status> {
      const id = Calls.parseId(request.method, request.params)
      const batch = batches.get(id)
      const smart = batch && (await smartOn(batch.chainId))
      if (!batch || !smart) throw new Calls.UnknownBundleError()
      const status = await (await code()).status(smart, id, batch.hash)
      if (status.status !== Calls.status.pending) readDeployed(batch.chainId)
      return status
    },
    /**
     * What a smart account adds to a request's preview (its operation prepared, or why it would fail);
     * undefined where the EOA serves, whose preview is the node's simulation.
     */
    async preview(request: Request, chainId: Caip.ChainId, description: Description) {
      const smart = await smartOn(chainId)
      if (!smart) return undefined
      const module = await code()
      if (!module.operations.includes(request.method)) return description
      const previewed = await module.preview(smart, request, description)
      previews.set(request, { prepared: previewed.prepared, failure: previewed.failure, at: now() })
      return previewed.description
    },
    /**
     * Signs the approved request with the smart account; `{ handled: false }` where the EOA signs it. An
     * operation the preview found would fail is not signed.
     */
    async sign(request: Request, chainId: Caip.ChainId): Promise<{ handled: boolean; result?: unknown }> {
      const smart = await smartOn(chainId)
      if (!smart) return { handled: false }
      const previewed = previews.get(request)
      previews.delete(request)
      if (previewed?.failure) throw previewed.failure
      const fresh = previewed && now() - previewed.at < freshMs ? previewed.prepared : undefined
      const { result, operation } = await (await code()).sign(smart, request, fresh)
      readDeployed(chainId)
      if (request.method === 'wallet_sendCalls' && operation) {
        const [batch] = request.params as [Calls.Batch]
        const id = batch.id ?? operation
        batches.set(id, { chainId, hash: operation })
        return { handled: true, result: { id } }
      }
      return { handled: true, result }
    },
    /** The product's words (docs/behaviour.md §8) for a method a smart account cannot serve (a raw hash, a transaction to sign). */
    async refuses(method: string, chainId: Caip.ChainId): Promise<Error | undefined> {
      if (method !== 'eth_sign' && method !== 'eth_signTransaction') return undefined
      if (!(await smartOn(chainId))) return undefined
      options.refused?.(smartAccountsUnsupported)
      return new Errors.UnsupportedMethodError(smartAccountsUnsupported)
    },
  }
}
