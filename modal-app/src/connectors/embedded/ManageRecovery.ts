/**
 * What protects the wallet, on its own page (`SettingsRecovery.tsx`): moving from a recovery password to a
 * passkey (the password opens the recovery share, a new passkey seals it too, the wallet's key signs the
 * change), dropping the password once a passkey protects the wallet, and the recovery phrase, shown only
 * after the visitor read the warnings and proved themself again with the passkey (or the password).
 */
import type * as Contract from '@airlock/api/contract'
import type { Kernel } from '../../core/Feature.ts'
import type { Account, Session } from './Account.ts'
import * as Passkey from './Passkey.ts'
import * as Protection from './Protection.ts'
import type * as Vault from './Vault.ts'
import { viewTexts as texts } from './viewTexts.ts'

export type ManageRecoveryOptions = {
  kernel: Pick<Kernel, 'changed' | 'shake'>
  account: Account
  custody(): Promise<typeof import('./custody.ts')>
  session(): Session | undefined
  wallet(): Vault.Wallet | undefined
}

/** What the page shows of the wallet's protection. */
export type ProtectionPage = {
  busy: boolean
  error?: string | undefined
  notice?: string | undefined
  phrase?: string[] | undefined
  /** What seals a copy of the recovery share, once read from the API. */
  recoveries?: Contract.WalletRecoveriesAnswer['recoveries'] | undefined
  /** The visitor read the recovery phrase's warnings and said so. */
  understood: boolean
  /** The confirmation of dropping the password shows. */
  dropping: boolean
}

const fresh = (): ProtectionPage => ({ busy: false, understood: false, dropping: false })

export function create(options: ManageRecoveryOptions) {
  const { kernel, account, custody } = options
  let page = fresh()
  let stored: Contract.StoredWallet | undefined
  const set = (next: Partial<ProtectionPage>) => {
    page = { ...page, ...next }
    kernel.changed()
  }

  /** Runs `work` with the page busy; its failure is said on the page. */
  async function busy(
    work: (session: Session, wallet: Vault.Wallet, stored: Contract.StoredWallet) => Promise<void>,
  ) {
    const session = options.session()
    const wallet = options.wallet()
    if (!session || !wallet || !stored || page.busy) return
    set({ busy: true, error: undefined, notice: undefined })
    try {
      await work(session, wallet, stored)
    } catch (error) {
      set({ busy: false, error: Protection.messageOf(error, await custody()) })
      kernel.shake()
    }
  }

  /** The wallet as the API holds it now: which copies of the recovery share there are. */
  async function reload(session: Session) {
    stored = await account.wallet(session.token)
    set({
      recoveries: stored?.recoveries.map(({ method, ...rest }) => ({
        method,
        ...('credentialId' in rest ? { credentialId: rest.credentialId } : {}),
      })),
    })
  }

  /** Shows the phrase, once the unlock opened the recovery share (the share itself is not kept). */
  async function reveal(session: Session, wallet: Vault.Wallet, unlock: Vault.Unlock) {
    const { Vault } = await custody()
    ;(await Vault.recoveryShare(session, stored as Contract.StoredWallet, unlock)).fill(0)
    set({ busy: false, phrase: (await Vault.phraseOf(wallet)).split(' ') })
  }

  return {
    clear() {
      page = fresh()
      stored = undefined
    },
    slice: () => ({ protection: page }),
    load() {
      const session = options.session()
      if (session) reload(session).catch((error: unknown) => set({ error: Protection.messageOf(error) }))
    },
    ui: {
      understandPhrase(understood: boolean) {
        set({ understood })
      },
      /** With the password, or (in the click) with the passkey: a fresh proof before the phrase shows. */
      revealPhrase(password?: string) {
        if (!page.understood) return
        if (password !== undefined)
          return busy((session, wallet) => reveal(session, wallet, { method: 'password', password }))
        if (!stored) return
        const result = Passkey.ceremony(
          'get',
          Promise.resolve(Protection.unlockRequest(stored)),
          Protection.windowTexts('get'),
        )
        return busy(async (session, wallet) => {
          const unlock = Protection.unlockOf(await result)
          if (!unlock) throw new Passkey.PasskeyError('NoPrf')
          await reveal(session, wallet, unlock)
        })
      },
      hidePhrase() {
        set({ phrase: undefined, understood: false })
      },
      /**
       * In the click: a new passkey, registered for the visitor, seals the recovery share the password opens;
       * the wallet's key signs the change.
       */
      addPasskey(password: string) {
        const session = options.session()
        if (!session || !stored) return
        const result = Passkey.ceremony(
          'create',
          account.passkey
            .registerOptions(session.token)
            .then((asked) => ({ kind: 'create', options: asked }) as const),
          Protection.windowTexts('create'),
        )
        return busy(async (session, wallet, stored) => {
          const created = await result
          const unlock = Protection.unlockOf(created)
          if (!unlock || created.kind !== 'create') return set({ busy: false, error: texts.wallet.noPrf })
          const { Vault } = await custody()
          // The password first: a wrong one registers no passkey.
          ;(await Vault.recoveryShare(session, stored, { method: 'password', password })).fill(0)
          await account.passkey.register(session.token, created.response)
          await Vault.addPasskey({ account }, session, wallet, stored, password, unlock)
          await reload(session)
          set({ busy: false, notice: texts.settings.passkeyAdded })
        })
      },
      askDropPassword(dropping: boolean) {
        set({ dropping })
      },
      dropPassword() {
        return busy(async (session, wallet) => {
          const { Vault } = await custody()
          await Vault.dropPassword({ account }, session, wallet)
          await reload(session)
          set({ busy: false, dropping: false, notice: texts.settings.passwordDropped })
        })
      },
    },
  }
}
