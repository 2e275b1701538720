/**
 * The Bitcoin-family networks whose addresses Airlock can tell apart, by CAIP-2 reference (the genesis
 * block hash's first 32 hex digits): the bech32 prefix (BIP-173) and the Base58Check versions of P2PKH and
 * P2SH. One table for sign-in, the API's Bitcoin index and its balances.
 */
export type BitcoinNetwork = { bech32: string; pubKeyHash: number; scriptHash: number }

const mainnet: BitcoinNetwork = { bech32: 'bc', pubKeyHash: 0x00, scriptHash: 0x05 }
const testnet: BitcoinNetwork = { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4 }

export const bitcoinNetworks: Readonly<Record<string, BitcoinNetwork>> = {
  '000000000019d6689c085ae165831e93': mainnet,
  '000000000933ea01ad0ee984209779ba': testnet,
  '00000000da84f2bafbbc53dee25a72ae': testnet, // testnet4
  '00000008819873e925422c1ff0f99f7c': testnet, // signet
  '0f9188f13cb7b2c71f2a335e3a4fc328': { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4 }, // regtest
  // Litecoin Core's regtest: the devnet's Bitcoin-family chain (there is no bitcoind on Debian's side).
  '530827f38f93b43ed12af0b3ad25a288': { bech32: 'rltc', pubKeyHash: 0x6f, scriptHash: 0x3a },
}

/** The network of a CAIP-2 reference, if known; never a prototype key. */
export function bitcoinNetworkOf(reference: string): BitcoinNetwork | undefined {
  return Object.hasOwn(bitcoinNetworks, reference) ? bitcoinNetworks[reference] : undefined
}

/** Text that starts like a segwit address of a known network. */
export const bech32Start = /^(?:bc|tb|bcrt|rltc)1/i
