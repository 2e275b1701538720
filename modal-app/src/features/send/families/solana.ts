/**
 * Send on Solana: SOL by a system transfer; SPL tokens (Token and Token-2022) by TransferChecked from the
 * sender's associated token account to the receiver's, created first when it does not exist. The preview is
 * the node's simulation of the unsigned transaction; submit keeps what the wallet signed, so a retry
 * broadcasts those bytes again instead of signing anew; settle follows the signature until it is confirmed
 * or its blockhash has expired.
 */
import { PublicKey, SystemProgram, Transaction, type TransactionInstruction } from '@solana/web3.js'
import { formatUnits } from 'viem'
import * as base58 from '../../../shared/encoding/base58.ts'
import type { Network } from '../../../shared/Network.ts'
import { type Asset, type Chain, type Draft, type Family, type Preview, SendFailure } from '../Family.ts'
import { sendTexts } from '../texts.ts'
import * as Errors from './solanaErrors.ts'
import * as Rpc from './solanaRpc.ts'
import * as Spl from './solanaSpl.ts'
import { Payload, settle, submit } from './solanaSubmit.ts'
import { solanaTexts } from './solanaTexts.ts'

export const texts = solanaTexts.send

const base58Address = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/** One balance the send changes: read before, simulated after. */
type Watch = { address: string; owner: string; asset: Asset; value(account: Spl.Account | null): bigint }

/** The instructions of a send and the balances they move, as they stand before it. */
type Plan = {
  instructions: TransactionInstruction[]
  watched: Watch[]
  before: (Spl.Account | null)[]
  /** The receiver's token account, when the send creates it. */
  created?: string | undefined
}

/**
 * Base58, 32 to 44 characters (docs/behaviour.md §5), and 32 bytes once decoded: an ed25519 key or a program address.
 * @example isAddress('11111111111111111111111111111111') // true
 */
export function isAddress(address: string): boolean {
  return base58Address.test(address) && base58.decode(address).length === 32
}

const nativeAsset = (network: Network): Asset => ({
  symbol: network.nativeCurrency.symbol,
  decimals: network.nativeCurrency.decimals,
})
const lamportsOf = (address: string, asset: Asset): Watch => ({
  address,
  owner: address,
  asset,
  value: (account) => account?.lamports ?? 0n,
})
const tokensOf = (account: PublicKey, owner: string, asset: Asset): Watch => ({
  address: account.toBase58(),
  owner,
  asset,
  value: Spl.amountOf,
})

async function nativePlan(chain: Chain, draft: Draft): Promise<Plan> {
  const { from, to, amount } = draft
  const transfer = SystemProgram.transfer({
    fromPubkey: new PublicKey(from),
    toPubkey: new PublicKey(to),
    lamports: amount,
  })
  return {
    instructions: [transfer],
    watched: [lamportsOf(from, draft.asset), lamportsOf(to, draft.asset)],
    before: await Rpc.accounts(chain, [from, to]),
  }
}

async function tokenPlan(chain: Chain, draft: Draft, mintAddress: string): Promise<Plan> {
  const { asset, amount } = draft
  if (draft.to === mintAddress) throw new SendFailure('invalid', sendTexts.tokenContract(asset.symbol))
  const [mintAccount = null, receiver = null] = await Rpc.accounts(chain, [mintAddress, draft.to])
  const mint = Spl.mintOf(mintAccount)
  // The visitor typed the amount in the asset's decimals: a mint with others would move another amount.
  if (!mint || mint.decimals !== asset.decimals)
    throw new SendFailure('chain', texts.unknownMint(asset.symbol, chain.network.name))
  if (receiver && Spl.kindOf(receiver)) throw new SendFailure('invalid', texts.tokenAccount)
  const from = new PublicKey(draft.from)
  const to = new PublicKey(draft.to)
  const mintKey = new PublicKey(mintAddress)
  const source = Spl.associatedAddress(from, mintKey, mint.program)
  const destination = Spl.associatedAddress(to, mintKey, mint.program)
  const before = await Rpc.accounts(chain, [draft.from, source.toBase58(), destination.toBase58()])
  if (Spl.amountOf(before[1] ?? null) < amount) throw new SendFailure('funds', sendTexts.insufficientFunds)
  const exists = before[2] !== null
  const create = Spl.createAssociatedIdempotent({
    payer: from,
    account: destination,
    owner: to,
    mint: mintKey,
    program: mint.program,
  })
  const transfer = Spl.transferCheckedInstruction({
    source,
    mint: mintKey,
    destination,
    owner: from,
    amount,
    decimals: mint.decimals,
    program: mint.program,
  })
  return {
    instructions: exists ? [transfer] : [create, transfer],
    watched: [
      lamportsOf(draft.from, nativeAsset(chain.network)),
      tokensOf(source, draft.from, asset),
      tokensOf(destination, draft.to, asset),
    ],
    before,
    created: exists ? undefined : destination.toBase58(),
  }
}

