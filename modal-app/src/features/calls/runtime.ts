/**
 * EIP-5792 as the modal answers it, for every connector: a dApp's batch is checked at the edge (shape,
 * size, chain, `from`, id, capabilities); a wallet that batches itself on that chain (`Connector.batches`)
 * gets the dApp's request unchanged; any other is sent the calls one by one (`Sequential.ts`), honestly
 * non-atomic. Batches live in the modal, for its life, never in the page. `wallet_showCallsStatus` opens
 * the calls view for any batch whose wallet does not show it itself.
 */
import { type Caip, Errors, type Request, type Schema } from '@airlock/bridge-protocol'
import * as Calls from '@airlock/bridge-protocol/Calls'
import type { Batches } from '../../connectors/Connector.ts'
import type { Connection } from '../../core/Connection.ts'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import * as RelayRpc from '../../shared/RelayRpc.ts'
import * as Receipt from './Receipt.ts'
import * as Sequential from './Sequential.ts'
import { callsTexts } from './texts.ts'
import * as View from './View.ts'

/** A batch the modal knows: one it runs call by call, or one a wallet runs and reports on. */
export type Entry =
  | { kind: 'sequential'; batch: Sequential.Batch; origin?: string | undefined }
  | {
      kind: 'wallet'
      walletId: string
      id: string
      chainId: string
      from: string
      calls: readonly Calls.Call[]
      showsStatus: boolean
      status?: Calls.Status | undefined
      origin?: string | undefined
    }

/** What the calls view renders: the batch it shows. */
export type CallsSlice = { calls?: View.BatchView | undefined }
export type CallsUi = { doneCalls(): void }

/** How often a wallet's batch is asked about while the view shows it and it is pending. */
const refreshMs = 2_000

const isEip155 = (request: Request): request is Schema.Eip155Request => request.namespace === 'eip155'

