/**
 * Registering a name as the modal runs it: what the visitor types is checked with the API after a pause
 * (docs/behaviour.md §9: 500 ms), which answers whether the name is free and free variants of it; Register has the
 * account's wallet sign the registration (docs/behaviour.md §7: a JSON message with the name, attributes and a timestamp
 * in seconds, `personal_sign`) and hands it to the API, which checks the signature before it keeps the name.
 */
import * as Contract from '@airlock/api/contract'
import type * as S from '@airlock/bridge-protocol/Shape'
import type { Kernel, Runtime } from '../../core/Feature.ts'
import { onScreen } from '../../core/Snackbar.ts'
import * as ApiCall from '../../shared/ApiCall.ts'
import { texts as shared } from '../../shared/texts.ts'
import { namesTexts } from './texts.ts'

// Read when a call fails, so in the visitor's language.
const texts = namesTexts

/** docs/behaviour.md §9's debounce. */
const pauseMs = 500

export type NamesSlice = {
  names: {
    text: string
    checking: boolean
    /** The typed name in full (with the suffix) and whether someone holds it. */
    wanted?: { name: string; registered: boolean } | undefined
    /** Free variants of it, in full. */
    suggestions: string[]
    error?: string | undefined
    /** Waiting for the wallet's signature or the API's answer. */
    busy: boolean
    /** The name just registered. */
    registered?: string | undefined
    /** Making it the address's primary name on chain (ENS's reverse record), which ENS clients read back. */
    primary?: 'sending' | 'set' | undefined
    primaryError?: string | undefined
  }
}

export type NamesUi = {
  showRegisterName(): void
  editName(text: string): void
  registerName(name: string): Promise<void>
  doneName(): void
  setPrimaryName(): Promise<void>
}

/** A label the API could take: docs/behaviour.md §5's 4 characters or more, letters, digits or hyphens (any script). */
const plausible = (label: string) => /^[\p{L}\p{N}-]{4,}$/u.test(label)

