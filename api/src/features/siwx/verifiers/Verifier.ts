/**
 * What sign-in needs of a chain namespace: one implementation per namespace (`eip155.ts`, `solana.ts`,
 * `bip122.ts`), and `Accounts.ts` calls only this interface.
 */

type VerifyParameters = {
  /** CAIP-2 id of the signer's chain. */
  chainId: string
  /** The chain id's reference (`1` of `eip155:1`). */
  reference: string
  /** The signer's address, as the CAIP-10 account spells it. */
  address: string
  /** The exact text that was signed. */
  message: string
  /** The signature as the wallet answered it; each namespace documents its encodings. */
  signature: string
  /** The chain's RPC URL, for namespaces that check accounts on chain. */
  rpcUrl?: string | undefined
}

export type Verifier = {
  /** Whether signatures are checked on the chain's RPC, so sign-in needs a configured chain. */
  rpc: boolean
  /** Whether sign-in can check accounts of the chain with this CAIP-2 reference. */
  supports(reference: string): boolean
  /** Whether `address` is one the chain can have and sign-in can check. */
  isAddress(reference: string, address: string): boolean
  /** Whether the address compares without case, so sessions store it in lower case. */
  caseless(address: string): boolean
  /** Checks `signature` over `message` by the address. */
  verify(parameters: VerifyParameters): Promise<boolean>
}
