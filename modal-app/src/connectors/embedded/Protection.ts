/**
 * What protects the wallet, in the wallet view (`Recovery.tsx`) and at sign-in: a passkey whose PRF output
 * seals the recovery share (SECURITY.md), asked for when the wallet is created and when a new browser opens
 * it; a recovery password only where no passkey gives a PRF output (or the visitor prefers one), refused when
 * zxcvbn finds it weak. Signing in with a passkey opens a session and, with the same assertion's PRF output,
 * the wallet: no email round trip.
 */
import type * as Contract from '@airlock/api/contract'
import type { Kernel } from '../../core/Feature.ts'
import * as base64url from '../../shared/encoding/base64url.ts'
import type * as Ceremony from '../../shared/webauthn/Ceremony.ts'
import * as Account from './Account.ts'
import * as Passkey from './Passkey.ts'
import * as Sealing from './Sealing.ts'
import type { Secrets } from './Secrets.ts'
import type * as Vault from './Vault.ts'
import { viewTexts as texts } from './viewTexts.ts'

/** The wallet view's state: what the visitor is asked, and whether the password form shows. */
export type Recovery = {
  mode: 'create' | 'recover' | 'keep'
  busy: boolean
  error?: string | undefined
  stored?: Contract.StoredWallet
  /** The password form shows (creating: the fallback was chosen or needed). */
  password?: boolean
}

export type ProtectionOptions = {
  kernel: Pick<Kernel, 'changed' | 'shake'>
  account: Account.Account
  secrets: Secrets
  custody(): Promise<typeof import('./custody.ts')>
  session(): Account.Session | undefined
  recovery(): Recovery | undefined
  setRecovery(next: Recovery | undefined): void
  /** The wallet is open. */
  ready(wallet: Vault.Wallet): void
}

/** What the wallet view reads: creating, a passkey first; recovering, whatever seals a copy. */
export function slice(recovery: Recovery, opening: boolean) {
  const has = (method: 'passkey' | 'password') =>
    recovery.stored?.recoveries.some((copy) => copy.method === method) ?? false
  const creating = recovery.mode === 'create'
  return {
    mode: recovery.mode,
    busy: recovery.busy || opening,
    error: recovery.error,
    min: Sealing.passwordMin,
    passkey: creating ? !recovery.password : has('passkey'),
    password: creating ? recovery.password === true : has('password'),
  }
}

/** What the approval window says, when a ceremony must run there. */
export function windowTexts(kind: Ceremony.Request['kind']): Passkey.Texts {
  const { title, create, get, action, cancel } = texts.passkeyWindow
  return { title, question: kind === 'create' ? create : get, action, cancel }
}

/** A passkey's unlock from a ceremony's result, if it gave a PRF output. */
export function unlockOf(result: Ceremony.Result): Extract<Vault.Unlock, { method: 'passkey' }> | undefined {
  return result.prf && { method: 'passkey', credentialId: result.response.id, prf: result.prf }
}

/** A ceremony asking any of the wallet's passkeys (those that seal a copy), with a challenge no server checks. */
export function unlockRequest(stored: Pick<Contract.StoredWallet, 'recoveries'>, self: Window = window) {
  const allowCredentials = stored.recoveries.flatMap((recovery) =>
    recovery.method === 'passkey' ? [{ id: recovery.credentialId, type: 'public-key' as const }] : [],
  )
  const challenge = base64url.encode(globalThis.crypto.getRandomValues(new Uint8Array(32)))
  return {
    kind: 'get',
    options: { challenge, rpId: self.location.hostname, allowCredentials, userVerification: 'required' },
  } as const satisfies Ceremony.Request
}

/** A failure as the visitor reads it. */
export function messageOf(error: unknown, custody?: typeof import('./custody.ts')): string {
  if (error instanceof Passkey.PasskeyError) return texts.wallet.passkeyCancelled
  if (error instanceof Sealing.WrongPasswordError) return texts.wallet.wrong
  if (custody && error instanceof custody.Vault.WrongPasskeyError) return texts.wallet.wrongPasskey
  if (error instanceof Account.AccountError) return error.message
  console.error('[airlock]', texts.initFailed, error)
  return texts.initFailed
}

