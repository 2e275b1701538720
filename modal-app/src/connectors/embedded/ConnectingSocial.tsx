import type { ViewProps } from '../../core/Feature.ts'
import { LoginProgress } from './LoginProgress.tsx'
import { embeddedTexts } from './texts.ts'
import { viewTexts as texts } from './viewTexts.ts'

/** While the provider's window is open: what to do there, and, when it failed, why and a way to try again. */
export default function ConnectingSocial({ snapshot, ui }: ViewProps) {
  const social = snapshot.embeddedWallet?.social as
    | { provider: string; error?: string; opening: boolean }
    | undefined
  if (!social) return null
  const name = embeddedTexts.providers[social.provider] ?? social.provider
  return (
    <div className="view">
      <LoginProgress
        error={social.error}
        errorTestId="social-error"
        retry={() => ui.socialLogin(social.provider)}
        waiting={social.opening ? texts.wallet.opening : texts.social.waiting(name)}
      />
    </div>
  )
}
