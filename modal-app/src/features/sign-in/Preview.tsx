import { truncateAddress } from '../../shared/format.ts'
import * as Locale from '../../shared/i18n/Locale.ts'
import type { Preview } from './SignInFlow.ts'
import { signInTexts } from './texts.ts'

/**
 * What the message the wallet is asked to sign says, before it is signed: the domain, the account
 * (shortened; in full in its title, for screen readers and when focused), the statement, the chain by name
 * and id, and when it is issued and expires, relative and as a date in the visitor's locale (`Intl`).
 */
export function MessagePreview({ preview }: { preview: Preview }) {
  const short = truncateAddress(preview.address)
  const chain = preview.chainName ? `${preview.chainName} (${preview.chainId})` : preview.chainId
  return (
    <section className="signin-preview" aria-label={signInTexts.preview} data-testid="signin-preview">
      <dl>
        <dt>{signInTexts.domain}</dt>
        <dd data-testid="signin-domain">{preview.domain}</dd>
        <dt>{signInTexts.address}</dt>
        {/* Focusable so a keyboard visitor can read the full address too (shown over the preview). */}
        <dd
          className="signin-address"
          data-testid="signin-address"
          title={preview.address}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the full address shows while it has focus.
          tabIndex={0}
        >
          <span className="signin-address-short" aria-hidden="true">
            {short}
          </span>
          <span className="signin-address-full">{preview.address}</span>
        </dd>
        {preview.statement && (
          <>
            <dt>{signInTexts.statement}</dt>
            <dd data-testid="signin-statement">{preview.statement}</dd>
          </>
        )}
        <dt>{signInTexts.chain}</dt>
        <dd data-testid="signin-chain">{chain}</dd>
        <dt>{signInTexts.issued}</dt>
        <dd data-testid="signin-issued">
          <When at={preview.issuedAt} from={preview.issuedAt} />
        </dd>
        <dt>{signInTexts.expires}</dt>
        <dd data-testid="signin-expires">
          <When at={preview.expiresAt} from={preview.issuedAt} />
        </dd>
      </dl>
    </section>
  )
}

/** A moment as "in 1 day" (from the message's issuance, which is now) and as a date and time, in the modal's language. */
function When({ at, from }: { at: number; from: number }) {
  const date = new Date(at)
  return (
    <>
      {`${relative(at - from)} · `}
      <time dateTime={date.toISOString()}>
        {new Intl.DateTimeFormat(Locale.current().tag, { dateStyle: 'medium', timeStyle: 'short' }).format(
          date,
        )}
      </time>
    </>
  )
}

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
]

/** "now", "in 1 hour", "in 7 days": the largest whole unit, via `Intl.RelativeTimeFormat`. */
function relative(ms: number): string {
  const format = new Intl.RelativeTimeFormat(Locale.current().tag, { numeric: 'auto' })
  for (const [unit, size] of units)
    if (Math.abs(ms) >= size) return format.format(Math.trunc(ms / size), unit)
  return format.format(0, 'second')
}
