import type { AccountInfo, CoreSnapshot, CoreUi } from '../../core/Snapshot.ts'
import { ApproveButton, Unverified } from '../../core/ui/Guard.tsx'
import { truncateAddress } from '../../shared/format.ts'
import { texts } from '../../shared/texts.ts'
import type { SignInInfo, SignInUi } from './SignInFlow.ts'
import { signInTexts } from './texts.ts'

/**
 * The account as this view reads it: `profileName` is the name the Account feature read from the API's
 * identity route (SPEC §3), absent while it has none or that feature is off.
 */
type Account = AccountInfo & { profileName?: string | undefined }

/**
 * SIWXSignMessage (and ConnectingSiwe, its EIP-4361 twin): the site that asks, by its real origin, the
 * account that signs in (by its name too, where it has one), and Sign / Cancel. With required sign-in,
 * Cancel disconnects, and the card cannot be closed.
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
  return (
    <div className="view view-center">
      {account && (
        <img className="wallet-icon-large" src={account.wallet.icon} alt="" width={64} height={64} />
      )}
      <p className="lead">
        <strong data-testid="signin-origin">{origin}</strong> {texts.signIn.wantsYouToSignIn}
      </p>
      {account && <SigningAs account={account} />}
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

/**
 * Who signs in: the name, beside the shortened address, is only for the visitor to recognise the account;
 * the message the wallet signs names the address alone (EIP-4361), and the view never waits for the name.
 */
function SigningAs({ account }: { account: Account }) {
  const { address } = account
  // SPEC §9: names are eip155's.
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
