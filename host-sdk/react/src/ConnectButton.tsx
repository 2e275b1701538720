import type { CSSProperties } from 'react'
import { shortAddress } from './internal/format.ts'
import { useAccount } from './useAccount.ts'
import { useOpen } from './useOpen.ts'

/** Props of {@link ConnectButton}. */
export type ConnectButtonProps = {
  /** The button's text while nothing is connected. @default 'Connect Wallet' */
  label?: string
  /** Show the native balance beside the address. @default true */
  showBalance?: boolean
  /** Show the network button (opens Networks). @default true */
  chainStatus?: boolean
  className?: string
}

// Logical properties only, so the group reads right to left in RTL pages too.
const group: CSSProperties = { display: 'inline-flex', gap: '0.5rem', alignItems: 'center' }
const button: CSSProperties = {
  font: 'inherit',
  fontWeight: 600,
  paddingBlock: '0.5rem',
  paddingInline: '0.875rem',
  borderRadius: '0.75rem',
  border: '1px solid var(--airlock-button-border, #d0d5dd)',
  background: 'var(--airlock-button-background, #fff)',
  color: 'var(--airlock-button-color, #101828)',
  cursor: 'pointer',
}
const primary: CSSProperties = {
  ...button,
  background: 'var(--airlock-accent, #1f4ed8)',
  borderColor: 'var(--airlock-accent, #1f4ed8)',
  color: '#fff',
}

/**
 * Connect, then the account at a glance, as RainbowKit's button shows it: the network (opens Networks), and
 * the balance with the shortened address (opens Account). Renders "Connect Wallet" on the server and until
 * the modal reports a connection, so server and client agree at hydration.
 * @example
 * <AirlockProvider options={options}><ConnectButton /></AirlockProvider>
 */
export function ConnectButton({
  label = 'Connect Wallet',
  showBalance = true,
  chainStatus = true,
  className,
}: ConnectButtonProps) {
  const { open } = useOpen()
  const account = useAccount()
  if (!account.isConnected || !account.address)
    return (
      <button type="button" className={className} style={primary} onClick={() => open()}>
        {label}
      </button>
    )
  const chain = account.chainName ?? `Chain ${account.chainId?.split(':')[1] ?? ''}`
  const balance = showBalance && account.balance
  // The account's name where it has one, as RainbowKit shows an ENS name; else the shortened address.
  const name = account.profileName ?? shortAddress(account.address)
  return (
    <div className={className} style={group} data-testid="airlock-account">
      {chainStatus && (
        <button
          type="button"
          style={button}
          aria-label={`Network: ${chain}`}
          data-chain-id={account.chainId}
          onClick={() => open({ view: 'Networks' })}
        >
          {chain}
        </button>
      )}
      <button
        type="button"
        style={button}
        title={account.address}
        // The visible text first (WCAG 2.5.3, label in name), then the address in full for screen readers.
        aria-label={`${balance ? `${balance.formatted} ${balance.symbol} ` : ''}${name}, account ${account.address}`}
        onClick={() => open({ view: 'Account' })}
      >
        {balance && <span data-testid="airlock-balance">{`${balance.formatted} ${balance.symbol}`}</span>}
        {/* A space, not a margin: the visible text reads as the name does. */}
        {balance && ' '}
        <span data-testid="airlock-address" data-address={account.address}>
          {name}
        </span>
      </button>
    </div>
  )
}
