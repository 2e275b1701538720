/**
 * The two hashes sign-in's address checks need: keccak-256 for EIP-55 checksums and SHA-256 for Base58Check.
 * Small rather than fast (a few dozen bytes hashed per message), because they ship in the host SDK's
 * bridge script, where a general-purpose hash library would weigh more than the whole parser. Nothing here
 * checks a signature: the API does that with audited libraries.
 */

const mask64 = (1n << 64n) - 1n
const rotl64 = (x: bigint, n: number) => ((x << BigInt(n)) | (x >> BigInt(64 - n))) & mask64

/**
 * Keccak-256 as Ethereum uses it (the original Keccak padding, not SHA3-256's).
 * @example keccak256(new Uint8Array()) // c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470
 */
export function keccak256(bytes: Uint8Array): Uint8Array {
  const rate = 136
  const padded = new Uint8Array((Math.floor(bytes.length / rate) + 1) * rate)
  padded.set(bytes)
  const last = padded.length - 1
  padded[bytes.length] = 0x01
  padded[last] = last === bytes.length ? 0x81 : 0x80
  const view = new DataView(padded.buffer)
  const state: bigint[] = new Array(25).fill(0n)
  for (let offset = 0; offset < padded.length; offset += rate) {
    for (let i = 0; i < rate / 8; i++)
      state[i] = (state[i] as bigint) ^ view.getBigUint64(offset + i * 8, true)
    keccakF(state)
  }
  const out = new DataView(new ArrayBuffer(32))
  for (let i = 0; i < 4; i++) out.setBigUint64(i * 8, state[i] as bigint, true)
  return new Uint8Array(out.buffer)
}

/** Keccak-f[1600] on 25 64-bit lanes, lane (x, y) at `x + 5y`, round constants from the spec's LFSR. */
function keccakF(s: bigint[]): void {
  const at = (i: number) => s[i] as bigint
  let lfsr = 1
  for (let round = 0; round < 24; round++) {
    // θ
    const columns = [0, 1, 2, 3, 4].map((x) => at(x) ^ at(x + 5) ^ at(x + 10) ^ at(x + 15) ^ at(x + 20))
    for (let x = 0; x < 5; x++) {
      const d = (columns[(x + 4) % 5] as bigint) ^ rotl64(columns[(x + 1) % 5] as bigint, 1)
      for (let y = 0; y < 25; y += 5) s[x + y] = at(x + y) ^ d
    }
    // ρ and π
    let x = 1
    let y = 0
    let current = at(1)
    for (let t = 0; t < 24; t++) {
      ;[x, y] = [y, (2 * x + 3 * y) % 5]
      const next = at(x + 5 * y)
      s[x + 5 * y] = rotl64(current, (((t + 1) * (t + 2)) / 2) % 64)
      current = next
    }
    // χ
    for (let row = 0; row < 25; row += 5) {
      const lanes = s.slice(row, row + 5) as [bigint, bigint, bigint, bigint, bigint]
      for (let i = 0; i < 5; i++)
        s[row + i] = lanes[i as 0] ^ (~lanes[((i + 1) % 5) as 0] & lanes[((i + 2) % 5) as 0])
    }
    // ι
    for (let j = 0; j < 7; j++) {
      lfsr = ((lfsr << 1) ^ ((lfsr >> 7) * 0x71)) % 256
      if (lfsr & 2) s[0] = at(0) ^ (1n << BigInt((1 << j) - 1))
    }
  }
}

// FIPS 180-4's constants: the first 32 bits of the fractional parts of the square roots of the first 8
// primes (initial hash) and of the cube roots of the first 64 (round constants).
const initial: number[] = []
const rounds: number[] = []
for (let n = 2; rounds.length < 64; n++) {
  let prime = true
  for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false
  if (!prime) continue
  if (initial.length < 8) initial.push(((Math.sqrt(n) % 1) * 2 ** 32) | 0)
  rounds.push(((Math.cbrt(n) % 1) * 2 ** 32) | 0)
}

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n))

/**
 * SHA-256 (FIPS 180-4).
 * @example sha256(new TextEncoder().encode('abc')) // ba7816bf…f20015ad
 */
export function sha256(bytes: Uint8Array): Uint8Array {
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64)
  padded.set(bytes)
  padded[bytes.length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(bytes.length / 2 ** 29))
  view.setUint32(padded.length - 4, (bytes.length * 8) >>> 0)
  const hash = initial.slice()
  const w = new Array<number>(64).fill(0)
  const word = (i: number) => w[i] as number
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4)
    for (let i = 16; i < 64; i++) {
      const x = word(i - 15)
      const y = word(i - 2)
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10)
      w[i] = (word(i - 16) + s0 + word(i - 7) + s1) | 0
    }
    let [a, b, c, d, e, f, g, h] = hash as [number, number, number, number, number, number, number, number]
    for (let i = 0; i < 64; i++) {
      const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
      const t1 = (h + s1 + ((e & f) ^ (~e & g)) + (rounds[i] as number) + word(i)) | 0
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
      h = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    ;[a, b, c, d, e, f, g, h].forEach((value, i) => {
      hash[i] = ((hash[i] as number) + value) | 0
    })
  }
  const out = new DataView(new ArrayBuffer(32))
  hash.forEach((value, i) => {
    out.setUint32(i * 4, value >>> 0)
  })
  return new Uint8Array(out.buffer)
}
