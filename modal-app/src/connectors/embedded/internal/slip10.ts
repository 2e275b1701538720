/**
 * SLIP-10 for ed25519 (https://github.com/satoshilabs/slips/blob/master/slip-0010.md): BIP-32's scheme with
 * the key "ed25519 seed", hardened children only, and the child key taken as is (no addition mod n). It is
 * how Phantom, Solflare and `solana-keygen` turn a BIP-39 seed into the key at `m/44'/501'/0'/0'`.
 */
import { hmac } from '@noble/hashes/hmac'
import { sha512 } from '@noble/hashes/sha2'

const hardened = 0x8000_0000
const masterKey = new TextEncoder().encode('ed25519 seed')

/** A node of the tree: the 32-byte ed25519 private key (its seed) and the chain code. */
export type Node = { key: Uint8Array; chainCode: Uint8Array }

/**
 * The indexes of a path whose every step is hardened; ed25519 has no other kind.
 * @example parsePath("m/44'/501'/0'/0'") // [0x8000002c, 0x800001f5, 0x80000000, 0x80000000]
 */
export function parsePath(path: string): number[] {
  const [root, ...steps] = path.split('/')
  if (root !== 'm') throw new Error(`Not a derivation path: ${path}`)
  return steps.map((step) => {
    const match = /^(\d+)['hH]$/.exec(step)
    const index = match ? Number(match[1]) : Number.NaN
    if (!(index < hardened)) throw new Error(`SLIP-10 ed25519 derives hardened steps only: ${path}`)
    return index + hardened
  })
}

/** The node at `path` (indexes from {@link parsePath}) below the master node of `seed`. */
export function derive(seed: Uint8Array, path: readonly number[]): Node {
  let node = split(hmac(sha512, masterKey, seed))
  for (const index of path) {
    // Data = 0x00 || ser256(k_par) || ser32(i)
    const data = new Uint8Array(37)
    data.set(node.key, 1)
    new DataView(data.buffer).setUint32(33, index)
    const next = split(hmac(sha512, node.chainCode, data))
    data.fill(0)
    wipe(node)
    node = next
  }
  return node
}

/** Zeroes a node once its key has been used. */
export function wipe(node: Node): void {
  node.key.fill(0)
  node.chainCode.fill(0)
}

function split(output: Uint8Array): Node {
  const node = { key: output.slice(0, 32), chainCode: output.slice(32) }
  output.fill(0)
  return node
}
