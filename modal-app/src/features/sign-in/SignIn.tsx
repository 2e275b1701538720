import { useEffect, useRef } from 'react'
import type { AccountInfo, CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { ApproveButton, Unverified } from '../../core/ui/Guard.tsx'
import { truncateAddress } from '../../shared/format.ts'
import { texts } from '../../shared/texts.ts'
import { MessagePreview } from './Preview.tsx'
import type { SignInInfo, SignInUi } from './SignInFlow.ts'
import { signInTexts } from './texts.ts'

/**
 * The account as this view reads it: `profileName` is the name the Account feature read from the API's
 * identity route (docs/behaviour.md §3), absent while it has none or that feature is off.
 */
type Account = AccountInfo & { profileName?: string | undefined }

/**
 * SIWXSignMessage (and ConnectingSiwe, its EIP-4361 twin): the site that asks, by its real origin, the
 * account that signs in (by its name too, where it has one), what the message will say, and Sign / Cancel.
 * Sign takes the focus once it can be used. One status shows at a time: waiting for the wallet, or the one
 * error of the last attempt. With required sign-in, Cancel disconnects, and the card cannot be closed.
 */
export default function SignIn({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot<Account> & { signIn?: SignInInfo }
  ui: CoreUi & SignInUi
}) {
  const { account, origin } = snapshot
  const signIn = snapshot.signIn ?? { status: 'idle', required: false }
  const signing = signIn.status === 'signing'
  const actions = usePrimaryFocus()
  return (
    <div className="view view-center">
      {account && (
        <img className="wallet-icon-large" src={account.wallet.icon} alt="" width={64} height={64} />
      )}
      <p className="lead">
        <strong data-testid="signin-origin">{origin}</strong> {texts.signIn.wantsYouToSignIn}
      </p>
      {account && <SigningAs account={account} />}
      {signIn.preview && <MessagePreview preview={signIn.preview} />}
      <p className="muted">{texts.signIn.explain}</p>
      <Unverified
        question={() => ({
          title: texts.signIn.title,
          origin: origin ?? '',
          question: texts.signIn.wantsYouToSignIn,
          choices: [{ id: 'sign', label: texts.signIn.sign }],
          cancel: texts.guard.cancel,
        })}
        onChoice={() => void ui.signIn()}
      />
      {signIn.error && !signing ? (
        <p className="error-text" role="alert" data-testid="signin-error">
          {signIn.error}
        </p>
      ) : (
        <p className="muted" aria-live="polite">
          {signing ? texts.signIn.signing : ''}
        </p>
      )}
      <div className="actions actions-row" ref={actions}>
        <button type="button" className="button button-secondary" onClick={() => void ui.cancelSignIn()}>
          {signIn.required ? texts.signIn.disconnect : texts.signIn.cancel}
        </button>
        <ApproveButton className="button" data-primary="" disabled={signing} onClick={() => void ui.signIn()}>
          {texts.signIn.sign}
        </ApproveButton>
      </div>
    </div>
  )
}

/**
 * Who signs in: the name, beside the shortened address, is only for the visitor to recognise the account;
 * the message the wallet signs names the address alone (EIP-4361), and the view never waits for the name.
 */
function SigningAs({ account }: { account: Account }) {
  const { address } = account
  // docs/behaviour.md §9: names are eip155's.
  const name = account.namespace === 'eip155' ? account.profileName : undefined
  const short = truncateAddress(address)
  return (
    <p className="signin-account" data-testid="signin-account" title={address}>
      {`${signInTexts.signingAs} `}
      {name && <strong>{`${name} `}</strong>}
      <span aria-hidden="true">{name ? `(${short})` : short}</span>
      <span className="sr-only">{address}</span>
    </p>
  )
}

/**
 * Focus on the primary action (Sign) once it can be used: it is disabled until the card has been in sight a
 * while (`core/ui/Dwell.ts`), so the view's first focus lands elsewhere. Not once the visitor has moved focus
 * themselves.
 */
function usePrimaryFocus() {
  const ref = useRef<HTMLDivElement>(null)
  const done = useRef(false)
  const moved = useRef(false)
  useEffect(() => {
    const root = ref.current?.closest('.view')
    if (!root) return
    const onMove = () => {
      done.current = true
      moved.current = true
    }
    root.addEventListener('keydown', onMove)
    root.addEventListener('pointerdown', onMove)
    return () => {
      root.removeEventListener('keydown', onMove)
      root.removeEventListener('pointerdown', onMove)
    }
  }, [])
  // The guard enables Sign in a render of the button's own, not this view's: focus follows the button's
  // `disabled` as it changes. The card places focus on the view's first control after its children's
  // effects, so focus is taken once more after that.
  useEffect(() => {
    const actions = ref.current
    if (!actions) return
    const take = () => {
      const primary = actions.querySelector<HTMLButtonElement>('[data-primary]')
      if (done.current || !primary || primary.disabled) return
      done.current = true
      primary.focus({ preventScroll: true })
      setTimeout(() => {
        if (!moved.current && primary.isConnected && !primary.disabled) primary.focus({ preventScroll: true })
      }, 0)
    }
    take()
    const observer = new MutationObserver(take)
    observer.observe(actions, { attributes: true, attributeFilter: ['disabled'], subtree: true })
    return () => observer.disconnect()
  }, [])
  return ref
}