export function create(options: ProtectionOptions) {
  const { kernel, account, secrets, custody } = options
  const vault = { account, store: secrets }

  /** Runs `work` with the view busy; its failure is said in the view. */
  async function busy(work: (current: Recovery, session: Account.Session) => Promise<void>) {
    const current = options.recovery()
    const session = options.session()
    if (!current || current.busy || !session) return
    options.setRecovery({ ...current, busy: true, error: undefined })
    try {
      await work(current, session)
    } catch (error) {
      options.setRecovery({ ...current, busy: false, error: messageOf(error, await custody()) })
      kernel.shake()
    }
  }

  return {
    /** In the click: a new passkey, registered for the visitor, seals the new wallet's recovery share. */
    protectWithPasskey() {
      const session = options.session()
      if (!session || options.recovery()?.mode !== 'create') return
      const result = Passkey.ceremony(
        'create',
        account.passkey
          .registerOptions(session.token)
          .then((asked) => ({ kind: 'create', options: asked }) as const),
        windowTexts('create'),
      )
      return busy(async (current, session) => {
        const created = await result
        const unlock = unlockOf(created)
        // Without a PRF output the passkey could seal nothing: it is not registered, the password is offered.
        if (!unlock || created.kind !== 'create')
          return options.setRecovery({ ...current, busy: false, password: true, error: texts.wallet.noPrf })
        await account.passkey.register(session.token, created.response)
        const { Vault } = await custody()
        options.ready(await Vault.create(vault, session, unlock))
      })
    },
    /** In the click: the passkey that seals a copy of the recovery share opens it on this browser. */
    unlockWithPasskey() {
      const stored = options.recovery()?.stored
      if (!stored) return
      const result = Passkey.ceremony('get', Promise.resolve(unlockRequest(stored)), windowTexts('get'))
      return busy(async (current, session) => {
        const unlock = unlockOf(await result)
        if (!unlock) return options.setRecovery({ ...current, busy: false, error: texts.wallet.noPrf })
        const { Vault } = await custody()
        options.ready(await Vault.recover(vault, session, stored, unlock))
      })
    },
    choosePassword() {
      const current = options.recovery()
      if (current && !current.busy) options.setRecovery({ ...current, password: true, error: undefined })
    },
    submitRecovery(password: string) {
      return busy(async (current, session) => {
        if (password.length < Sealing.passwordMin)
          return options.setRecovery({ ...current, error: texts.wallet.tooShort(Sealing.passwordMin) })
        const { Vault } = await custody()
        if (current.mode === 'create') {
          const weak = await weakness(password, session)
          if (weak) return options.setRecovery({ ...current, error: weak })
          return options.ready(await Vault.create(vault, session, { method: 'password', password }))
        }
        const stored = current.stored as Contract.StoredWallet
        options.ready(await Vault.recover(vault, session, stored, { method: 'password', password }))
      })
    },
    /**
     * In the click on Connect's passkey row: any passkey of this relying party signs the API's challenge, the
     * API opens a session for its user, and its PRF output opens the wallet (`loggedIn`).
     */
    signIn(loggedIn: (session: Account.Session, unlock?: Vault.Unlock) => Promise<void>) {
      const result = Passkey.ceremony(
        'get',
        account.passkey.loginOptions().then((asked) => ({ kind: 'get', options: asked }) as const),
        windowTexts('get'),
      )
      return result.then(async (answered) => {
        if (answered.kind !== 'get') throw new Error('The passkey answered another ceremony.')
        await loggedIn(await account.passkey.login(answered.response), unlockOf(answered))
      })
    },
  }
}

/** Why `password` is too weak to seal a wallet, or undefined; the estimator loads on demand. */
async function weakness(password: string, session: Account.Session): Promise<string | undefined> {
  const Strength = await import('./Strength.ts')
  const inputs = [session.user.email, session.user.username].filter((input) => input !== undefined)
  const estimate = Strength.estimate(password, inputs)
  if (estimate.strong) return undefined
  const reasons = texts.wallet.weakness
  return texts.wallet.weak(reasons[estimate.weakness ?? 'other'] ?? reasons.other ?? '')
}
