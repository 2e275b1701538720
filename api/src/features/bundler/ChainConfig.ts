/**
 * A chain's `accountAbstraction` block: ERC-4337 on an `eip155` chain. Its bundler is reached only through
 * the API (`/v1/bundler/{chainId}`, `features/bundler`), so a deployment's bundler URL, perhaps carrying a
 * vendor's key, never reaches a browser; its verifying paymaster is signed for by the API
 * (`/v1/paymaster/{chainId}`, `features/paymaster`) for the projects `sponsorship` names.
 */
import * as S from '@airlock/bridge-protocol/Shape'

const evmAddress = S.string(42, 42, /^0x[0-9a-fA-F]{40}$/)

export const accountAbstractionConfig = S.object({
  /** The bundler's JSON-RPC: Alto, or any ERC-4337 bundler (`eth_sendUserOperation`…). */
  bundlerUrl: S.string(2048, 1, /^https?:\/\/\S+$/),
  /** The EntryPoints the bundler serves, e.g. v0.8 `0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108`. */
  entryPoints: S.check(S.array(evmAddress, 4), (list) => list.length > 0, 'expected 1..4 EntryPoints'),
  /**
   * A verifying paymaster (eth-infinitism's sample: `getHash(userOp, validUntil, validAfter)`) whose
   * `verifyingSigner` is the address of `signerKey`. Without it, nothing is sponsored on the chain.
   */
  paymaster: S.optional(
    S.object({
      address: evmAddress,
      /** 0x and 64 hex characters; keep it out of the database: whoever holds it spends the deposit. */
      signerKey: S.string(66, 66, /^0x[0-9a-fA-F]{64}$/),
    }),
  ),
})
