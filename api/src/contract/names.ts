/**
 * Names (docs/behaviour.md §7 "profile"): look a name up (`GET /v1/profile/account/{name}`), the names of an address
 * (`GET /v1/profile/reverse/{address}`), free variants of a wanted name (`GET /v1/profile/suggestions/{name}`)
 * and registering one under the project's suffix (`POST /v1/profile/account`). Project names live in the API
 * and reach ENS clients through the offchain resolver's CCIP-read gateway ({@link ensGatewayPath}); other
 * names (`alice.eth`) are read from ENS on chain.
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { avatarMax } from './identity.ts'

/**
 * Where the API answers the offchain resolver's CCIP-read requests (EIP-3668): the URL template its
 * resolver is deployed with, after the API's URL. `{sender}` is the resolver, `{data}` its request.
 */
export const ensGatewayPath = '/v1/ens/gateway/{sender}/{data}.json'

/** docs/behaviour.md §5: a name has at least this many characters (letters, digits or hyphens) before its suffix. */
export const nameMinLength = 4

/** How many attributes (text records: `avatar`, `description`, …) a name may carry. */
export const attributesMax = 20

/**
 * The API's refusals, each answered as `{ message }`: the product's own (docs/behaviour.md §5) where it has one ('Invalid chainId'),
 * else these. A client may show them as they are.
 */
export const nameTexts = {
  tooShort: `A name needs at least ${nameMinLength} characters before its suffix`,
  illegal: 'A name may hold only letters, digits and hyphens',
  confusable: 'A name may not mix characters that look alike',
  wrongSuffix: (suffix: string) => `A name must end in .${suffix}`,
  invalidChainId: 'Invalid chainId',
  unsupportedChain: 'Chain is not supported',
  invalidMessage: 'The message must be JSON with name, attributes and timestamp',
  invalidAttributes: `Attributes are at most ${attributesMax} texts, each named with letters, digits, '.', '-' or '_'`,
  staleMessage: 'The message timestamp must be within 10 minutes of now',
  invalidSignature: 'Invalid signature',
  replayed: 'This signed registration was already used',
  taken: 'Name already taken',
  notFound: 'Name not found',
  notYours: 'The name does not resolve to this address',
  unsupportedZone: (zone: string) => `Unsupported zone: ${zone}`,
  // docs/behaviour.md §8's, when a chain could not be read.
  resolveFailed: 'Error resolving name',
  reverseFailed: 'Error fetching names for address',
} as const

/**
 * A name and what it resolves to: `addresses` by coin type (ENSIP-9 and ENSIP-11: `60` for Ethereum,
 * `0x80000000 | chainId` for another EVM chain, as decimal strings), `attributes` its text records.
 * `registered` and `updated` (Unix seconds) come with the project's own names only.
 */
export const nameRecord = S.object({
  name: S.string(255, 1),
  registered: S.optional(S.number(0)),
  updated: S.optional(S.number(0)),
  addresses: S.record(S.object({ address: S.string(128, 1) }), 64),
  attributes: S.record(S.string(avatarMax), attributesMax),
})
export type NameRecord = S.Infer<typeof nameRecord>

/** `GET /v1/profile/reverse/{address}`: the address's names, the project's first, then its ENS primary name. */
export const reverseAnswer = S.array(nameRecord, 10)
export type ReverseAnswer = S.Infer<typeof reverseAnswer>

/**
 * `GET /v1/profile/suggestions/{name}`: the wanted name first, then free variants of it, each full (with the
 * suffix) and whether someone holds it.
 */
export const suggestionsAnswer = S.object({
  suggestions: S.array(S.object({ name: S.string(255, 1), registered: S.boolean }), 20),
})
export type SuggestionsAnswer = S.Infer<typeof suggestionsAnswer>

/**
 * `POST /v1/profile/account`. `message` is the JSON text the address signed (EIP-191 `personal_sign`; an
 * ERC-1271 or ERC-6492 signature for a smart account): `{ "name": "newcomer.airlock.id", "attributes": {},
 * "timestamp": <Unix seconds> }`. `coin_type` is the chain's (ENSIP-11; `60` for Ethereum).
 */
export const registerNameBody = S.object({
  coin_type: S.number(0, Number.MAX_SAFE_INTEGER),
  address: S.string(42, 42, /^0x[0-9a-fA-F]{40}$/),
  message: S.string(48_000, 2),
  signature: S.string(20_000, 4, /^0x[0-9a-fA-F]+$/),
})
export type RegisterNameBody = S.Infer<typeof registerNameBody>

/** The signed message's fields. */
export const registrationMessage = S.object({
  name: S.string(255, 1),
  attributes: S.optional(S.record(S.string(avatarMax), attributesMax)),
  timestamp: S.number(0, Number.MAX_SAFE_INTEGER),
})
export type RegistrationMessage = S.Infer<typeof registrationMessage>

/**
 * `GET /v1/profile/primary/{name}?address=0x…`: the transaction that makes `name` the primary name of
 * `address` (ENS's reverse registrar's `setName`) on the names chain, for the address's wallet to send; the
 * name must resolve to the address already, or ENS clients would not believe it.
 */
export const primaryNameAnswer = S.object({
  chainId: S.string(80, 1),
  tx: S.object({
    from: S.string(42, 42, /^0x[0-9a-fA-F]{40}$/),
    to: S.string(42, 42, /^0x[0-9a-fA-F]{40}$/),
    data: S.string(20_000, 2, /^0x[0-9a-fA-F]*$/),
    value: S.literal('0'),
  }),
})
export type PrimaryNameAnswer = S.Infer<typeof primaryNameAnswer>