export function setup(kernel: Kernel): Runtime {
  let state: NamesSlice['names'] = { text: '', checking: false, suggestions: [], busy: false }
  let timer: unknown
  let generation = 0

  const set = (next: Partial<NamesSlice['names']>) => {
    state = { ...state, ...next }
    kernel.changed()
  }

  async function call<T>(path: string, shape: S.Shape<T>, body?: unknown): Promise<T> {
    const { endpoint } = kernel.api
    if (!endpoint) throw new Error(namesTexts.suggestionsFailed)
    return ApiCall.call(endpoint, path, shape, { body, texts })
  }

  async function check(label: string, mine: number) {
    try {
      const { suggestions } = await call(
        `/v1/profile/suggestions/${encodeURIComponent(label)}`,
        Contract.suggestionsAnswer,
      )
      if (mine !== generation) return
      const [wanted, ...others] = suggestions
      set({ checking: false, wanted, suggestions: others.filter((s) => !s.registered).map((s) => s.name) })
    } catch (error) {
      if (mine !== generation) return
      // The API's refusal says what is wrong with the name (too short, look-alikes); else the product's text (docs/behaviour.md §8).
      const message = error instanceof Error && error.message ? error.message : namesTexts.suggestionsFailed
      set({ checking: false, wanted: undefined, suggestions: [], error: message })
    }
  }

  /** Whether `hash` was mined successfully, asked through the API's relay until the chain answers. */
  async function mined(chainId: string, hash: string): Promise<boolean> {
    const { endpoint } = kernel.api
    if (!endpoint) return false
    for (let poll = 0; poll < receiptPolls; poll++) {
      const response = await fetch(endpoint(`/v1/rpc/${chainId}`), {
        method: 'POST',
        credentials: 'omit',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] }),
        // A relay that hangs costs one poll, not the whole wait.
        signal: AbortSignal.timeout(10_000),
      }).catch(() => undefined)
      const answer = (await response?.json().catch(() => undefined)) as
        | { result?: { status?: string } }
        | undefined
      if (answer?.result?.status) return answer.result.status === '0x1'
      await new Promise((resolve) => kernel.timers.setTimeout(() => resolve(undefined), receiptPollMs))
    }
    return false
  }

  const ui: NamesUi = {
    showRegisterName() {
      generation++
      state = { text: '', checking: false, suggestions: [], busy: false }
      kernel.router.send({ type: 'PUSH', view: 'RegisterAccountName' })
    },
    editName(text) {
      const mine = ++generation
      if (timer !== undefined) kernel.timers.clearTimeout(timer)
      const label = text.trim().toLowerCase()
      const ready = plausible(label.split('.')[0] ?? '')
      set({ text, checking: ready, wanted: undefined, suggestions: [], error: undefined })
      if (!ready) return
      timer = kernel.timers.setTimeout(() => void check(label, mine), pauseMs)
    },
    async registerName(name) {
      const connection = kernel.connectionOf('eip155')
      const address = connection?.accounts[0]?.address
      const chainId = connection?.chainId
      if (!connection || !address || !chainId || state.busy) return
      set({ busy: true, error: undefined })
      const reference = Number(chainId.slice(chainId.indexOf(':') + 1))
      // ENSIP-11: the chain's coin type; Ethereum's own is ENSIP-9's 60.
      const coinType = reference === 1 ? 60 : (0x8000_0000 | reference) >>> 0
      const message = JSON.stringify({ name, attributes: {}, timestamp: Math.floor(kernel.now() / 1000) })
      try {
        const signature = await kernel.walletRequest(connection, {
          namespace: 'eip155',
          method: 'personal_sign',
          params: [toHex(message), address],
        } as never)
        if (typeof signature !== 'string') throw new Error('The wallet gave no signature')
        await call('/v1/profile/account', Contract.nameRecord, {
          coin_type: coinType,
          address,
          message,
          signature,
        })
        set({ busy: false, registered: name })
        kernel.transacted('eip155')
        kernel.router.send({ type: 'REPLACE', view: 'RegisterAccountNameSuccess' })
      } catch (error) {
        const reason =
          (error as { code?: unknown })?.code === 4001 ? shared.signIn.declined : (error as Error)?.message
        kernel.shake()
        // The view says it, with the reason; the snackbar only where the visitor is elsewhere.
        kernel.snackbar.show('error', namesTexts.registerFailed(name), {
          inView: onScreen(kernel.router, 'RegisterAccountName'),
        })
        set({
          busy: false,
          error: reason ? `${namesTexts.registerFailed(name)}: ${reason}` : namesTexts.registerFailed(name),
        })
      }
    },
    async setPrimaryName() {
      const name = state.registered
      const connection = kernel.connectionOf('eip155')
      const address = connection?.accounts[0]?.address
      if (!name || !connection || !address || state.primary) return
      set({ primary: 'sending', primaryError: undefined })
      try {
        const { chainId, tx } = await call(
          `/v1/profile/primary/${encodeURIComponent(name)}?address=${address}`,
          Contract.primaryNameAnswer,
        )
        // The reverse record lives on the names chain: a wallet elsewhere would write it where no one reads.
        if (connection.chainId !== chainId)
          throw new Error(namesTexts.otherChain(kernel.configured(chainId)?.name ?? chainId))
        const hash = await kernel.walletRequest(connection, {
          namespace: 'eip155',
          method: 'eth_sendTransaction',
          params: [{ ...tx, value: '0x0' }],
        } as never)
        if (typeof hash !== 'string') throw new Error('The wallet gave no transaction')
        if (!(await mined(chainId, hash))) throw new Error(namesTexts.primaryFailed)
        set({ primary: 'set' })
        kernel.transacted('eip155')
      } catch (error) {
        const declined = (error as { code?: unknown })?.code === 4001
        set({
          primary: undefined,
          primaryError: declined ? shared.signIn.declined : (error as Error)?.message,
        })
      }
    },
    doneName() {
      kernel.router.send({ type: 'REPLACE', view: 'Account' })
    },
  }

  return {
    ui,
    snapshot: (): NamesSlice => ({ names: state }),
    closed() {
      generation++
      if (timer !== undefined) kernel.timers.clearTimeout(timer)
    },
  }
}

/** How often, and how many times, a sent transaction's receipt is asked for through the API's relay. */
const receiptPollMs = 500
const receiptPolls = 240

/** UTF-8 text as `personal_sign` takes it. */
function toHex(text: string): string {
  return `0x${[...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`
}
