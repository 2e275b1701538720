/**
 * Previews of EVM requests: EIP-191 messages, EIP-712 typed data (with what makes a permit dangerous) and
 * transactions, whose calldata is decoded for the token calls that move or unlock assets.
 */
import { Caip } from '@airlock/bridge-protocol'
import { type Hex, hexToBytes, isAddress, isHex, maxUint160, maxUint256, size, stringToBytes } from 'viem'
import { approveTexts } from '../approveTexts.ts'
import type { Description, Row } from '../Describe.ts'
import { describeCall } from './describeCall.ts'
import * as Readable from './readable.ts'
import { type Context, cut, fail, limits, messageOf, whole } from './readable.ts'

const { labels, values, warnings: warn, titles } = approveTexts

/** The preview of an EVM request, or `undefined` for a method without one. Throws `Unreadable`. */
export function describe(method: string, params: unknown, context: Context): Description | undefined {
  switch (method) {
    case 'personal_sign':
      return personalSign(params)
    case 'eth_sign':
      return ethSign(params)
    case 'eth_signTypedData_v4':
      return typedData(params, context)
    case 'eth_sendTransaction':
      return transaction(params, context)
    case 'wallet_sendCalls':
      return batch(params, context)
  }
  return undefined
}

function personalSign(params: unknown): Description {
  const [message, account] = leading(params, 2)
  if (typeof message !== 'string') fail('The message is not a string.')
  // Hex is the message's bytes (EIP-1193's encoding); other text is signed as its UTF-8, as wallets do.
  const bytes = isHex(message) && message.length % 2 === 0 ? hexToBytes(message) : stringToBytes(message)
  return {
    title: titles.signMessage,
    rows: [accountRow(account)],
    message: messageOf(bytes),
    warnings: [],
  }
}

function ethSign(params: unknown): Description {
  const [account, data] = leading(params, 2)
  return {
    title: titles.signHash,
    rows: [accountRow(account)],
    message: { label: labels.hash, text: cut(hex(data), limits.message) },
    warnings: [warn.blindSign],
  }
}

// ---- EIP-712 ----

const permits = new Set([
  'Permit',
  'PermitSingle',
  'PermitBatch',
  'PermitTransferFrom',
  'PermitBatchTransferFrom',
  'PermitWitnessTransferFrom',
  'PermitBatchWitnessTransferFrom',
])
// ERC-2612 permits up to uint256; Permit2 allowances are uint160.
const unlimited = new Set([maxUint256.toString(), maxUint160.toString()])

function typedData(params: unknown, context: Context): Description {
  const [account, raw] = leading(params, 2)
  const data = record(typeof raw === 'string' ? JSON.parse(raw) : raw)
  const domain = record(data.domain ?? {})
  const primaryType = data.primaryType
  if (typeof primaryType !== 'string') fail('The typed data has no primaryType.')
  const leaves = flatten(record(data.message))
  const rows: Row[] = [accountRow(account)]
  const shown = (label: string, value: unknown, mono = false) => {
    if (value !== undefined) rows.push({ label, value: leaf(value), mono })
  }
  shown(labels.app, domain.name)
  shown(labels.version, domain.version)
  shown(labels.chain, domain.chainId)
  shown(labels.contract, domain.verifyingContract, true)
  shown(labels.type, primaryType)
  rows.push(...leaves.slice(0, limits.fields))
  if (leaves.length > limits.fields)
    rows.push({ label: labels.more, value: values.moreFields(leaves.length - limits.fields) })
  const warnings: string[] = []
  if (permits.has(primaryType) || domain.name === 'Permit2') {
    const spender = leaves.find((row) => row.label === 'spender')?.value
    warnings.push(warn.permit(spender ?? values.someone))
    if (leaves.some(isUnlimited)) warnings.push(warn.unlimitedPermit)
  }
  const chain = chainOf(context)
  if (domain.chainId !== undefined && chain !== undefined && bigintOf(domain.chainId) !== chain.id)
    warnings.unshift(warn.otherChain(leaf(domain.chainId), chain.name))
  return { title: titles.signTypedData, rows, warnings }
}

/** The message's fields, nested ones as `a.b` (arrays `a.0`), each value cut to its cap. */
function flatten(value: Record<string, unknown>): Row[] {
  const rows: Row[] = []
  // Bounded both ways: a page cannot make the view walk a deep or huge object.
  const walk = (item: unknown, path: string, depth: number) => {
    if (rows.length > 1_000) return
    if (item !== null && typeof item === 'object' && depth < 8) {
      const entries = Object.entries(item)
      if (entries.length === 0 && path) rows.push({ label: path, value: Readable.json(item) })
      for (const [key, child] of entries) walk(child, path ? `${path}.${key}` : key, depth + 1)
      return
    }
    const text = leaf(item)
    rows.push({ label: path, value: cut(text, limits.field), mono: text.startsWith('0x') })
  }
  walk(value, '', 0)
  return rows
}

