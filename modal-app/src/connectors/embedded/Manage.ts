/**
 * The logic of the embedded wallet's own page (`Settings.tsx`): changing the email (docs/behaviour.md: the current
 * address's code, then the new one's), and a sign-out that forgets this browser; what protects the wallet and
 * its recovery phrase are `ManageRecovery.ts`'s. Nothing here outlives the page: leaving it or closing the
 * modal clears it.
 */
import * as Contract from '@airlock/api/contract'
import { Errors } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import type { Kernel } from '../../core/Feature.ts'
import type { Account, Session } from './Account.ts'
import * as ManageRecovery from './ManageRecovery.ts'
import * as Sealing from './Sealing.ts'
import type { Secrets } from './Secrets.ts'
import type * as Vault from './Vault.ts'
import { settingsView } from './views.ts'
import { viewTexts as texts } from './viewTexts.ts'

type Change = {
  step: 'email' | 'current' | 'new' | 'done'
  email: string
  busy: boolean
  error?: string | undefined
}

export type ManageOptions = {
  kernel: Pick<Kernel, 'router' | 'changed' | 'shake' | 'storage' | 'disconnect'>
  account: Account
  /** The key material code, loaded on demand (`custody.ts`). */
  custody(): Promise<typeof import('./custody.ts')>
  secrets: Secrets
  /** The login and the opened wallet, as the runtime holds them now. */
  session(): Session | undefined
  wallet(): Vault.Wallet | undefined
  /** The login changed (a new email): the runtime keeps it. */
  renamed(session: Session): void
  /** In the click: the window that keeps the login forgets it. */
  forgetKept(): void
}

export function create(options: ManageOptions) {
  const { kernel, account, secrets } = options
  const changed = () => kernel.changed()
  let change: Change | undefined
  let page = { forgetting: false }
  const recovery = ManageRecovery.create(options)
  const clear = () => {
    change = undefined
    page = { forgetting: false }
    recovery.clear()
  }

  /** The next step of changing the email, for the value the visitor typed. */
  async function step(current: Change, session: Session, value: string): Promise<Change> {
    const { token } = session
    if (current.step === 'email') {
      await account.changeEmail.start(token, value)
      return { step: 'current', email: value, busy: false }
    }
    if (current.step === 'current') {
      await account.changeEmail.verify(token, value)
      return { ...current, step: 'new', busy: false }
    }
    const user = await account.changeEmail.confirm(token, value)
    options.renamed({ token, user: { ...session.user, email: user.email } })
    return { ...current, step: 'done', busy: false }
  }

  return {
    clear,
    slice: () => ({ settings: { ...page, ...recovery.slice(), min: Sealing.passwordMin }, change }),
    ui: {
      showWalletSettings() {
        clear()
        kernel.router.send({ type: 'PUSH', view: settingsView })
        recovery.load()
      },
      ...recovery.ui,
      /** Without a value, starts (or cancels) a change; with one, takes the step it is at. */
      async changeEmail(value?: string) {
        const session = options.session()
        if (!session) return
        if (value === undefined) {
          change = change && change.step !== 'done' ? undefined : { step: 'email', email: '', busy: false }
          return changed()
        }
        if (!change || change.busy || change.step === 'done') return
        const current = change
        const parsed = S.parse(
          current.step === 'email' ? Contract.emailAddress : Contract.oneTimeCode,
          value.trim(),
        )
        if (!parsed.ok) {
          change = { ...current, error: parsed.message }
          return changed()
        }
        change = { ...current, busy: true, error: undefined }
        changed()
        try {
          change = await step(current, session, parsed.value)
        } catch (error) {
          change = { ...current, busy: false, error: Errors.messageOf(error, texts.initFailed) }
          kernel.shake()
        }
        changed()
      },
      askForget(asking: boolean) {
        page = { ...page, forgetting: asking }
        changed()
      },
      // In the click: a window that keeps the login is told to forget it too.
      forgetBrowser() {
        const user = options.session()?.user
        if (!user) return
        if (kernel.storage.getLoginKept()) {
          options.forgetKept()
          kernel.storage.setLoginKept(false)
        }
        secrets.forget(user.id)
        clear()
        void kernel.disconnect().catch(() => {})
      },
    },
  }
}
