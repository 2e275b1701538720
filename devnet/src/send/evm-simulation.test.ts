import {
  changesFromDraft,
  changesFromLogs,
  effectiveGasPrice,
  type Log,
} from '@airlock/modal-app/send/families/evm-simulation'
import type { Draft } from '@airlock/modal-app/send/family'
import { type Address, encodeAbiParameters, encodeEventTopics, type Hex, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'

const events = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Transfer721(address indexed from, address indexed to, uint256 indexed tokenId)',
])
const eth = { symbol: 'ETH', decimals: 18 }
const alt = { symbol: 'ALT', decimals: 18, address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' }
const from = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const feeTaker = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const other = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const draft: Draft = { from, to, asset: alt, amount: 100n }

/** A Transfer log as nodes write it: lower-case addresses, the value in data. */
function transfer(contract: string, sender: Address, receiver: Address, value: bigint): Log {
  const topics = encodeEventTopics({
    abi: events,
    eventName: 'Transfer',
    args: { from: sender, to: receiver },
  })
  return {
    address: contract.toLowerCase(),
    topics: topics as Hex[],
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
  }
}

describe('changesFromLogs', () => {
  it('puts the sender first, with the fee in its native change, then the others in log order', () => {
    const logs = [
      transfer(alt.address, from, feeTaker, 2n),
      transfer(alt.address, from, to, 98n),
      transfer('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', from, to, 5n),
    ]
    expect(changesFromLogs(draft, eth, logs, 7n)).toEqual([
      { address: from, asset: alt, delta: -100n },
      { address: from, asset: eth, delta: -12n },
      { address: feeTaker, asset: alt, delta: 2n },
      { address: to, asset: alt, delta: 98n },
      { address: to, asset: eth, delta: 5n },
    ])
  })

  it('names a token it was not told about by its address, and leaves NFT transfers out', () => {
    const nft = encodeEventTopics({
      abi: events,
      eventName: 'Transfer721',
      args: { from, to, tokenId: 1n },
    })
    const erc721: Log = { address: other, topics: [transferTopic(), ...(nft.slice(1) as Hex[])], data: '0x' }
    const changes = changesFromLogs(draft, eth, [erc721, transfer(other, to, from, 3n)], 0n)
    expect(changes).toEqual([
      { address: from, asset: { symbol: '0xe7f1…0512', decimals: 0, address: other }, delta: 3n },
      { address: to, asset: { symbol: '0xe7f1…0512', decimals: 0, address: other }, delta: -3n },
    ])
  })
})

function transferTopic() {
  const [topic] = encodeEventTopics({ abi: events, eventName: 'Transfer' })
  if (!topic) throw new Error('no topic')
  return topic
}

describe('changesFromDraft', () => {
  it('is the draft’s own transfer, the fee on the sender’s native change', () => {
    expect(changesFromDraft({ ...draft, asset: eth }, eth, 7n)).toEqual([
      { address: from, asset: eth, delta: -107n },
      { address: to, asset: eth, delta: 100n },
    ])
  })
})

describe('effectiveGasPrice', () => {
  it('is the base fee and the tip, capped at the fee cap', () => {
    const tx = { maxFeePerGas: 30n, maxPriorityFeePerGas: 2n }
    expect(effectiveGasPrice(tx, 10n)).toBe(12n)
    expect(effectiveGasPrice(tx, 29n)).toBe(30n)
    expect(effectiveGasPrice(tx, undefined)).toBe(30n)
  })
})