export function setup(kernel: Kernel): Runtime {
  const entries = new Map<string, Entry>()
  let shown: string | undefined
  let timer: unknown

  const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

  /** The wallet's own capabilities per hex chain id; a refusal is a wallet that does not batch. */
  async function walletCapabilities(
    connection: Connection,
    batches: Batches | undefined,
    address: string,
    chains: readonly Caip.ChainId[],
  ): Promise<Calls.Capabilities> {
    if (!batches || chains.length === 0) return {}
    return batches.capabilities(connection, address, chains).catch(() => ({}))
  }

  const servedOn = (capabilities: Calls.Capabilities, chain: Caip.ChainId) =>
    capabilities[Calls.hexChainIdOf(chain)] ?? capabilities['0x0']

  async function getCapabilities(request: Schema.Eip155Request, connection: Connection) {
    const asked = Calls.parseCapabilitiesRequest(request.params)
    if (!connection.accounts.some((account) => sameAddress(account.address, asked.address)))
      throw new Errors.UnauthorizedError()
    const configured = kernel
      .networks()
      .filter((network) => network.namespace === 'eip155')
      .map((network) => network.id)
    const chains = asked.chainIds ? asked.chainIds.filter((id) => configured.includes(id)) : configured
    const batches = kernel.batchesOf?.(connection)
    const own = await walletCapabilities(connection, batches, asked.address, chains)
    return Object.fromEntries(
      chains.map((chain) => [
        Calls.hexChainIdOf(chain),
        servedOn(own, chain) ?? { atomic: { status: 'unsupported' } },
      ]),
    )
  }

  async function sendCalls(request: Schema.Eip155Request, connection: Connection) {
    const accounts = connection.accounts.map((account) => account.address)
    const batch = Calls.parseSendCalls(request.params, {
      accounts,
      configured: (id) => kernel.configured(id)?.namespace === 'eip155',
      used: (id) => entries.has(id),
    })
    const chain = Calls.chainOf(batch)
    const from = accounts.find((account) => sameAddress(account, batch.from ?? account)) as string
    const batches = kernel.batchesOf?.(connection)
    const own = servedOn(await walletCapabilities(connection, batches, from, [chain]), chain)
    if (batches && own) {
      Calls.checkCapabilities(batch, Object.keys(own))
      const answer = (await kernel.walletRequest(connection, request)) as { id?: unknown } | null
      if (typeof answer?.id !== 'string') throw new Errors.InternalError(callsTexts.malformed())
      entries.set(answer.id, {
        kind: 'wallet',
        walletId: connection.wallet.id,
        id: answer.id,
        chainId: batch.chainId,
        from,
        calls: batch.calls,
        showsStatus: batches.showsStatus,
        origin: kernel.origin(),
      })
      return answer
    }
    Calls.checkCapabilities(batch, [])
    if (batch.atomicRequired) throw new Calls.AtomicityNotSupportedError()
    if (connection.chainId !== chain)
      throw new Errors.ChainDisconnectedError(callsTexts.otherChain(kernel.configured(chain)?.name ?? chain))
    return runSequential(batch, from, connection)
  }

  async function runSequential(input: Calls.Batch, from: string, connection: Connection) {
    const id = input.id ?? randomId()
    const chain = Calls.chainOf(input)
    const rpc = kernel.api.endpoint
      ? RelayRpc.create({
          endpoint: kernel.api.endpoint,
          chainId: chain,
          unreachable: callsTexts.unreachable(),
        })
      : undefined
    const origin = kernel.origin()
    const start = Sequential.create({ id, chainId: input.chainId, from, calls: input.calls })
    // Known at once, so a second batch with the same id is refused even while the first is asked for.
    entries.set(id, { kind: 'sequential', batch: start, origin })
    const { first } = Sequential.run(start, {
      send: async (call) =>
        String(
          await kernel.walletRequest(connection, {
            namespace: 'eip155',
            method: 'eth_sendTransaction',
            params: [Receipt.transactionOf(from, call)],
          }),
        ),
      receipt: async (hash) =>
        rpc ? Receipt.parse(await rpc('eth_getTransactionReceipt', [hash])) : undefined,
      sleep: (ms) => new Promise((resolve) => kernel.timers.setTimeout(() => resolve(), ms)),
      changed(batch) {
        entries.set(id, { kind: 'sequential', batch, origin })
        if (Sequential.isSettled(batch)) kernel.transacted('eip155')
        kernel.changed()
      },
    })
    try {
      await first
    } catch (error) {
      // Nothing was sent: the dApp gets the wallet's refusal, and the id is free again.
      entries.delete(id)
      throw error
    }
    return { id }
  }

  /** The batch's status: ours, or the wallet's when it runs the batch (or knows one we never saw). */
  async function statusOf(id: string, connection: Connection, request?: Request): Promise<Calls.Status> {
    const entry = entries.get(id)
    if (entry?.kind === 'sequential') return Sequential.statusOf(entry.batch)
    if (!entry && !kernel.batchesOf?.(connection)) throw new Calls.UnknownBundleError()
    if (entry && entry.walletId !== connection.wallet.id) throw new Calls.UnknownBundleError()
    const ask: Request = request ?? { namespace: 'eip155', method: 'wallet_getCallsStatus', params: [id] }
    const status = (await askWallet(connection, ask, entry !== undefined)) as Calls.Status
    if (entry?.kind === 'wallet') entries.set(id, { ...entry, status })
    return status
  }

  /** Asks the wallet about a batch; one that has no such method knows no such batch (5730). */
  async function askWallet(connection: Connection, request: Request, known: boolean): Promise<unknown> {
    try {
      return await kernel.walletRequest(connection, request)
    } catch (error) {
      const code = Errors.codeOf(error)
      if (!known && (code === 4200 || code === -32601 || code === 4100)) throw new Calls.UnknownBundleError()
      throw error
    }
  }

  async function showCallsStatus(request: Schema.Eip155Request, connection: Connection) {
    const id = Calls.parseId(request.method, request.params)
    const entry = entries.get(id)
    const batches = kernel.batchesOf?.(connection)
    if (entry?.kind === 'wallet' && entry.walletId !== connection.wallet.id)
      throw new Calls.UnknownBundleError()
    const walletShows = entry ? entry.kind === 'wallet' && entry.showsStatus : batches?.showsStatus === true
    if (walletShows) return askWallet(connection, request, entry !== undefined)
    if (!entry) throw new Calls.UnknownBundleError()
    shown = id
    kernel.router.send({ type: 'OPEN', view: 'CallsStatus' })
    kernel.changed()
    if (entry.kind === 'wallet') refresh(connection)
    return null
  }

  /** Asks the wallet about the shown batch until it settles or the view goes. */
  function refresh(connection: Connection) {
    kernel.timers.clearTimeout(timer)
    const id = shown
    if (!id || kernel.router.view() !== 'CallsStatus') return
    statusOf(id, connection)
      .then((status) => {
        kernel.changed()
        if (status.status < 200) timer = kernel.timers.setTimeout(() => refresh(connection), refreshMs)
      })
      .catch(() => {})
  }

  return {
    answer(request, connection) {
      if (!isEip155(request)) return undefined
      switch (request.method) {
        case 'wallet_getCapabilities':
          return getCapabilities(request, connection)
        case 'wallet_sendCalls':
          return sendCalls(request, connection)
        case 'wallet_getCallsStatus':
          return statusOf(Calls.parseId(request.method, request.params), connection, request)
        case 'wallet_showCallsStatus':
          return showCallsStatus(request, connection)
      }
      return undefined
    },
    snapshot(): CallsSlice {
      const entry = shown === undefined ? undefined : entries.get(shown)
      if (!entry) return { calls: undefined }
      const chainId = entry.kind === 'sequential' ? entry.batch.chainId : entry.chainId
      return { calls: View.viewOf(entry, kernel.configured(Calls.chainOf({ chainId }))) }
    },
    ui: {
      doneCalls() {
        kernel.router.send({ type: 'CLOSE' })
      },
    } satisfies CallsUi,
    closed() {
      kernel.timers.clearTimeout(timer)
      shown = undefined
    },
  }
}

/** A batch id no dApp can guess: 32 random bytes, hex. */
function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`
}
