/**
 * sendTransaction → confirmed, as a wallet built on @solana/kit sees it: a signed SOL transfer sent over
 * HTTP, confirmed through signatureSubscribe on the WebSocket. The bench reports the median.
 */
import {
  appendTransactionMessageInstruction,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import * as Solana from './Solana.ts'

export type MeasureOptions = {
  /** @default 50 */
  transfers?: number
  /** @default Solana.defaultSlotMs (400) */
  slotMs?: number
}

export type Measurement = { transfers: number; slotMs: number; p50Ms: number; p90Ms: number; maxMs: number }

/**
 * Starts a chain of its own on free ports, times `transfers` transfers one after another, and stops it.
 * @example
 * const { p50Ms } = await measureConfirmation()
 */
export async function measureConfirmation(options: MeasureOptions = {}): Promise<Measurement> {
  const transfers = options.transfers ?? 50
  const slotMs = options.slotMs ?? Solana.defaultSlotMs
  const chain = await Solana.start({ port: 0, slotMs })
  const subscriptions = createSolanaRpcSubscriptions(chain.wsUrl)
  try {
    const rpc = createSolanaRpc(chain.rpcUrl)
    const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions: subscriptions })
    const [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    await chain.fund([payer.address, recipient.address], { usdc: 0n })
    const samples: number[] = []
    for (let i = 0; i < transfers; i++) {
      const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()
      const transaction = await signTransactionMessageWithSigners(
        pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayerSigner(payer, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
          // A different amount each time, so two transfers in one slot never share a signature.
          (m) =>
            appendTransactionMessageInstruction(
              getTransferSolInstruction({
                source: payer,
                destination: recipient.address,
                amount: 1_000n + BigInt(i),
              }),
              m,
            ),
        ),
      )
      assertIsTransactionWithBlockhashLifetime(transaction)
      const started = performance.now()
      await sendAndConfirm(transaction, { commitment: 'confirmed' })
      samples.push(performance.now() - started)
    }
    samples.sort((a, b) => a - b)
    const at = (q: number) =>
      Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0)
    return { transfers, slotMs, p50Ms: at(0.5), p90Ms: at(0.9), maxMs: at(1) }
  } finally {
    await chain.stop()
  }
}
