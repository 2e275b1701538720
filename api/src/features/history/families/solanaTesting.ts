/**
 * Test support for the Solana family: wallets from a label, and legacy transactions (a SOL transfer, an SPL
 * transfer) built, signed and sent by hand over the chain's JSON-RPC. The API has no Solana SDK among its
 * dependencies, and a legacy message is a few fields in a fixed order.
 */
import { createHash } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519'
import { base58 } from '@scure/base'
import * as JsonRpc from '../JsonRpc.ts'

export type Wallet = { address: string; seed: Uint8Array }

const systemProgram = '11111111111111111111111111111111'
const tokenProgram = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'

/** A wallet whose key is the SHA-256 of `label`: the same on every run, unlike every other label's. */
export function wallet(label: string): Wallet {
  const seed = createHash('sha256').update(`airlock history test ${label}`).digest()
  return { address: base58.encode(ed25519.getPublicKey(seed)), seed }
}

/** Sends `lamports` from `from` to `to`; resolves the signature once it is confirmed. */
export function sendSol(rpcUrl: string, from: Wallet, to: string, lamports: bigint, skipPreflight = false) {
  const data = new Uint8Array(12)
  const view = new DataView(data.buffer)
  view.setUint32(0, 2, true)
  view.setBigUint64(4, lamports, true)
  return send(
    rpcUrl,
    from,
    [from.address, to, systemProgram],
    { program: 2, accounts: [0, 1], data },
    {
      skipPreflight,
    },
  )
}

/** Moves `amount` base units between two token accounts of one mint, signed by the source's owner. */
export function sendToken(
  rpcUrl: string,
  owner: Wallet,
  source: string,
  destination: string,
  amount: bigint,
) {
  const data = new Uint8Array(9)
  data[0] = 3
  new DataView(data.buffer).setBigUint64(1, amount, true)
  const keys = [owner.address, source, destination, tokenProgram]
  return send(rpcUrl, owner, keys, { program: 3, accounts: [1, 2, 0], data })
}

/** The owner's token account of `mint` (the devnet's funding created it). */
export async function tokenAccount(rpcUrl: string, owner: string, mint: string): Promise<string> {
  const answer = (await JsonRpc.create(rpcUrl).call('getTokenAccountsByOwner', [
    owner,
    { mint },
    { commitment: 'confirmed', encoding: 'base64' },
  ])) as { value: { pubkey: string }[] }
  const [first] = answer.value
  if (!first) throw new Error(`${owner} has no token account of ${mint}`)
  return first.pubkey
}

type Instruction = { program: number; accounts: number[]; data: Uint8Array }

/**
 * A legacy transaction with one signer (the first key, writable), the last key read-only (the program), the
 * others writable; signed, sent and waited for until `confirmed`.
 */
async function send(
  rpcUrl: string,
  signer: Wallet,
  keys: readonly string[],
  instruction: Instruction,
  options: { skipPreflight?: boolean } = {},
): Promise<string> {
  const rpc = JsonRpc.create(rpcUrl)
  const latest = (await rpc.call('getLatestBlockhash', [{ commitment: 'confirmed' }])) as {
    value: { blockhash: string }
  }
  const message = Uint8Array.from([
    1,
    0,
    1,
    ...compact(keys.length),
    ...keys.flatMap((key) => [...base58.decode(key)]),
    ...base58.decode(latest.value.blockhash),
    ...compact(1),
    instruction.program,
    ...compact(instruction.accounts.length),
    ...instruction.accounts,
    ...compact(instruction.data.length),
    ...instruction.data,
  ])
  const signature = ed25519.sign(message, signer.seed)
  const wire = Uint8Array.from([...compact(1), ...signature, ...message])
  const sent = (await rpc.call('sendTransaction', [
    Buffer.from(wire).toString('base64'),
    { encoding: 'base64', skipPreflight: options.skipPreflight ?? false },
  ])) as string
  await confirmed(rpcUrl, [sent])
  return sent
}

/** Resolves once every signature is `confirmed` (a slot later than it landed). */
export async function confirmed(rpcUrl: string, signatures: readonly string[]): Promise<void> {
  const rpc = JsonRpc.create(rpcUrl)
  for (let i = 0; i < 100; i++) {
    const statuses = (await rpc.call('getSignatureStatuses', [signatures])) as {
      value: ({ confirmationStatus: string } | null)[]
    }
    const done = statuses.value.every(
      (status) => status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized',
    )
    if (done) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${signatures.join(', ')} not confirmed in 5 s`)
}

/** Solana's compact-u16 length prefix. */
function compact(n: number): number[] {
  const bytes: number[] = []
  let rest = n
  for (;;) {
    const low = rest & 0x7f
    rest >>= 7
    if (rest === 0) return [...bytes, low]
    bytes.push(low | 0x80)
  }
}
