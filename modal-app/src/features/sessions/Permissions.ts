/**
 * ERC-7715 (`wallet_grantPermissions`, draft of 2024-05) mapped onto the one thing an Airlock account can
 * enforce on chain: a session (`SessionKeys.sol`) that lets one key call one contract's one function (or
 * send plain ETH to one address), up to a spend limit, paying at most a gas allowance in ETH for its own
 * operations, until an expiry. What a request asks is either that, exactly, or refused with -32602 naming
 * why; never granted wider than asked.
 *
 * | ERC-7715 request                                      | the session                                         |
 * | ----------------------------------------------------- | --------------------------------------------------- |
 * | `signer` `account` `{ address }`, `key` `{ id }` (a   | `key`: the address whose 65-byte signatures over a  |
 * | 0x address or secp256k1 public key), `keys` (one)     | user operation's hash the account accepts           |
 * | `erc20-token-transfer` `{ address, allowance }`       | target = the token, `transfer`, limit = allowance   |
 * | `native-token-transfer` `{ allowance, to }`           | target = `to`, plain ETH only, limit = allowance    |
 * | `contract-call` `{ address, abi?, functions: [{ functionName }] }` | target = address, that one function; a   |
 * |   with policy `token-allowance` / `spent-limit` `{ allowance }`    | limit on the amount (ERC-20 transfer or  |
 * |                                                       | approve) or else on the ETH sent; none: 0           |
 * | policy `gas-limit` `{ limit }` (wei, as viem reads    | `gasAllowance`: what the account pays for the key's |
 * |   the draft), on any permission                       | operations no paymaster pays, each counted at its   |
 * |                                                       | maximum prefund; none: {@link defaultGasAllowance}  |
 * | `expiry` (Unix seconds)                               | `validUntil`, enforced by the EntryPoint            |
 *
 * Other policies (call counts, rate limits) and permission types cannot be enforced by the account, so they
 * are refused. The answer's `context` (and `permissionsContext`, its older name) is the session's pci,
 * `abi.encode(account, key, chainId)`, which `wallet_revokePermissions` takes back; its policies carry the
 * gas allowance granted when the request named none.
 */

import { encodePci } from '@airlock/api/contract'
import { Caip, Errors } from '@airlock/bridge-protocol'
import * as S from '@airlock/bridge-protocol/Shape'
import {
  type Abi,
  type Address,
  getAbiItem,
  getAddress,
  type Hex,
  isAddress,
  maxUint128,
  parseEther,
  toFunctionSelector,
  toHex,
} from 'viem'
import { publicKeyToAddress } from 'viem/accounts'

/** ERC-20 `transfer(address,uint256)` and `approve(address,uint256)`: the account counts their amount. */
export const transferSelector = '0xa9059cbb'
const approveSelector = '0x095ea7b3'

/** The longest session the modal grants: a dApp wanting more asks again. */
export const maxDurationS = 30 * 24 * 3600

/**
 * The gas allowance of a request that names none: enough for a few dozen operations at an L2's or a quiet
 * mainnet's fees, small enough that a key spending it all on gas costs the visitor little; the grant view
 * says it either way. A dApp whose paymaster pays asks for `gas-limit` 0.
 */
export const defaultGasAllowance = parseEther('0.01')

export type Session = {
  chainId: Caip.ChainId
  account: Address
  key: Address
  target: Address
  /** `0x00000000`: plain ETH transfers to `target`. */
  selector: Hex
  /** The function's name, when the request named it (`transfer`). */
  functionName: string | undefined
  limit: bigint
  /** What the limit counts: a token amount (its ERC-20 argument) or ETH sent. */
  spends: 'token' | 'native'
  /** Wei the account may pay for the key's operations' gas (those no paymaster pays). */
  gasAllowance: bigint
  validUntil: number
  pci: Hex
}

const hexQuantity = S.string(66, 3, /^0x[0-9a-fA-F]{1,64}$/)
const policy = S.object({ type: S.string(64, 1), data: S.optional(S.record(S.unknown, 16)) })
const permission = S.object({
  type: S.string(64, 1),
  data: S.record(S.unknown, 16),
  policies: S.optional(S.array(policy, 8)),
  required: S.optional(S.boolean),
})
const request = S.object({
  chainId: S.union(S.string(18, 3, /^0x[0-9a-fA-F]{1,16}$/), S.number(1, Number.MAX_SAFE_INTEGER)),
  address: S.optional(S.string(42, 42, /^0x[0-9a-fA-F]{40}$/)),
  expiry: S.number(0, 2 ** 48 - 1),
  signer: S.object({ type: S.string(16, 1), data: S.optional(S.record(S.unknown, 8)) }),
  // Both drafts: one `permission` with `policies` beside it, or `permissions`, each with its `policies`.
  permission: S.optional(permission),
  permissions: S.optional(S.array(permission, 8)),
  policies: S.optional(S.array(policy, 8)),
})
type Request = S.Infer<typeof request>

const invalid = (message: string) => new Errors.InvalidParamsError(message)