function isUnlimited(row: Row): boolean {
  const name = row.label.split('.').at(-1)
  return (
    ((name === 'value' || name === 'amount') && unlimited.has(row.value)) ||
    (name === 'allowed' && row.value === 'true')
  )
}

function leaf(value: unknown): string {
  return typeof value === 'string' ? value : Readable.json(value)
}

// ---- Transactions ----

function transaction(params: unknown, context: Context): Description {
  const [fields] = leading(params, 1)
  const tx = record(fields)
  const to = tx.to === undefined || tx.to === null ? undefined : address(tx.to)
  const value = quantity(tx.value) ?? 0n
  const data = tx.data ?? tx.input
  const bytes = data === undefined ? '0x' : hex(data)
  const chain = chainOf(context)
  const rows: Row[] = []
  if (chain) rows.push({ label: labels.network, value: chain.name })
  if (tx.from !== undefined) rows.push({ label: labels.from, value: address(tx.from), mono: true })
  const call = to && size(bytes) > 0 ? describeCall(bytes, context.locale) : undefined
  rows.push(
    to
      ? { label: call ? labels.contract : labels.to, value: to, mono: true }
      : { label: labels.to, value: values.newContract },
  )
  rows.push({ label: labels.value, value: valueText(value, context) })
  const description: Description = {
    title: to ? titles.sendTransaction : titles.deploy,
    rows,
    warnings: [...(call?.warnings ?? [])],
  }
  if (call) rows.push(...call.rows)
  if (!to) rows.push({ label: labels.data, value: values.bytes(size(bytes)) })
  if (call?.message) description.message = call.message
  const gas = quantity(tx.gas)
  if (gas !== undefined) rows.push({ label: labels.gas, value: whole(gas, context.locale) })
  const chainId = quantity(tx.chainId)
  if (chainId !== undefined && chain && chainId !== chain.id)
    description.warnings.unshift(warn.otherChain(chainId.toString(), chain.name))
  return description
}

/**
 * EIP-5792's batch (checked by the core before it gets here): one approval for every call, each described as
 * its own transaction would be, under its number.
 */
function batch(params: unknown, context: Context): Description {
  const [first] = leading(params, 1)
  const { calls } = record(first)
  if (!Array.isArray(calls) || calls.length === 0) fail('Expected calls.')
  const chain = chainOf(context)
  const rows: Row[] = chain ? [{ label: labels.network, value: chain.name }] : []
  const warnings: string[] = []
  calls.forEach((call, index) => {
    const one = transaction([record(call)], context)
    rows.push({ label: labels.call(index + 1), value: one.title })
    rows.push(...one.rows.filter((row) => row.label !== labels.network))
    warnings.push(...one.warnings.filter((warning) => !warnings.includes(warning)))
  })
  return { title: titles.sendCalls(calls.length), rows, warnings }
}

function valueText(value: bigint, { network, locale }: Context): string {
  if (network?.namespace === 'eip155') return Readable.amount(value, network.nativeCurrency, locale)
  return values.baseUnits(whole(value, locale), 'wei')
}

// ---- Reading params ----

/** The first `count` params; EVM methods take an array. */
function leading(params: unknown, count: number): unknown[] {
  if (!Array.isArray(params) || params.length < count) fail(`Expected ${count} parameters.`)
  return params
}

function record(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('Expected an object.')
  return value as Record<string, unknown>
}

function accountRow(account: unknown): Row {
  return { label: labels.account, value: address(account), mono: true }
}

function address(value: unknown): string {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) fail('Expected an address.')
  return value
}

function hex(value: unknown): Hex {
  if (typeof value !== 'string' || !isHex(value) || value.length % 2 !== 0) fail('Expected hex bytes.')
  return value
}

/** An EIP-1474 quantity (`0x…`); a plain integer is taken too, as some dApps send one. */
function quantity(value: unknown): bigint | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value)
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  return fail('Expected a quantity.')
}

/** A chain id as EIP-712 domains write it: a number, a decimal or hex string. */
function bigintOf(value: unknown): bigint | undefined {
  try {
    if (typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint')
      return BigInt(value)
  } catch {}
  return undefined
}

function chainOf({ network }: Context): { id: bigint; name: string } | undefined {
  if (network?.namespace !== 'eip155') return undefined
  return { id: BigInt(Caip.parseChainId(network.id).reference), name: network.name }
}
