import { texts } from '../../shared/texts.ts'
import type { CoreSnapshot, CoreUi } from '../Snapshot.ts'

/** Waiting for the page wallet to answer; after a refusal, says so and offers to try again. */
export function ConnectingExternal({ snapshot, ui }: { snapshot: CoreSnapshot; ui: CoreUi }) {
  const { prompt } = snapshot
  if (!prompt) return <div className="view" />
  const { wallet, failure } = prompt
  const declined = failure?.code === 4001
  return (
    <div className="view view-center">
      <div className={failure ? 'wallet-halo wallet-halo-failed' : 'wallet-halo'}>
        <img className="wallet-icon-large" src={wallet.icon} alt="" width={64} height={64} />
      </div>
      {failure ? (
        <>
          <p className="lead">{declined ? texts.connecting.declined : texts.connecting.failed}</p>
          <p className="muted">{declined ? texts.connecting.declinedDetail : failure.message}</p>
          <button type="button" className="button" onClick={() => ui.retry()}>
            {texts.connecting.tryAgain}
          </button>
        </>
      ) : (
        <>
          <p className="lead">{texts.connecting.continueIn(wallet.name)}</p>
          <p className="muted">{texts.connecting.accept}</p>
        </>
      )}
    </div>
  )
}
