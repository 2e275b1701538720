/**
 * The sandbox treasury's Solana side: a key of its own, funded by the dev chain's faucet (`requestAirdrop`),
 * from which a paid SOL purchase is delivered as an ordinary signed transfer over JSON-RPC, awaited until the
 * chain calls it confirmed, as a provider's payout would be.
 */
import {
  address,
  appendTransactionMessageInstruction,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  type KeyPairSigner,
  pipe,
  type Signature,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'

/** What {@link fund} gives the treasury: enough for any purchase within the card limits. */
const fundingLamports = 1_000n * 1_000_000_000n

/** How often a sent delivery's status is asked, and for how long. */
const pollMs = 100
const confirmWithinMs = 30_000

/** The treasury's signer of `seed` (32 bytes, hex). */
function signerOf(seed: string): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(Buffer.from(seed, 'hex'))
}

/** Funds the treasury of `seed` from the chain's faucet and waits until the airdrop is confirmed. */
export async function fund(rpcUrl: string, seed: string): Promise<void> {
  const rpc = createSolanaRpc(rpcUrl)
  const signer = await signerOf(seed)
  const signature = await rpc.requestAirdrop(signer.address, fundingLamports as never).send()
  await confirmed(rpcUrl, signature)
}

/** Sends `lamports` from the treasury of `seed` to `to`; the transfer's signature, once confirmed. */
export async function deliver(rpcUrl: string, seed: string, to: string, lamports: bigint): Promise<string> {
  const rpc = createSolanaRpc(rpcUrl)
  const signer = await signerOf(seed)
  const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()
  const transaction = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(signer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({ source: signer, destination: address(to), amount: lamports }),
          m,
        ),
    ),
  )
  const signature = await rpc
    .sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' })
    .send()
  await confirmed(rpcUrl, signature)
  return signature
}

/** Waits until `signature` is confirmed; throws if it failed or never lands. */
async function confirmed(rpcUrl: string, signature: Signature): Promise<void> {
  const rpc = createSolanaRpc(rpcUrl)
  const until = Date.now() + confirmWithinMs
  while (Date.now() < until) {
    const { value } = await rpc.getSignatureStatuses([signature]).send()
    const status = value[0]
    if (status?.err) throw new Error(`The transfer ${signature} failed`)
    if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
  throw new Error(`The transfer ${signature} was not confirmed within ${confirmWithinMs / 1000} s`)
}
