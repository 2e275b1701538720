/**
 * The Bitcoin-family dev chain as plain data: Litecoin Core's regtest, whose address and key prefixes
 * differ from Bitcoin's regtest (`rltc`, P2SH version 0x3a) and whose genesis block is its own.
 */
import type { Network } from 'bitcoinjs-lib'

/** Hash of regtest's block 0 (`getblockhash 0`), fixed in Litecoin Core's chain parameters. */
export const genesisHash = '530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9'

/** CAIP-2 id: `bip122:` and the first 32 hex digits of the genesis hash (CAIP-4). */
export const caipNetworkId = `bip122:${genesisHash.slice(0, 32)}` as const

/**
 * bitcoinjs-lib parameters of Litecoin regtest. P2SH addresses use 0x3a (`Q…`), the version Litecoin
 * Core prints; keys and extended keys share Bitcoin testnet's versions.
 * @example
 * payments.p2wpkh({ pubkey, network: Regtest.network }).address // 'rltc1q…'
 */
export const network: Network = {
  messagePrefix: '\x19Litecoin Signed Message:\n',
  bech32: 'rltc',
  bip32: { public: 0x043587cf, private: 0x04358394 },
  pubKeyHash: 0x6f,
  scriptHash: 0x3a,
  wif: 0xef,
}

/** CAIP-2 id of a node's chain from its genesis hash. */
export function caipNetworkIdOf(hash: string): `bip122:${string}` {
  return `bip122:${hash.slice(0, 32)}`
}