function parse<T>(shape: S.Shape<T>, value: unknown, what: string): T {
  const parsed = S.parse(shape, value)
  if (!parsed.ok) throw invalid(`${what}: ${parsed.message}`)
  return parsed.value
}

export type Context = {
  /** The connection's chain and account: a request for another is refused. */
  chainId: Caip.ChainId
  account: string
  /** Now, in Unix seconds. */
  now: number
}

/**
 * The session a `wallet_grantPermissions` request asks for, or a refusal: -32602 naming what cannot be
 * enforced, 4100 for another account, 5710 for another chain.
 * @example
 * const session = Permissions.sessionOf(request.params, { chainId: 'eip155:31337', account, now })
 */
export function sessionOf(params: unknown, context: Context): Session {
  const list = Array.isArray(params) ? params : [params]
  if (list.length !== 1) throw invalid('wallet_grantPermissions: one permission request at a time')
  const asked = parse(request, list[0], 'params[0]')
  const chainId = Caip.formatChainId('eip155', BigInt(asked.chainId).toString())
  if (chainId !== context.chainId)
    throw new Errors.UnsupportedChainError(`Switch the wallet to ${chainId} to grant permissions there.`)
  if (asked.address && asked.address.toLowerCase() !== context.account.toLowerCase())
    throw new Errors.UnauthorizedError()
  if (asked.expiry <= context.now) throw invalid('expiry: the time has passed')
  if (asked.expiry > context.now + maxDurationS) throw invalid('expiry: at most 30 days from now')
  const permissions = [...(asked.permission ? [asked.permission] : []), ...(asked.permissions ?? [])]
  const [only, ...more] = permissions
  if (!only || more.length > 0) throw invalid('permissions: exactly one permission per request')
  const policies = [...(asked.policies ?? []), ...(only.policies ?? [])]
  const gas = policies.filter((policy) => policy.type === 'gas-limit')
  if (gas.length > 1) throw invalid('policies: one gas-limit per session')
  const account = getAddress(context.account)
  const key = signerOf(asked.signer)
  if (key.toLowerCase() === account.toLowerCase()) throw invalid('signer: the account itself')
  const scope = scopeOf(
    only,
    policies.filter((policy) => policy.type !== 'gas-limit'),
  )
  if (scope.target.toLowerCase() === account.toLowerCase())
    throw invalid('permission: a session may not call the account itself')
  const id = Number(Caip.parseChainId(chainId).reference)
  return {
    chainId,
    account,
    key,
    ...scope,
    gasAllowance: gas[0] ? amountOf(gas[0].data?.limit, 'policies: gas-limit.limit') : defaultGasAllowance,
    validUntil: asked.expiry,
    pci: encodePci({ account, key, chainId: id }),
  }
}

/** The session key: ERC-7715's `account` or `key` signer, or `keys` with one secp256k1 key. */
function signerOf(signer: Request['signer']): Address {
  const data = signer.data ?? {}
  const fromKey = (value: unknown): Address => {
    if (typeof value === 'string' && isAddress(value, { strict: false })) return getAddress(value)
    // An uncompressed secp256k1 public key (65 bytes, 0x04…).
    if (typeof value === 'string' && /^0x04[0-9a-fA-F]{128}$/.test(value))
      return publicKeyToAddress(value as Hex)
    throw invalid('signer: expected an address or an uncompressed secp256k1 public key')
  }
  switch (signer.type) {
    case 'account':
      return fromKey(data.address)
    case 'key':
      return fromKey(data.id ?? data.publicKey)
    case 'keys': {
      const keys = Array.isArray(data.keys) ? data.keys : []
      const [one] = keys as { type?: unknown; publicKey?: unknown }[]
      if (keys.length !== 1 || !one || (one.type !== undefined && one.type !== 'secp256k1'))
        throw invalid('signer: exactly one secp256k1 key')
      return fromKey(one.publicKey)
    }
  }
  throw invalid(`signer: type ${signer.type} is not supported (account, key or keys)`)
}

type Scope = Pick<Session, 'target' | 'selector' | 'functionName' | 'limit' | 'spends'>

function scopeOf(asked: S.Infer<typeof permission>, policies: readonly S.Infer<typeof policy>[]): Scope {
  const data = asked.data
  const target = (field: string) => {
    const value = data[field]
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value))
      throw invalid(`permission.data.${field}: expected a 0x-prefixed address`)
    return getAddress(value)
  }
  const allowance = amountOf
  switch (asked.type) {
    case 'erc20-token-transfer':
      noPolicies(policies)
      return {
        target: target('address'),
        selector: transferSelector,
        functionName: 'transfer',
        limit: allowance(data.allowance, 'permission.data.allowance'),
        spends: 'token',
      }
    case 'native-token-transfer':
      noPolicies(policies)
      if (data.to === undefined)
        throw invalid('permission.data.to: a session sends ETH to one address, name it')
      return {
        target: target('to'),
        selector: '0x00000000',
        functionName: undefined,
        limit: allowance(data.allowance, 'permission.data.allowance'),
        spends: 'native',
      }
    case 'contract-call': {
      const { selector, functionName } = functionOf(data)
      const spends = selector === transferSelector || selector === approveSelector ? 'token' : 'native'
      return { target: target('address'), selector, functionName, limit: limitOf(policies), spends }
    }
  }
  throw invalid(
    `permission: type ${asked.type} is not supported (contract-call, erc20-token-transfer, native-token-transfer)`,
  )
}

