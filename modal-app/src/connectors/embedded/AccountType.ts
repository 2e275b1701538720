/**
 * The embedded wallet's EVM account types (docs/behaviour.md §1: eip155 defaults to a smart account), apart so the first
 * chunks that name them (Settings, the stored choice) carry no smart account code.
 */
export const accountTypes = ['smartAccount', 'eip7702', 'eoa'] as const
export type AccountType = (typeof accountTypes)[number]
/** docs/behaviour.md §1's default for eip155. */
export const defaultType: AccountType = 'smartAccount'

/** The product's error (docs/behaviour.md §8) for what a dApp asks that a smart account cannot do. */
export const smartAccountsUnsupported = 'This application might not support Smart Accounts'
