/**
 * The devnet's funded accounts: anvil's well-known test mnemonic, so keys are the same on every machine and
 * in every tool (Foundry, Hardhat, MetaMask docs). Public keys for public chains; never hold real funds.
 */
import type { Address, Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { bytesToHex } from 'viem/utils'

export const mnemonic = 'test test test test test test test test test test test junk'

/** Number of accounts anvil derives and funds with 10,000 ETH each. */
export const count = 10

export type Account = { address: Address; privateKey: Hex }

/**
 * Derives the devnet's accounts (BIP-44 path m/44'/60'/0'/0/i, as anvil does).
 * @example
 * const [deployer] = Accounts.all() // 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266
 */
export function all(): readonly Account[] {
  // Derivation runs PBKDF2 per account (~25 ms each), so do it once per process.
  derived ??= Object.freeze(Array.from({ length: count }, (_, addressIndex) => derive(addressIndex)))
  return derived
}

let derived: readonly Account[] | undefined

function derive(addressIndex: number): Account {
  const account = mnemonicToAccount(mnemonic, { addressIndex })
  const key = account.getHdKey().privateKey
  if (!key) throw new Error(`no private key derived for account ${addressIndex}`)
  return { address: account.address, privateKey: bytesToHex(key) }
}
