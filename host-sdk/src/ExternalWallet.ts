/**
 * A wallet your dApp holds itself (an EIP-1193 provider it built or received, not one that announces itself on
 * the page), listed in Connect's `external` group and connected through the modal like any page wallet. The
 * modal asks it only for what the visitor approves there or your page asks for, as with a page wallet.
 * @example
 * const wallet: ExternalWallet = { id: 'team-signer', name: 'Team Signer', icon: 'data:image/svg+xml,…', provider }
 */
export type ExternalWallet = {
  /** Letters, digits, `-` and `_`; unique among your external wallets. */
  id: string
  name: string
  /** A `data:image/…` URI, as EIP-6963 asks of wallets' icons. */
  icon: string
  /** The EIP-1193 provider that answers for it. */
  provider: { request(args: { method: string; params?: unknown }): Promise<unknown> }
  /** Its reverse-DNS name, which `excludeWalletIds` may name. */
  rdns?: string
}