/** The one function a `contract-call` names: by its ABI entry, its signature, or a 4-byte selector. */
function functionOf(data: Record<string, unknown>): { selector: Hex; functionName: string | undefined } {
  const functions = Array.isArray(data.functions) ? (data.functions as { functionName?: unknown }[]) : []
  const named = data.functionName ?? data.function ?? functions[0]?.functionName
  if (functions.length > 1) throw invalid('permission.data.functions: one function per session')
  if (typeof data.selector === 'string' && /^0x[0-9a-fA-F]{8}$/.test(data.selector))
    return { selector: data.selector.toLowerCase() as Hex, functionName: undefined }
  if (typeof named !== 'string' || named.length === 0 || named.length > 256)
    throw invalid('permission.data.functions: name the one function the key may call')
  if (named.includes('(')) {
    try {
      return { selector: toFunctionSelector(named), functionName: named.slice(0, named.indexOf('(')) }
    } catch {
      throw invalid(`permission.data.functions: ${named} is not a function signature`)
    }
  }
  if (!Array.isArray(data.abi)) throw invalid('permission.data.abi: needed to find the function by its name')
  const overloads = (data.abi as Abi).filter((item) => item.type === 'function' && item.name === named)
  if (overloads.length !== 1) throw invalid(`permission.data.abi: expected one function named ${named}`)
  const item = getAbiItem({ abi: data.abi as Abi, name: named })
  if (item?.type !== 'function') throw invalid(`permission.data.abi: no function ${named}`)
  return { selector: toFunctionSelector(item), functionName: named }
}

/** An amount the account stores as a uint128: a hex quantity that fits. */
function amountOf(value: unknown, where: string): bigint {
  const amount = BigInt(parse(hexQuantity, value, where))
  if (amount > maxUint128) throw invalid(`${where}: more than the account can hold (uint128)`)
  return amount
}

/** A spend limit from the policies; any other policy cannot be enforced on chain, so it is refused. */
function limitOf(policies: readonly S.Infer<typeof policy>[]): bigint {
  let limit = 0n
  for (const { type, data } of policies) {
    if (type !== 'token-allowance' && type !== 'spent-limit' && type !== 'native-token-spend-limit')
      throw invalid(
        `policies: ${type} cannot be enforced by the account (token-allowance or spent-limit only)`,
      )
    limit = amountOf(data?.allowance ?? data?.limit, `policies: ${type}.allowance`)
  }
  return limit
}

function noPolicies(policies: readonly unknown[]): void {
  if (policies.length > 0)
    throw invalid('policies: the permission carries its allowance; only a gas-limit is enforced on top')
}

/**
 * ERC-7715's answer: the request as granted, and the session's pci as its context. A gas-limit the request
 * named was granted as asked; where it named none, its policies gain the one granted.
 */
export function response(asked: unknown, session: Session): Record<string, unknown>[] {
  const original = (Array.isArray(asked) ? asked[0] : asked) as Record<string, unknown>
  const lists = [
    original,
    original.permission,
    ...(Array.isArray(original.permissions) ? original.permissions : []),
  ]
  const isGas = (policy: unknown) => (policy as { type?: unknown } | null)?.type === 'gas-limit'
  const named = lists.some((entry) => {
    const listed = (entry as { policies?: unknown } | undefined)?.policies
    return Array.isArray(listed) && listed.some(isGas)
  })
  const policies = Array.isArray(original.policies) ? original.policies : []
  const gas = { type: 'gas-limit', data: { limit: toHex(session.gasAllowance) } }
  return [
    {
      ...original,
      ...(named ? {} : { policies: [...policies, gas] }),
      chainId: Caip.toHexChainId(session.chainId),
      address: session.account,
      expiry: session.validUntil,
      context: session.pci,
      permissionsContext: session.pci,
      // The grant's user operation deployed the account, so there is nothing for the dApp to deploy.
      signerMeta: {},
    },
  ]
}

/** `wallet_revokePermissions`' pci: `{ permissionContext }` (the ERC), `{ context }` or `{ id }`. */
export function revokedPci(params: unknown): Hex {
  const first = Array.isArray(params) ? params[0] : params
  const fields = (first ?? {}) as Record<string, unknown>
  const pci = fields.permissionContext ?? fields.permissionsContext ?? fields.context ?? fields.id
  if (typeof pci !== 'string' || !/^0x[0-9a-fA-F]{192}$/.test(pci))
    throw invalid('params[0].permissionContext: expected the context wallet_grantPermissions answered')
  return pci.toLowerCase() as Hex
}
