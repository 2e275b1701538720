import type { CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { ApproveButton, Unverified } from '../../core/ui/Guard.tsx'
import { texts } from '../../shared/texts.ts'
import type { SignInInfo, SignInUi } from './SignInFlow.ts'

/**
 * SIWXSignMessage (and ConnectingSiwe, its EIP-4361 twin): the site that asks, by its real origin, and
 * Sign / Cancel. With required sign-in, Cancel disconnects, and the card cannot be closed.
 */
export default function SignIn({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & { signIn?: SignInInfo }
  ui: CoreUi & SignInUi
}) {
  const { account, origin } = snapshot
  const signIn = snapshot.signIn ?? { status: 'idle', required: false }
  const signing = signIn.status === 'signing'
  return (
    <div className="view view-center">
      {account && (
        <img className="wallet-icon-large" src={account.wallet.icon} alt="" width={64} height={64} />
      )}
      <p className="lead">
        <strong data-testid="signin-origin">{origin}</strong> {texts.signIn.wantsYouToSignIn}
      </p>
      <p className="muted">{texts.signIn.explain}</p>
      {signIn.error && (
        <p className="error-text" role="alert">
          {signIn.error}
        </p>
      )}
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
      <p className="muted" aria-live="polite">
        {signing ? texts.signIn.signing : ''}
      </p>
      <div className="actions actions-row">
        <button type="button" className="button button-secondary" onClick={() => void ui.cancelSignIn()}>
          {signIn.required ? texts.signIn.disconnect : texts.signIn.cancel}
        </button>
        <ApproveButton className="button" disabled={signing} onClick={() => void ui.signIn()}>
          {texts.signIn.sign}
        </ApproveButton>
      </div>
    </div>
  )
}
