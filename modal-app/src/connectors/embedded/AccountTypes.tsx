import { useId } from 'react'
import type { ViewProps } from '../../core/Feature.ts'
import { type AccountType, accountTypes } from './AccountType.ts'
import { viewTexts as texts } from './viewTexts.ts'

/**
 * The EVM account type, in the embedded wallet's Settings: a smart account (its own address), the same
 * address upgraded with EIP-7702, or the standard account. Each choice says what happens to the address,
 * as moving to the 4337 account leaves funds behind at the old one.
 */
export function AccountTypes({ current, ui }: { current: AccountType; ui: ViewProps['ui'] }) {
  const id = useId()
  return (
    <section aria-labelledby={`${id}-title`}>
      <fieldset className="swap-approval" aria-describedby={`${id}-intro`}>
        <legend className="label" id={`${id}-title`}>
          {texts.settings.accountTitle}
        </legend>
        <p className="muted" id={`${id}-intro`}>
          {texts.settings.accountIntro}
        </p>
        {accountTypes.map((type) => (
          <div key={type}>
            <label className="choice">
              <input
                type="radio"
                name={`${id}-type`}
                value={type}
                checked={current === type}
                aria-describedby={`${id}-${type}`}
                onChange={() => ui.chooseAccountType?.(type)}
              />
              {texts.settings.accountTypes[type]}
            </label>
            <p className="muted" id={`${id}-${type}`}>
              {texts.settings.accountHints[type]}
            </p>
          </div>
        ))}
      </fieldset>
    </section>
  )
}