function planOf(chain: Chain, draft: Draft): Promise<Plan> {
  const mint = draft.asset.address
  return mint === undefined ? nativePlan(chain, draft) : tokenPlan(chain, draft, mint)
}

async function nativeMax(chain: Chain, from: string): Promise<bigint> {
  const payer = new PublicKey(from)
  const [balance, latest] = await Promise.all([Rpc.balance(chain, from), Rpc.latestBlockhash(chain)])
  // The fee depends on the signatures and instructions, not on the receiver or the amount.
  const transfer = SystemProgram.transfer({ fromPubkey: payer, toPubkey: payer, lamports: balance })
  const message = new Transaction({ feePayer: payer, ...latest }).add(transfer).serializeMessage()
  const fee = await Rpc.feeFor(chain, message, 1)
  return balance > fee ? balance - fee : 0n
}

async function tokenMax(chain: Chain, from: string, mintAddress: string): Promise<bigint> {
  const [mintAccount = null] = await Rpc.accounts(chain, [mintAddress])
  const mint = Spl.mintOf(mintAccount)
  if (!mint) return 0n
  // The send spends from the associated token account only, so that is what can be sent.
  const source = Spl.associatedAddress(new PublicKey(from), new PublicKey(mintAddress), mint.program)
  const [account = null] = await Rpc.accounts(chain, [source.toBase58()])
  return Spl.amountOf(account)
}

function detailsOf(
  chain: Chain,
  draft: Draft,
  plan: Plan,
  after: (Spl.Account | null)[],
): Preview['details'] {
  const index = plan.watched.findIndex((watch) => watch.address === plan.created)
  const created = after[index]
  if (index < 0 || !created) return []
  const { symbol, decimals } = chain.network.nativeCurrency
  const rent = formatUnits(created.lamports, decimals)
  return [
    { label: texts.newTokenAccount, value: texts.newTokenAccountValue(draft.asset.symbol, rent, symbol) },
  ]
}

async function preview(chain: Chain, draft: Draft): Promise<Preview> {
  if (!isAddress(draft.to)) throw new SendFailure('invalid', sendTexts.invalidAddress(chain.network.name))
  const [latest, plan] = await Promise.all([Rpc.latestBlockhash(chain), planOf(chain, draft)])
  const transaction = new Transaction({ feePayer: new PublicKey(draft.from), ...latest })
  transaction.add(...plan.instructions)
  const message = Uint8Array.from(transaction.serializeMessage())
  const unsigned = Uint8Array.from(
    transaction.serialize({ requireAllSignatures: false, verifySignatures: false }),
  )
  const programs = plan.instructions.map((instruction) => instruction.programId.toBase58())
  const watched = plan.watched.map((watch) => watch.address)
  const [fee, simulation] = await Promise.all([
    Rpc.feeFor(chain, message, 1),
    Rpc.simulate(chain, unsigned, watched),
  ])
  if (simulation.err !== null)
    throw await Errors.simulationFailure(chain, simulation.err, simulation.logs, programs)
  const changes = plan.watched.flatMap((watch, i) => {
    const delta = watch.value(simulation.accounts[i] ?? null) - watch.value(plan.before[i] ?? null)
    return delta === 0n ? [] : [{ address: watch.owner, asset: watch.asset, delta }]
  })
  return {
    draft,
    fee,
    changes,
    details: detailsOf(chain, draft, plan, simulation.accounts),
    payload: new Payload(unsigned, message, latest.lastValidBlockHeight, programs),
  }
}

export const family: Family = {
  namespace: 'solana',
  checkAddress: (address, network) =>
    isAddress(address) ? undefined : sendTexts.invalidAddress(network.name),
  max: (chain, draft) =>
    draft.asset.address === undefined
      ? nativeMax(chain, draft.from)
      : tokenMax(chain, draft.from, draft.asset.address),
  preview,
  submit,
  settle,
}
