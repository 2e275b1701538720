/**
 * The embedded wallet's account type per namespace, where a dApp wants other than docs/behaviour.md §1's defaults. For
 * eip155: `smartAccount`, an ERC-4337 account at its own address, deployed with its first transaction (the
 * default); `eip7702`, the visitor's own key upgraded in place to a smart account (same address; the state
 * reports it as `smartAccount`, the product's name (docs/behaviour.md §1) for both); `eoa`, the plain key. The other namespaces have one
 * type each. A namespace or type the modal does not know shows its "Invalid Configuration" alert.
 * @example preferredAccountTypes: { eip155: 'eip7702' }
 * @default { eip155: 'smartAccount', solana: 'eoa', polkadot: 'eoa', bip122: 'payment' }
 */
export type PreferredAccountTypes = {
  eip155?: 'smartAccount' | 'eip7702' | 'eoa'
  solana?: 'eoa'
  polkadot?: 'eoa'
  bip122?: 'payment'
}
