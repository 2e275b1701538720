/**
 * Names as identities (`GET /v1/identity/{address}`): an address's project name first, with its `avatar`
 * attribute, then its ENS primary name on the names' chain (`alice.eth`, checked forward), with its avatar
 * record; else what the deployment's own source says.
 */
import type { Address } from 'viem'
import { avatarMax } from '../../contract/identity.ts'
import type { Database } from '../../Database.ts'
import type { IdentitySource } from '../identity/Identity.ts'
import type { Ens } from './OnChain.ts'
import * as Store from './Store.ts'

export type IdentitiesOptions = {
  db: Pick<Database, 'query'>
  /** ENS on the names' chain; without it, only project names and the fallback answer. */
  ens: Ens | undefined
  /** Asked when the address has no name. */
  fallback: IdentitySource
}

/**
 * @example
 * const identity = Identities.source({ db, ens: OnChain.fromConfig(config), fallback: Identity.fromDatabase(db) })
 */
export function source(options: IdentitiesOptions): IdentitySource {
  const { db, ens, fallback } = options
  const avatar = (value: string | null | undefined) => (value && value.length <= avatarMax ? value : null)
  return {
    async lookup(address) {
      const [own] = await Store.ofAddress(db, address)
      if (own) return { name: own.name, avatar: avatar(own.attributes.avatar) }
      // An unreachable chain is no name: the identity route answers what else it knows.
      const primary = ens ? await ens.nameOf(address as Address).catch(() => null) : null
      if (primary && ens)
        return { name: primary, avatar: avatar(await ens.text(primary, 'avatar').catch(() => null)) }
      return fallback.lookup(address)
    },
  }
}
