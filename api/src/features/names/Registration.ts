/**
 * `POST /v1/profile/account`: a signed registration of a project name, checked before anything is stored —
 * the coin type (ENSIP-11), the message (JSON: name, attributes, timestamp), the name (docs/behaviour.md §5, ENSIP-15), the
 * timestamp (within 10 minutes of now) and the address's signature of the message (EIP-191; ERC-1271 and
 * ERC-6492 for smart accounts, on the chain of the coin type when configured, else the names' chain).
 */
import * as S from '@airlock/bridge-protocol/Shape'
import { hashMessage } from 'viem'
import type { Config } from '../../Config.ts'
import {
  nameTexts,
  type RegisterNameBody,
  type RegistrationMessage,
  registrationMessage,
} from '../../contract/names.ts'
import { HttpError } from '../../http/errors.ts'
import { eip155 } from '../siwx/verifiers/eip155.ts'
import * as Name from './Name.ts'

/** How far a message's timestamp may be from the API's clock, either way. */
const timestampToleranceS = 600

/** An attribute's name: `avatar`, `description`, `com.twitter`… */
const attributeKey = /^[A-Za-z0-9._-]{1,64}$/

export type Checked = {
  name: string
  coinType: number
  address: string
  attributes: Record<string, string>
  /** The EIP-191 hash of the signed message with the address: what a replay would repeat. */
  key: string
}

export type CheckOptions = {
  config: Config
  /** The names block of the configuration. */
  names: { suffix: string; chainId: string }
  now: number
}

/**
 * Checks a registration, cheapest refusals first; the signature last, as it may need the chain.
 * @throws {HttpError} 400 or 401 with one of `nameTexts`; `RpcError` when a smart account's chain is down
 */
export async function check(body: RegisterNameBody, options: CheckOptions): Promise<Checked> {
  const chainId = Name.chainOf(body.coin_type)
  const message = parseMessage(body.message)
  const { name } = Name.parse(message.name, options.names.suffix)
  const attributes = message.attributes ?? {}
  if (!Object.keys(attributes).every((key) => attributeKey.test(key)))
    throw new HttpError(400, nameTexts.invalidAttributes)
  if (Math.abs(options.now / 1000 - message.timestamp) > timestampToleranceS)
    throw new HttpError(400, nameTexts.staleMessage)
  // A contract account is checked on its own chain where the API has it, else on the names' chain.
  const chain =
    options.config.chains.find((entry) => entry.id === chainId) ??
    options.config.chains.find((entry) => entry.id === options.names.chainId)
  const checkedOn = chain?.id ?? options.names.chainId
  const valid = await eip155.verify({
    chainId: checkedOn,
    reference: checkedOn.slice('eip155:'.length),
    address: body.address,
    message: body.message,
    signature: body.signature,
    rpcUrl: chain?.rpcUrl,
  })
  if (!valid) throw new HttpError(401, nameTexts.invalidSignature)
  return {
    name,
    coinType: body.coin_type,
    address: body.address,
    attributes,
    key: hashMessage(`${body.address.toLowerCase()}\n${body.message}`),
  }
}

function parseMessage(text: string): RegistrationMessage {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new HttpError(400, nameTexts.invalidMessage)
  }
  const parsed = S.parse(registrationMessage, json)
  // The shape's text names the field: a bad attribute has its own refusal, anything else is a bad message.
  if (!parsed.ok)
    throw new HttpError(
      400,
      parsed.message.startsWith('attributes') ? nameTexts.invalidAttributes : nameTexts.invalidMessage,
    )
  return parsed.value
}
