import type { CustomNetwork } from '@airlock/host-sdk'
import { useCallback, useEffect, useState } from 'react'
import { formatAmount } from './internal/format.ts'
import { useAirlock, useAirlockContext, useAirlockState } from './useAirlock.ts'

/** The account's native balance: as the modal reports it, else read from the chain through the wallet. */
export type Balance = {
  value: bigint
  decimals: number
  symbol: string
  /** `value` as the modal shows it: 3 decimals, truncated. */
  formatted: string
}

/** What {@link useAccount} returns. */
export type UseAccountReturnType = {
  status: 'connecting' | 'reconnecting' | 'connected' | 'disconnected'
  isConnected: boolean
  /** The active account's address, in its chain's own format. */
  address: string | undefined
  /** CAIP-10: `eip155:1:0x…`. */
  caipAddress: string | undefined
  namespace: 'eip155' | 'solana' | 'bip122' | undefined
  /** CAIP-2 id of the active network: `eip155:1`. */
  chainId: string | undefined
  /** The active network's name, as the modal lists it (or `customNetworks` names it). */
  chainName: string | undefined
  /** The native balance; undefined until read. */
  balance: Balance | undefined
  /** The account's name (ENS or the project's names, docs/behaviour.md §3's profileName), when it has one. */
  profileName: string | undefined
  /** Its avatar: a `data:image/…` URI or an https URL. */
  profileImage: string | undefined
  /** Reads the balance again (the modal closing does so too: a send or swap may have changed it). */
  refetchBalance(): void
  /** The wallet connected in the modal: its name, icon and a page wallet's rdns (modals since this field). */
  wallet: { name: string; icon?: string; rdns?: string } | undefined
  /** The embedded wallet's login (email, handle, provider), when that is the wallet. */
  user: { email?: string; username?: string; authProvider: string } | undefined
}

const nativeOf = (networks: CustomNetwork[] | undefined, chainId: string | undefined) =>
  networks?.find((network) => network.id === chainId)

/**
 * The connected account, its network and its native balance; re-renders on every change.
 * @example
 * const { address, balance } = useAccount()
 * return <p>{address} holds {balance?.formatted} {balance?.symbol}</p>
 */
export function useAccount(): UseAccountReturnType {
  const airlock = useAirlock()
  const { options } = useAirlockContext()
  const state = useAirlockState()
  const namespace = state.caipAddress?.split(':')[0] as UseAccountReturnType['namespace']
  const chainId = state.caipNetworkId
  const address = state.address
  const network = nativeOf(options.customNetworks, chainId)

  const decimals = network?.nativeCurrency.decimals ?? 18
  const symbol = network?.nativeCurrency.symbol ?? 'ETH'
  // Kept with the account and chain it was read for, so a switch never shows the last one's balance.
  const [read, setRead] = useState<{ of: string; balance: Balance }>()
  const [version, setVersion] = useState(0)
  const refetchBalance = useCallback(() => setVersion((n) => n + 1), [])
  // A closing modal may have sent or swapped: read again then.
  const open = state.open
  useEffect(() => {
    if (!open) refetchBalance()
  }, [open, refetchBalance])

  const of = `${chainId}:${address}`
  // A modal that reports the balance (protocol 1.4) makes the page's own read unneeded.
  const modalReads = state.balance !== undefined
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is how a caller asks for a fresh read.
  useEffect(() => {
    if (!airlock || namespace !== 'eip155' || !address || modalReads) return
    let current = true
    airlock.providers.eip155
      .request({ method: 'eth_getBalance', params: [address, 'latest'] })
      .then((hex) => {
        if (!current || typeof hex !== 'string') return
        const value = BigInt(hex)
        setRead({ of, balance: { value, decimals, symbol, formatted: formatAmount(value, decimals) } })
      })
      // A balance is a courtesy: a wallet that cannot read it leaves it unknown, not the page broken.
      .catch(() => {})
    return () => {
      current = false
    }
  }, [airlock, namespace, address, of, decimals, symbol, version, modalReads])

  // The modal's own reading (every namespace, refreshed after its sends and swaps) wins over the page's.
  const reported = state.balance && {
    value: BigInt(state.balance.value),
    decimals: state.balance.decimals,
    symbol: state.balance.symbol,
    formatted: formatAmount(BigInt(state.balance.value), state.balance.decimals),
  }
  return {
    status: state.status,
    isConnected: state.status === 'connected',
    address,
    caipAddress: state.caipAddress,
    namespace,
    chainId,
    chainName: state.networkName ?? network?.name,
    balance: reported ?? (read?.of === of && namespace === 'eip155' ? read.balance : undefined),
    profileName: state.profile?.name,
    profileImage: state.profile?.image,
    refetchBalance,
    wallet: state.wallet,
    user: state.user,
  }
}
