/** A session in words: what its key may call and spend, gas included, for the grant view and the sessions list. */
import { formatUnits } from '../../shared/Amount.ts'
import { truncateAddress } from '../../shared/format.ts'
import * as Locale from '../../shared/i18n/Locale.ts'
import { sessionTexts } from './texts.ts'

export type Described = { call: string; contract: string; limit: string; gas: string; until: string }

type Token = { symbol: string; decimals: number } | undefined

/**
 * @example describe({ target, selector, functionName: 'transfer', limit: 10n ** 19n, spends: 'token', validUntil }, { symbol: 'ALT', decimals: 18 })
 * // { call: 'transfer', contract: 'ALT (0x5FbD…0aa3)', limit: '10 ALT',
 * //   gas: 'Up to 0.01 ETH from your account, when no sponsor pays', until: '27 Nov 2026, 10:45' }
 */
export function describe(
  session: {
    target: string
    selector: string
    functionName?: string | undefined
    limit: bigint
    spends?: 'token' | 'native'
    /** Wei the account may pay for the key's gas. */
    gasAllowance: bigint
    validUntil: number
  },
  token: Token,
): Described {
  const native = session.selector === '0x00000000'
  const spendsToken = session.spends ? session.spends === 'token' : Boolean(token) && !native
  const amount =
    spendsToken && token
      ? `${formatUnits(session.limit, token.decimals)} ${token.symbol}`
      : `${formatUnits(session.limit, 18)} ETH`
  return {
    call: native ? 'ETH' : (session.functionName ?? session.selector),
    contract: token
      ? `${token.symbol} (${truncateAddress(session.target)})`
      : truncateAddress(session.target),
    limit: session.limit === 0n ? sessionTexts.noSpend : amount,
    gas:
      session.gasAllowance === 0n
        ? sessionTexts.noGas
        : sessionTexts.gasAllowance(`${formatUnits(session.gasAllowance, 18)} ETH`),
    until: new Intl.DateTimeFormat(Locale.current().tag, { dateStyle: 'medium', timeStyle: 'short' }).format(
      session.validUntil * 1000,
    ),
  }
}
