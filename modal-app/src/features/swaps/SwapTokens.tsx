import { useId, useState } from 'react'
import type { CoreSnapshot } from '../../core/Snapshot.ts'
import { formatQuantity } from '../../shared/format.ts'
import { search, type Token } from './Form.ts'
import { formatUnits } from './Plan.ts'
import type { SwapSlice, SwapUi } from './runtime.ts'
import { swapTexts } from './texts.ts'

/**
 * The token picker of one side: a search (name, symbol or the contract's address), the tokens the account
 * holds with their balances, then the others the network swaps. The token the side has is marked current.
 */
export default function SwapTokens({
  snapshot,
  ui,
}: {
  snapshot: CoreSnapshot & Partial<SwapSlice>
  ui: Partial<SwapUi>
}) {
  const id = useId()
  const [query, setQuery] = useState('')
  const { swap } = snapshot
  if (!swap) return <div className="view view-loading" aria-busy="true" />
  const chosen = swap.picking === 'from' ? swap.form.from : swap.form.to
  const found = search(swap.tokens, query)
  const held = found.filter((token) => token.balance > 0n)
  const others = found.filter((token) => token.balance === 0n)
  const pasted = /^0x[0-9a-fA-F]{40}$/.test(query.trim())
  return (
    <div className="view swap-tokens">
      <label className="sr-only" htmlFor={`${id}-search`}>
        {swapTexts.search}
      </label>
      <input
        id={`${id}-search`}
        className="search"
        type="search"
        data-testid="swap-token-search"
        placeholder={swapTexts.search}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {found.length === 0 && (
        <p className="muted" role="status">
          {pasted ? swapTexts.notSwappable(swap.network?.name ?? '') : swapTexts.noMatch}
        </p>
      )}
      <List id={`${id}-held`} title={swapTexts.yourTokens} tokens={held} chosen={chosen} ui={ui} />
      <List id={`${id}-others`} title={swapTexts.popular} tokens={others} chosen={chosen} ui={ui} />
    </div>
  )
}

function List(props: {
  id: string
  title: string
  tokens: readonly Token[]
  chosen: string | undefined
  ui: Partial<SwapUi>
}) {
  if (props.tokens.length === 0) return null
  return (
    <section aria-labelledby={props.id}>
      <h2 className="label" id={props.id}>
        {props.title}
      </h2>
      <ul className="plain-list">
        {props.tokens.map((token) => (
          <li key={token.id}>
            <button
              type="button"
              className="row token"
              data-testid="swap-token"
              data-symbol={token.symbol}
              aria-current={token.id === props.chosen ? 'true' : undefined}
              onClick={() => props.ui.chooseSwapToken?.(token.id)}
            >
              {token.logoUri ? (
                <img className="token-icon" src={token.logoUri} alt="" width={28} height={28} />
              ) : (
                <span className="token-icon" aria-hidden="true" />
              )}
              <span className="token-name">
                {token.symbol} <span className="muted">{token.name}</span>
              </span>
              <span className="token-amount">
                {token.balance > 0n ? formatQuantity(formatUnits(token.balance, token.decimals)) : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
